/**
 * OrderStats (ranks placed by selection, a window sorted, anything else by one full sort)
 * and madAround, checked against a plain sort of the same values and against
 * simple-statistics' own MAD: every rank of every sample, with ties, at sizes on both sides
 * of the point where selection replaces sorting.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { mean, medianAbsoluteDeviation, sampleStandardDeviation } from 'simple-statistics'
import { mulberry32 } from '../../src/random/index.ts'
import { madAround, OrderStats, quantileRanks } from '../../src/stats/_order-stats.ts'
import { summarize } from '../../src/stats/index.ts'

/** n values from a few shapes: continuous, heavy ties (a coarse timer), runs of one value. */
function sample(n: number, seed: number, shape: 'smooth' | 'ties' | 'runs'): number[] {
  const u = mulberry32(seed)
  return Array.from({ length: n }, (_, i) =>
    shape === 'smooth'
      ? Math.exp(u() * 3) * 1e-6
      : shape === 'ties'
        ? Math.floor(u() * 5) * 0.25
        : i % 97 < 60
          ? 7
          : u(),
  )
}

const plainSort = (v: readonly number[]): number[] => [...v].sort((a, b) => a - b)

test('OrderStats: placed ranks, the window and every other rank equal a full sort', () => {
  for (const n of [1, 2, 3, 63, 64, 65, 200, 1001, 4096])
    for (const shape of ['smooth', 'ties', 'runs'] as const) {
      const v = sample(n, n * 7 + shape.length, shape)
      const sorted = plainSort(v)
      const ranks = [0, n - 1, ...quantileRanks(n, 0.05), ...quantileRanks(n, 0.5), ...quantileRanks(n, 0.95)]
      const mid = (n - 1) / 2
      const w = Math.ceil(Math.sqrt(n))
      // Placed ranks and the window read before anything forces a full sort.
      const os = new OrderStats(v, ranks, [mid - w, mid + w])
      for (const k of ranks) assert.equal(os.at(k), sorted[k], `n=${n} ${shape} placed rank ${k}`)
      for (let k = Math.max(0, Math.floor(mid - w)); k <= Math.min(n - 1, Math.ceil(mid + w)); k++)
        assert.equal(os.at(k), sorted[k], `n=${n} ${shape} window rank ${k}`)
      for (const q of [0, 0.05, 0.25, 0.5, 0.95, 1]) {
        const h = (n - 1) * q
        const lo = Math.floor(h)
        const want =
          lo + 1 < n
            ? (sorted[lo] as number) + (h - lo) * ((sorted[lo + 1] as number) - (sorted[lo] as number))
            : sorted[lo]
        assert.equal(os.quantile(q), want, `n=${n} ${shape} quantile ${q}`)
      }
      // A rank never asked for (here: all of them, in order) still reads the sorted value.
      const fresh = new OrderStats(v, [n - 1])
      for (let k = 0; k < n; k++) assert.equal(fresh.at(k), sorted[k], `n=${n} ${shape} unplanned rank ${k}`)
      // The input is not touched.
      assert.deepEqual(v, sample(n, n * 7 + shape.length, shape))
    }
})

test('OrderStats: the copy goes into a caller buffer when it fits, and non-finite values are refused', () => {
  const v = sample(500, 3, 'smooth')
  const buf = new Float64Array(600).fill(-1)
  const os = new OrderStats(v, quantileRanks(500, 0.5), undefined, buf)
  assert.equal(os.quantile(0.5), new OrderStats(v).quantile(0.5))
  assert.ok(buf.subarray(0, 500).every((x) => x > 0) && buf[500] === -1, 'the first 500 doubles hold the copy')
  assert.throws(() => new OrderStats([1, Number.NaN, 2]), /non-finite value NaN/)
  assert.throws(() => new OrderStats([1, Infinity]), /non-finite value Infinity/)
  assert.ok(Number.isNaN(new OrderStats([]).quantile(0.5)))
})

test('madAround equals simple-statistics medianAbsoluteDeviation, with and without a buffer', () => {
  for (const n of [1, 2, 5, 64, 65, 999, 1000])
    for (const shape of ['smooth', 'ties', 'runs'] as const) {
      const v = sample(n, n + 11, shape)
      const med = new OrderStats(v, quantileRanks(n, 0.5)).quantile(0.5)
      const want = medianAbsoluteDeviation(v)
      assert.equal(madAround(v, med), want, `n=${n} ${shape}`)
      assert.equal(madAround(Float64Array.from(v), med, new Float64Array(n + 3)), want, `n=${n} ${shape} buffer`)
    }
  assert.ok(Number.isNaN(madAround([], 0)))
})

test('summarize: mean and stdev are the numbers simple-statistics gives, to the last bit', () => {
  for (const n of [1, 2, 3, 64, 1001])
    for (const shape of ['smooth', 'ties', 'runs'] as const) {
      const v = sample(n, n + 29, shape).map((x) => x * 1e-3 + 1e-9)
      const s = summarize(v)
      assert.equal(s.mean, mean(v), `n=${n} ${shape} mean`)
      assert.equal(s.stdev, n < 2 ? 0 : sampleStandardDeviation(v), `n=${n} ${shape} stdev`)
      assert.equal(summarize(Float64Array.from(v)).stdev, s.stdev, 'a typed array gives the same')
    }
})
