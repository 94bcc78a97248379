import assert from 'node:assert/strict'
import { test } from 'node:test'
import { MODEL_PRESETS, p2pReadings, resolveModel, timeAt } from '../../src/analysis/index.ts'

const close = (got: number, want: number, tol = 1e-9): void =>
  assert.ok(Math.abs(got / want - 1) < tol, `${got} vs ${want}`)

test('GLM-5 preset: 78 layers, hidden 6144, bf16 → 156 all-reduces per step of 768 KiB at batch 64 (docs/REFERENCE.md, decode-step model)', () => {
  const m = MODEL_PRESETS['glm-5']!
  assert.equal(m.layers * m.allreducesPerLayer, 156)
  assert.equal(m.hidden * m.dtypeBytes, 12 * 1024) // 12 KiB per token
  assert.equal(m.batch * m.hidden * m.dtypeBytes, 768 * 1024)
  assert.deepEqual(resolveModel('GLM-5', { layers: 40, batch: undefined })?.layers, 40)
  assert.equal(resolveModel('GLM-5', { batch: undefined })?.batch, 64)
  assert.equal(resolveModel('nope'), undefined)
})

test('both readings of a 13.7 µs p2p floor match the worked example of docs/REFERENCE.md (decode-step model)', () => {
  const [perHop, whole] = p2pReadings(13.7e-6, MODEL_PRESETS['glm-5']!)
  // Per hop: TP8 6.6 + 14 × 13.7 = 198.4 µs, × 156 = 30.95 ms; TP4 6.6 + 6 × 13.7 = 88.8 µs, × 156 = 13.85 ms.
  close(perHop!.tp8.allreduce, 198.4e-6)
  close(perHop!.tp8.step, 198.4e-6 * 156)
  close(perHop!.tp4.allreduce, 88.8e-6)
  close(perHop!.tp4.step, 13.8528e-3)
  // Whole transfer: 156 × 13.7 µs = 2.137 ms per step; ceiling 64 / 2.1372 ms = 29 945 tok/s.
  close(whole!.tp8.step, 2.1372e-3)
  close(whole!.tp8.tokPerSec, 64 / 2.1372e-3)
})

test('timeAt: exact sizes, the α–β line through the neighbours, and the fitted line beyond the measured range', () => {
  const c = [
    { x: 1024, y: 10e-6 },
    { x: 4096, y: 40e-6 },
    { x: 16384, y: 40e-6 },
  ]
  assert.deepEqual(timeAt(c, 4096), { t: 40e-6, from: 'measured' })
  // 2048 lies a third of the way from 1024 to 4096 in bytes → 10 + 30/3 = 20 µs; a flat stretch stays flat.
  const a = timeAt(c, 2048)
  assert.equal(a.from, 'interpolated')
  close(a.t, 20e-6)
  close(timeAt(c, 8192).t, 40e-6)
  // On an α–β line (8 µs + s/10 GB/s) the payload 768 KiB between 512 KiB and 1 MiB is exact.
  const ab = [524288, 1048576].map((x) => ({ x, y: 8e-6 + x / 1e10 }))
  close(timeAt(ab, 786432).t, 8e-6 + 786432 / 1e10)
  // Across a protocol switch (LL 38.8 µs + s/6.34 GB/s up to 512 KiB, Simple 106.4 µs + s/12.69 GB/s from 1 MiB):
  // the faster line at 768 KiB is LL's, 38.8 + 786432/6.34e9 µs, not the chord between the neighbours.
  const ll = (x: number): number => 38.8e-6 + x / 6.34e9
  const simple = (x: number): number => 106.4e-6 + x / 12.69e9
  const sw = Array.from({ length: 24 }, (_, i) => 8 * 2 ** i).map((x) => ({ x, y: x <= 524288 ? ll(x) : simple(x) }))
  close(timeAt(sw, 786432).t, ll(786432), 1e-6)
  const line = Array.from({ length: 8 }, (_, i) => ({ x: 1024 * 2 ** i, y: 5e-6 + (1024 * 2 ** i) / 1e10 }))
  const e = timeAt(line, 2 ** 24)
  assert.equal(e.from, 'fit-extrapolated')
  close(e.t, 5e-6 + 2 ** 24 / 1e10, 1e-6)
})
