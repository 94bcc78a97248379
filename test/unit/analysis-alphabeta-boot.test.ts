/**
 * The bootstrap of fitSeries (src/analysis/fit/_alphabeta.ts) on small generated series (hand-made
 * values, not measurements), each expected value worked out in the test: the percentile interval
 * of a one-size median against the resampled median's exact distribution at three levels; which
 * series are resampled within each size (half the sizes or more with several samples) and which
 * on the line's residuals; α from the first segment's points and β from the last segment's, the
 * largest size included; β's interval of bandwidths only; the segment's relative RMS; the α = 0
 * edge of the warning; the default seed; and the selection median reading only its n entries.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { fitSeries } from '../../src/analysis/fit/_alphabeta.ts'
import { medianInPlace } from '../../src/analysis/fit/_bootstrap.ts'
import { huberLine } from '../../src/analysis/fit/_fit.ts'
import { handSeries as series } from '../analysis/hand-fit.ts'

const US = 1e-6
const close = (got: number | null | undefined, want: number, tol = 1e-9) =>
  assert.ok(got != null && Math.abs(got / want - 1) < tol, `${got} vs ${want}`)
const binom = (n: number, k: number): number => (k === 0 ? 1 : (binom(n, k - 1) * (n - k + 1)) / k)

test('one size: the interval is the quantiles of the resampled median, worked out exactly, at each level', () => {
  // The median of 5 draws from {1, …, 5} is ≤ v when 3 or more draws are ≤ v (p = v/5):
  // P(≤ 1, 2, 3, 4) = 0.058, 0.317, 0.683, 0.942. A level L interval is the (1 − L)/2 and
  // (1 + L)/2 quantiles: the smallest v whose P(≤ v) passes each.
  const cdf = [1, 2, 3, 4, 5].map((v) =>
    [3, 4, 5].reduce((s, k) => s + binom(5, k) * (v / 5) ** k * (1 - v / 5) ** (5 - k), 0),
  )
  const q = (p: number) => 1 + cdf.findIndex((c) => c > p)
  assert.deepEqual(
    cdf.map((c) => +c.toFixed(3)),
    [0.058, 0.317, 0.683, 0.942, 1],
  )
  const s = series([[8, [3, 1, 5, 2, 4]]])
  for (const [level, want] of [
    [0.95, [1, 5]],
    [0.8, [2, 4]],
    [0.2, [3, 3]],
  ] as const) {
    assert.deepEqual([q((1 - level) / 2), q((1 + level) / 2)], want)
    const f = fitSeries(s, { replicates: 1000, level })
    close(f.alphaCi[0], want[0] * US)
    close(f.alphaCi[1], want[1] * US)
  }
})

test('from orderStatMin samples on, a size’s medians come from the order statistics: the same quantiles', () => {
  // The same five values as above, now at orderStatMin 5 (and 3): resampleMedian's exact draw
  // has the distribution worked out above, so the same bounds at each level.
  const s = series([[8, [3, 1, 5, 2, 4]]])
  for (const orderStatMin of [5, 3])
    for (const [level, want] of [
      [0.95, [1, 5]],
      [0.8, [2, 4]],
      [0.2, [3, 3]],
    ] as const) {
      const f = fitSeries(s, { replicates: 1000, level, orderStatMin })
      close(f.alphaCi[0], want[0] * US)
      close(f.alphaCi[1], want[1] * US)
    }
  // Two sizes at the limit beside one below it (resampled value by value): all intervals finite.
  const mixed = fitSeries(
    series([
      [1024, [10, 11, 12, 13, 14]],
      [2048, [12, 13, 14]],
      [4096, [14, 15, 16, 17, 18]],
    ]),
    { replicates: 100, orderStatMin: 5 },
  )
  assert.ok(mixed.alphaCi.every(Number.isFinite) && mixed.alphaCi[0] < mixed.alphaCi[1], `${mixed.alphaCi}`)
  assert.ok(mixed.betaCi?.every(Number.isFinite), `${mixed.betaCi}`)
})

/** Medians on 5 µs + x / 10 GB/s at 1, 2, 4, 8 KiB; `spread` µs either side at the sizes named. */
const onLine = (spread: number, at: number[]): [number, number[]][] =>
  [1024, 2048, 4096, 8192].map((x, i) => {
    const t = 5 + x / 1e4
    return [x, at.includes(i) ? [t - spread, t, t + spread] : [t]]
  })

test('resampled within each size when half the sizes or more have several samples, else on residuals', () => {
  // Medians exactly on the line: the residual bootstrap redraws zero residuals (the interval is
  // the point), resampling within a size moves its median (the interval has width).
  const one = fitSeries(series(onLine(1, [1])), { replicates: 50 })
  close(one.alphaCi[0], 5 * US)
  close(one.alphaCi[1], 5 * US)
  for (const at of [
    [0, 1],
    [1, 2, 3],
  ]) {
    const f = fitSeries(series(onLine(1, at)), { replicates: 50 })
    assert.ok(f.alphaCi[0] < 5 * US && 5 * US < f.alphaCi[1], `${at}: ${f.alphaCi}`)
  }
  // Two samples a size count as several: 4 ± 1 and 6 ± 1 µs on the same line.
  const two = fitSeries(series([1024, 2048, 4096].map((x) => [x, [4 + x / 1e4, 6 + x / 1e4]])), { replicates: 50 })
  assert.ok(two.alphaCi[0] < 5 * US && 5 * US < two.alphaCi[1], `${two.alphaCi}`)
})

/** Two exact lines: 8 µs + x/5 GB/s to 1 KiB, 20 µs + x/20 GB/s beyond (8 sizes each). */
const SIZES = Array.from({ length: 16 }, (_, i) => 8 * 2 ** i)
const twoLines = (x: number) => (x <= 1024 ? 8 + x / 5e3 : 20 + x / 20e3)

test('two segments: α is resampled on the first segment’s points, β on the last’s', () => {
  // One sample a size: the residual bootstrap. Both lines exact: every replicate is the point.
  const f = fitSeries(series(SIZES.map((x) => [x, [twoLines(x)]])), { replicates: 20 })
  assert.equal(f.segments.length, 2)
  for (const v of f.alphaCi) close(v, 8 * US, 1e-6)
  for (const v of f.betaCi ?? []) close(v, 20e9, 1e-6)
  // Two equal samples a size (resampled within sizes), the largest size's spread ±10 %: only β
  // moves, and only through the largest size.
  const last = SIZES.at(-1) as number
  const pts = SIZES.map((x): [number, number[]] => {
    const t = twoLines(x)
    return [x, x === last ? [0.9 * t, t, 1.1 * t] : [t, t]]
  })
  const g = fitSeries(series(pts), { replicates: 50 })
  for (const v of g.alphaCi) close(v, 8 * US, 1e-6)
  const [lo, hi] = g.betaCi ?? [0, 0]
  // (Huber's line clips the largest size when it is far off, so the interval is not symmetric.)
  assert.ok(lo < 20e9 && 20e9 < hi && hi / lo > 1.05, `${g.betaCi}`)
})

/** Medians on 10 µs + x·slope (µs per byte) times 1 + the relative errors below, 8 sizes from 1 KiB. */
const NOISE = [0.03, -0.02, 0.01, -0.03, 0.02, -0.01, 0.025, -0.015]
const noisy = (slope: number) => series(NOISE.map((e, i) => [1024 * 2 ** i, [(10 + 1024 * 2 ** i * slope) * (1 + e)]]))

test('β’s interval from the residual bootstrap: it has width, covers β, and holds bandwidths only', () => {
  // 1e-4 µs a byte: 10 GB/s, resolved well over ±3 % noise.
  const f = fitSeries(noisy(1e-4), { replicates: 100 })
  const [lo, hi] = f.betaCi ?? [0, 0]
  assert.ok(0 < lo && lo < (f.beta as number) && (f.beta as number) < hi, `${f.beta} in ${f.betaCi}`)
  assert.ok(hi / lo > 1.01 && hi / lo < 1.5, `${f.betaCi}`)
  // 1e-6 µs a byte: a 0.01 µs rise at 1 KiB, 1.3 µs at 128 KiB, about the noise: some replicate
  // slopes are ≤ 0 (no bandwidth); the interval is drawn from the positive ones.
  const weak = fitSeries(noisy(1e-6), { replicates: 200 })
  const [wlo, whi] = weak.betaCi ?? [0, 0]
  assert.ok(0 < wlo && wlo < (weak.beta as number) && (weak.beta as number) < whi, `${weak.beta} in ${weak.betaCi}`)
})

test('the residual bootstrap draws ŷ·(1 + r): one point above the line moves α up, never down', () => {
  // 10 µs + x / 10 GB/s at 8 sizes, the largest read 1.5×: Huber's line goes through the other
  // seven, whose residuals are 0; the eighth's is (1.5 − 1)/1.5 = +1/3 (relative RMS (1/3)/√8).
  // Every replicate point is then on the line or 1.5× above it, so α's interval reaches up, not down.
  const f = fitSeries(
    series(
      Array.from({ length: 8 }, (_, i) => 1024 * 2 ** i).map((x, i) => [x, [(10 + x / 1e4) * (i === 7 ? 1.5 : 1)]]),
    ),
    { replicates: 200 },
  )
  close(f.alpha, 10 * US, 1e-9)
  close(f.segments[0]?.relRms, 1 / 3 / Math.sqrt(8), 1e-9)
  const [lo, hi] = f.alphaCi
  assert.ok(lo > 10 * US * (1 - 1e-6) && hi > 10 * US * 1.05, `${f.alphaCi}`)
})

test('a replicate that comes out flat has no bandwidth: β’s interval stays finite', () => {
  // Medians 10, 10, 10, 10.4 µs: β resolved. A replicate draws 10 at the third size with
  // P = 20/27 and at the fourth with 7/27: about one in five replicates is flat, slope exactly 0.
  const flat = [1024, 2048, 4096, 8192].map((x) => ({ x, y: 10 * US }))
  assert.equal(huberLine(flat).slope, 0)
  const f = fitSeries(
    series([
      [1024, [10]],
      [2048, [10]],
      [4096, [10, 10, 10.5]],
      [8192, [10, 10.4, 10.4]],
    ]),
    { replicates: 200 },
  )
  const [lo, hi] = f.betaCi ?? [0, 0]
  assert.ok(0 < lo && lo < hi && Number.isFinite(hi), `${f.beta} in ${f.betaCi}`)
})

test('a segment’s relative RMS is that of its own line’s relative residuals', () => {
  const f = fitSeries(
    series([
      [1024, [10]],
      [2048, [12]],
      [4096, [13]],
      [8192, [20]],
    ]),
    { replicates: 0 },
  )
  const s = f.segments[0]!
  const r = [10, 12, 13, 20].map((y, i) => (y * US - s.alpha - (1024 * 2 ** i) / (s.beta as number)) / (y * US))
  const rms = Math.sqrt(r.reduce((a, x) => a + x * x, 0) / 4)
  assert.ok(rms > 0.01, `${rms}`)
  close(s.relRms, rms, 1e-6)
})

test('α of exactly 0 is warned, as a negative one is', () => {
  // x / 10 GB/s through the origin: the fit lands on α = 0 exactly.
  const f = fitSeries(series([1024, 2048, 4096, 8192].map((x) => [x, [x / 1e4]])), { replicates: 0 })
  assert.equal(f.alpha, 0)
  assert.ok(
    f.warnings.some((w) => w.startsWith('α ≤ 0')),
    `${f.warnings}`,
  )
})

test('the default seed is 1: an interval without a seed is the interval at seed 1, not at 0', () => {
  const s = series(onLine(1, [0, 1, 2]))
  const at = (seed?: number) => fitSeries(s, seed === undefined ? { replicates: 30 } : { replicates: 30, seed }).alphaCi
  assert.deepEqual(at(), at(1))
  assert.notDeepEqual(at(), at(0))
})

test('medianInPlace reads none of the entries past n (a larger stratum’s leftovers)', () => {
  // Sorted 1, 4, 7, 9: the median is (4 + 7) / 2; the −50 after them is another stratum's.
  assert.equal(medianInPlace(Float64Array.from([4, 1, 9, 7, -50]), 4), 5.5)
  assert.equal(medianInPlace(Float64Array.from([9, 7, 4, 1, 2, 3]), 4), 5.5)
})
