import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Fit } from '../../src/analysis/index.ts'
import {
  BANDS,
  bandById,
  floorBands,
  inBand,
  LATENCY_BANDS,
  ncclModelBand,
  verdictText,
} from '../../src/analysis/index.ts'

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
  }
})

test('bands hold REFERENCE.md §1 numbers: host-staged Ada/Genoa 10.27–14.22 µs, RTX PRO 6000 P2P on 0.36–0.52 µs', () => {
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
  // So a 6.5 µs pair floor is never placed in it.
  assert.ok(
    !floorBands({
      bench: 'p2p.latency',
      src: 0,
      dst: 1,
      p2p: 'enabled',
      alpha: 6.5 * US,
      alphaCi: [6.4 * US, 6.6 * US],
      beta: null,
      smallest: { sizeBytes: 16, median: 6.5 * US, min: 6.4 * US, n: 3 },
    }).includes(b.id),
  )
})

test("NCCL model bands equal REFERENCE.md §2's predictions for n = 2, 4, 8", () => {
  // REFERENCE.md §2: PCI LL 8.6 / 12.6 / 20.6; NVLink LL 7.8 / 10.2 / 15.0; PCI Simple 19.8 / 42.6 / 88.2 µs.
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

test('point bands (low = high) admit ±10 %; ranges are exact', () => {
  const point = bandById('p2p-off-vm-ch')! // 12 µs
  assert.ok(
    inBand(point, 13.1 * US) && !inBand(point, 13.3 * US) && inBand(point, 10.9 * US) && !inBand(point, 10.7 * US),
  )
  const range = bandById('p2p-off-ada-genoa')!
  assert.ok(inBand(range, 14.22 * US) && !inBand(range, 14.23 * US))
})

type Core = Parameters<typeof verdictText>[0]
const pair = (alpha: number, ci: [number, number], p2p: Fit['p2p']): Core => ({
  bench: 'p2p.latency',
  src: 0,
  dst: 1,
  p2p,
  alpha,
  alphaCi: ci,
  beta: null,
  smallest: { sizeBytes: 16, median: alpha, min: ci[0], n: 9 },
})

test("the issue's example verdict: a 13.7 µs floor is host-staged, ~26× the P2P-on Gen5 band, and the 5–8 µs figure is explained", () => {
  const f = pair(13.7 * US, [13.5 * US, 13.9 * US], 'disabled')
  const ids = floorBands(f)
  assert.ok(ids.includes('p2p-off-ada-genoa') && ids.includes('p2p-off-rtxpro6000-gen5'), ids.join())
  for (const id of ids) assert.equal(bandById(id)!.kind, 'host-staged', id)
  const text = verdictText(f, { gpuFamily: 'RTX PRO 6000 Blackwell' })
  assert.match(text, /^GPU0→GPU1 p2p\.latency p2p=disabled floor 13\.7 µs \[13\.5, 13\.9 µs\]/)
  assert.match(
    text,
    /within 'P2P off, host-staged \(RTX 6000 Ada, 2-socket Genoa\)' \(10\.27–14\.22 µs, bare metal, github\.com\/luigifcruz\/stelline/,
  )
  // 13.7 / 0.52 = 26.3
  assert.match(text, /26× the 'P2P on, PCIe Gen5 \(RTX PRO 6000, dual EPYC Turin\)' band \(360–520 ns/)
  assert.match(text, /'5–8 µs NODE' figure .* not a per-pair latency/)
})

test('a 0.42 µs floor lands in the P2P-on Gen5 band only', () => {
  assert.deepEqual(floorBands(pair(0.42 * US, [0.41 * US, 0.43 * US], 'enabled')), ['p2p-on-rtxpro6000-gen5'])
})

test('same-GPU fits are placed only among same-GPU bands; collectives among bands for their group size', () => {
  const diag = { ...pair(2 * US, [1.9 * US, 2.1 * US], 'enabled'), dst: 0 }
  assert.deepEqual(floorBands(diag), ['same-gpu-ce'])
  const ar = {
    bench: 'nccl.all_reduce',
    ranks: 8,
    p2p: null,
    alpha: 20.6 * US,
    alphaCi: [20 * US, 21 * US] as [number, number],
    beta: null,
    smallest: { sizeBytes: 8, median: 21 * US, min: 20 * US, n: 3 },
  }
  assert.deepEqual(floorBands(ar), ['nccl-model-pci-ll-n8'])
  assert.ok(floorBands({ ...ar, alpha: 40 * US }).includes('ar-4090-shm-8gpu'))
  assert.deepEqual(floorBands({ ...ar, ranks: 4, alpha: 13.5 * US }).sort(), [
    'ar-rtxpro6000-p2p-ll-4gpu',
    'nccl-model-pci-ll-n4',
  ])
})

test('every static latency band is reachable by bandById', () => {
  for (const b of LATENCY_BANDS) assert.equal(bandById(b.id), b)
})
