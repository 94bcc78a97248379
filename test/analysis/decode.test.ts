import { test } from 'node:test'
import assert from 'node:assert/strict'
import { MODEL_PRESETS, p2pReadings, resolveModel, timeAt } from '../../src/analysis/index.ts'

const close = (got: number, want: number, tol = 1e-9): void => assert.ok(Math.abs(got / want - 1) < tol, `${got} vs ${want}`)

test('GLM-5 preset: 78 layers, hidden 6144, bf16 → 156 all-reduces per step of 768 KiB at batch 64 (REFERENCE.md §4)', () => {
  const m = MODEL_PRESETS['glm-5']!
  assert.equal(m.layers * m.allreducesPerLayer, 156)
  assert.equal(m.hidden * m.dtypeBytes, 12 * 1024) // 12 KiB per token
  assert.equal(m.batch * m.hidden * m.dtypeBytes, 768 * 1024)
  assert.deepEqual(resolveModel('GLM-5', { layers: 40, batch: undefined })?.layers, 40)
  assert.equal(resolveModel('GLM-5', { batch: undefined })?.batch, 64)
  assert.equal(resolveModel('nope'), undefined)
})

test("both readings of a 13.7 µs p2p floor match REFERENCE.md §4's worked example", () => {
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

test('timeAt: exact sizes, log-log interpolation between neighbours, and the α–β line beyond the measured range', () => {
  const c = [{ x: 1024, y: 10e-6 }, { x: 4096, y: 40e-6 }, { x: 16384, y: 40e-6 }]
  assert.deepEqual(timeAt(c, 4096), { t: 40e-6, from: 'measured' })
  // 2048 is half-way between 1024 and 4096 in log size → the geometric mean √(10·40) = 20 µs; a flat stretch stays flat.
  const a = timeAt(c, 2048)
  assert.equal(a.from, 'interpolated')
  close(a.t, 20e-6)
  close(timeAt(c, 8192).t, 40e-6)
  const line = Array.from({ length: 8 }, (_, i) => ({ x: 1024 * 2 ** i, y: 5e-6 + (1024 * 2 ** i) / 1e10 }))
  const e = timeAt(line, 2 ** 24)
  assert.equal(e.from, 'fit-extrapolated')
  close(e.t, 5e-6 + 2 ** 24 / 1e10, 1e-6)
})
