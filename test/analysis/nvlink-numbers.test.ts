/**
 * Issue 30 item 1: NVLink named by its numbers, whatever the GPU name says. Generated variants
 * of the real A100 SXM4 and RTX 6000 Ada p2pBandwidthLatencyTest fixtures: the device names
 * replaced by a neutral one (or by "H100 PCIe"), P2P-enabled bandwidth scaled, bandwidth
 * matrices cut; each verdict says which evidence decided.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Analysis, Fit } from '../../src/analysis/index.ts'
import { importVariant, p2pFixture, renameGpus } from './variants.ts'

const A100 = '8x-a100-sxm4-nvswitch-shared-busid-ce'
const ADA = 'asus-esc8000a-4x-rtx6000ada-p2p-enabled'
const NEUTRAL = 'NVIDIA Generic GPU (name edited by the test)'
const crossOn = (a: Analysis, bench = 'p2p.latency'): Fit[] =>
  a.fits.filter((f) => f.bench === bench && f.p2p === 'enabled' && f.src !== f.dst)

/** Multiplies the GPU cells off the diagonal of the matrix titled `title` (two decimals, as printed). */
function scaleMatrix(text: string, title: string, k: number): string {
  const lines = text.split('\n')
  let on = false
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as string
    if (l.startsWith(title)) {
      on = true
      continue
    }
    const m = /^(\s+)(\d+)((?:\s+[\d.]+)+)\s*$/.exec(l)
    if (!on || /D\\D/.test(l)) continue
    if (!m) {
      on = false
      continue
    }
    const row = Number(m[2])
    const cells = (m[3] as string).trim().split(/\s+/).map(Number)
    lines[i] = `${m[1]}${m[2]}${cells.map((v, j) => (j === row ? v : v * k).toFixed(2).padStart(7)).join('')}`
  }
  return lines.join('\n')
}

/** The text without its four bandwidth matrices (latency only). */
const noBandwidth = (text: string): string =>
  text.replace(/Unidirectional P2P=Disabled Bandwidth[\s\S]*?(?=P2P=Disabled Latency)/, '')

test('an NVSwitch A100 matrix with a neutral GPU name is NVLink by its bandwidth (~270 GB/s > PCIe Gen5 x16), and says so', async () => {
  const text = renameGpus(p2pFixture(A100), NEUTRAL)
  assert.ok(!/A100|SXM/.test(text.split('P2P Connectivity')[0] as string))
  const a = await importVariant('a100-neutral-name', text)
  const fits = crossOn(a)
  assert.equal(fits.length, 56)
  for (const f of fits) {
    assert.equal(f.mechanism.id, 'p2p-nvlink', `${f.src}→${f.dst}: ${f.verdict}`)
    assert.match(f.mechanism.text, /^P2P over NVLink\/NVSwitch \(by its measured bandwidth, \d+(\.\d+)? GB\/s\)$/)
    assert.ok(
      f.evidence.some((e) =>
        /above what a PCIe Gen5 x16 link carries \(63 GB\/s per direction \+ 10 %\): NVLink/.test(e.fact),
      ),
      f.verdict,
    )
    // NVLink bands may now be cited; the A100 NVSwitch band holds these 2.7–3.3 µs floors.
    assert.ok(f.bands.includes('p2p-on-a100-nvswitch'), `${f.src}→${f.dst}: ${f.bands}`)
  }
})

test('two "H100 PCIe" cards whose P2P bandwidth is 256 GB/s (a bridge) are NVLink; the same cards at PCIe speed stay P2P over PCIe', async () => {
  const base = renameGpus(p2pFixture(ADA), 'NVIDIA H100 PCIe')
  // The published 26.3 GB/s P2P writes scaled to ~256 GB/s.
  const bridged = scaleMatrix(base, 'Unidirectional P2P=Enabled Bandwidth', 256 / 26.3)
  const a = await importVariant('h100-pcie-bridge', bridged)
  for (const f of crossOn(a)) {
    assert.equal(f.mechanism.id, 'p2p-nvlink', `${f.src}→${f.dst}: ${f.verdict}`)
    assert.match(f.mechanism.text, /by its measured bandwidth, 2\d\d(\.\d+)? GB\/s/)
  }
  const plain = await importVariant('h100-pcie-plain', base)
  for (const f of crossOn(plain)) assert.equal(f.mechanism.id, 'p2p-pcie', `${f.src}→${f.dst}: ${f.verdict}`)
})

test('the neutral-name A100 matrix without bandwidth matrices is NVLink by its latency alone (weaker, said so); PCIe floors are not', async () => {
  const a = await importVariant('a100-neutral-latency-only', noBandwidth(renameGpus(p2pFixture(A100), NEUTRAL)))
  assert.equal(a.fits.filter((f) => f.bench === 'p2p.bw_uni').length, 0, 'the generated variant has no bandwidth rows')
  const fits = crossOn(a)
  assert.ok(fits.length > 40)
  const nv = fits.filter((f) => f.mechanism.id === 'p2p-nvlink')
  // Most 2.7–3.3 µs floors are inside NVLink's published range; none is called PCIe P2P.
  assert.ok(nv.length > fits.length / 2, `${nv.length} of ${fits.length}`)
  for (const f of nv) {
    assert.match(f.mechanism.text, /\(by its latency alone\)$/)
    assert.ok(f.evidence.some((e) => /above every published PCIe P2P copy/.test(e.fact)))
  }
  assert.ok(
    fits.every((f) => f.mechanism.id !== 'p2p-pcie'),
    fits.map((f) => f.mechanism.id).join(),
  )
  // The Ada PCIe fixture (1.2–1.4 µs floors, no topology) stays P2P over PCIe without its bandwidth.
  const ada = await importVariant('ada-latency-only', noBandwidth(p2pFixture(ADA)))
  for (const f of crossOn(ada)) assert.equal(f.mechanism.id, 'p2p-pcie', `${f.src}→${f.dst}: ${f.verdict}`)
})
