import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { FitCore, MachineContext } from '../../src/analysis/index.ts'
import {
  BAND_TOLERANCE,
  BANDS,
  bandById,
  inBand,
  judgeFit,
  LATENCY_BANDS,
  ncclModelBand,
  verdictText,
} from '../../src/analysis/index.ts'
import { context } from './machine-context.ts'

const US = 1e-6

test('every band carries a source and conditions, low ≤ high, base units, and a unique id', () => {
  const ids = new Set<string>()
  for (const b of BANDS) {
    assert.ok(!ids.has(b.id), `duplicate ${b.id}`)
    ids.add(b.id)
    assert.ok(b.source.length > 5 && b.conditions.length > 5 && b.label.length > 5, b.id)
    assert.ok(b.low > 0 && b.low <= b.high, b.id)
    if (b.unit === 's') assert.ok(b.high < 1e-3, `${b.id}: seconds expected`)
    else assert.ok(b.low >= 1e9, `${b.id}: bytes/second expected`)
    assert.doesNotMatch(b.source + b.conditions, /REFERENCE\.md|§/, b.id)
  }
})

test('bands hold the published numbers: host-staged Ada/Genoa 10.27–14.22 µs, RTX PRO 6000 P2P on 0.36–0.52 µs', () => {
  const genoa = bandById('p2p-off-ada-genoa')!
  assert.equal(genoa.low, 10.27 * US)
  assert.equal(genoa.high, 14.22 * US)
  assert.equal(genoa.kind, 'host-staged')
  const on = bandById('p2p-on-rtxpro6000-gen5')!
  assert.deepEqual([on.low, on.high, on.p2p, on.vm], [0.36 * US, 0.52 * US, 'on', false])
})

test("the p2pmark '5–8 µs' band is labelled as an effective latency under load, not a per-pair latency", () => {
  const b = bandById('p2pmark-effective-latency-8gpu')!
  assert.equal(b.metric, 'p2p-effective-latency')
  assert.deepEqual([b.low, b.high], [6.03 * US, 7.39 * US])
  assert.match(b.label, /not a per-pair latency/)
  // So a 6.5 µs pair floor is never placed in it, whatever its mechanism.
  for (const p2p of ['enabled', 'disabled', null] as const)
    assert.ok(!judged(pair(6.5 * US, [6.4 * US, 6.6 * US], p2p)).bands.includes(b.id))
})

test("NCCL model bands equal NCCL's tuning.cc predictions for n = 2, 4, 8", () => {
  // PCI LL 8.6 / 12.6 / 20.6; NVLink LL 7.8 / 10.2 / 15.0; PCI Simple 19.8 / 42.6 / 88.2 µs.
  const want: [Parameters<typeof ncclModelBand>[0], number[]][] = [
    ['PCI/LL', [8.6, 12.6, 20.6]],
    ['NVLink/LL', [7.8, 10.2, 15.0]],
    ['PCI/Simple', [19.8, 42.6, 88.2]],
  ]
  for (const [key, vals] of want) {
    ;[2, 4, 8].forEach((n, i) => {
      const b = ncclModelBand(key, n)
      assert.ok(Math.abs(b.low / US - (vals[i] as number)) < 1e-9, `${key} n=${n}: ${b.low / US}`)
      assert.deepEqual(bandById(b.id), b)
    })
  }
})

test('every band admits ±BAND_TOLERANCE (10 %) past its edges, point bands too', () => {
  assert.equal(BAND_TOLERANCE, 0.1)
  const point = bandById('p2p-off-vm-ch')! // 12 µs
  assert.ok(
    inBand(point, 13.1 * US) && !inBand(point, 13.3 * US) && inBand(point, 10.9 * US) && !inBand(point, 10.7 * US),
  )
  const range = bandById('p2p-off-ada-genoa')! // 10.27–14.22 µs
  assert.ok(
    inBand(range, 15.6 * US) && !inBand(range, 15.7 * US) && inBand(range, 9.25 * US) && !inBand(range, 9.2 * US),
  )
})

const judged = (f: FitCore, ctx: MachineContext = context()) => judgeFit(f, { origins: new Set() }, ctx)!

const pair = (alpha: number, ci: [number, number], p2p: FitCore['p2p']): FitCore => ({
  bench: 'p2p.latency',
  src: 0,
  dst: 1,
  p2p,
  alpha,
  alphaCi: ci,
  beta: null,
  segments: [],
  smallest: { sizeBytes: 16, median: alpha, min: ci[0], n: 9 },
})

const RTXPRO = context({ gpuFamily: 'RTX PRO 6000 Blackwell' })

test("the issue's example verdict: a 13.7 µs floor with P2P disabled is host-staged, in the RTX PRO 6000 host-staged band, and P2P would cost 0.36–0.52 µs", () => {
  const f = pair(13.7 * US, [13.5 * US, 13.9 * US], 'disabled')
  const j = judged(f, RTXPRO)
  assert.equal(j.mechanism.id, 'host-staged')
  assert.equal(j.evidence[0]!.strength, 1)
  assert.match(j.evidence[0]!.fact, /P2P disabled/)
  assert.deepEqual(j.bands, ['p2p-off-rtxpro6000-gen5'])
  for (const id of j.bands) assert.equal(bandById(id)!.kind, 'host-staged', id)
  const text = verdictText(f, j)
  assert.match(
    text,
    /^GPU0→GPU1 p2p\.latency p2p=disabled: host-staged copy through pinned host memory \(no peer access\)\. Floor 13\.7 µs \[13\.5, 13\.9 µs\]/,
  )
  assert.match(
    text,
    /within 'P2P off, host-staged \(RTX PRO 6000, dual EPYC Turin\)' \(12\.6–15\.4 µs, github\.com\/voipmonitor\/rtx6kpro/,
  )
  // Without a topology every RTX PRO 6000 P2P-on setup matches; with NODE pairs on own root ports only the Gen5 one.
  assert.match(text, /with peer access this kind of machine copies in 360 ns–1\.36 µs \(3 published setups/)
  const node = context({
    gpuFamily: 'RTX PRO 6000 Blackwell',
    attach: { value: 'direct', source: 'test' },
    linkClass: () => ({ value: 'NODE', source: 'test' }),
  })
  assert.match(verdictText(f, judged(f, node)), /copies in 360–520 ns \('P2P on, PCIe Gen5/)
  // The '5–8 µs NODE' note is the analysis's, once; never part of a verdict.
  assert.doesNotMatch(text, /5–8 µs/)
})

test('a 0.42 µs floor with peer access is P2P over PCIe, in the P2P-on Gen5 band only', () => {
  const j = judged(
    pair(0.42 * US, [0.41 * US, 0.43 * US], 'enabled'),
    context({ gpuFamily: 'RTX PRO 6000 Blackwell', peerAccess: () => ({ value: true, source: 'test' }) }),
  )
  assert.equal(j.mechanism.id, 'p2p-pcie')
  assert.deepEqual(j.bands, ['p2p-on-rtxpro6000-gen5'])
})

test('same-GPU fits cite only same-GPU bands; all_reduce cites bands of its group size and NCCL model', () => {
  const diag = { ...pair(2 * US, [1.9 * US, 2.1 * US], 'enabled'), dst: 0 }
  assert.deepEqual(judged(diag).bands, ['same-gpu-ce'])
  const ar: FitCore = {
    bench: 'nccl.all_reduce',
    ranks: 8,
    p2p: null,
    alpha: 20.6 * US,
    alphaCi: [20 * US, 21 * US],
    beta: null,
    segments: [{ fromBytes: 8, toBytes: 65536, points: 14, alpha: 20.6 * US, beta: null, relRms: 0 }],
    smallest: { sizeBytes: 8, median: 21 * US, min: 20 * US, n: 3 },
  }
  const j = judged(ar)
  assert.ok(j.bands.includes('nccl-model-pci-ll-n8'), j.bands.join())
  assert.ok(
    j.cited.every((c) => !c.id.includes('dgx') && !c.id.includes('a100')),
    'no NVLink band without NVLink',
  )
  const nv = judged(ar, context({ nvlink: { value: true, source: 'test' } }))
  assert.ok(nv.cited.some((c) => c.id === 'nccl-model-nvlink-ll-n8'))
})

test('every static latency band is reachable by bandById', () => {
  for (const b of LATENCY_BANDS) assert.equal(bandById(b.id), b)
})
