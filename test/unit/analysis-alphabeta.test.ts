/**
 * fitSeries of src/analysis/fit/_alphabeta.ts on small generated series (exact lines and a few
 * hand-picked values, not measurements): the warnings a user reads, when the interval is the
 * point estimate and when it is resampled, β straight from unsized bandwidths with its order-
 * statistic CI (6 values: their min–max; 5 or fewer: the point), the segments reported, and the
 * smallest size beside the floor.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { fitSeries } from '../../src/analysis/fit/_alphabeta.ts'
import { handSeries as series } from '../analysis/hand-fit.ts'

const US = 1e-6
/** One value per size on α + x/β (µs, GB/s). */
const line = (alphaUs: number, gbps: number, sizes: number[]): [number, number[]][] =>
  sizes.map((x) => [x, [alphaUs + x / (gbps * 1e9) / US]])
const close = (got: number | null | undefined, want: number, tol = 1e-9) =>
  assert.ok(got != null && Math.abs(got / want - 1) < tol, `${got} vs ${want}`)
const ONE_SIZE = 'one message size only: α is the median time there and β is not resolved'
const TOO_FEW = 'too few points to resample: no interval'

test('one size: α is its median, β unresolved, the interval resampled within the size', () => {
  const f = fitSeries(series([[8, [3, 1, 2, 2.5, 1.5]]]), { replicates: 50 })
  close(f.alpha, 2 * US)
  assert.deepEqual([f.beta, f.betaCi, f.sizes, f.n], [null, null, 1, 5])
  assert.deepEqual(f.warnings, [ONE_SIZE])
  assert.deepEqual(f.smallest, { sizeBytes: 8, median: 2 * US, min: 1 * US, n: 5 })
  // Replicate medians of the five values lie between the lowest and the highest, and vary.
  assert.ok(f.alphaCi[0] >= 1 * US && f.alphaCi[1] <= 3 * US, `${f.alphaCi}`)
  assert.ok(f.alphaCi[0] < f.alphaCi[1], `${f.alphaCi}`)
  assert.deepEqual(f.segments.length, 1)
  assert.equal(f.segments[0]?.beta, null)
})

test('no replicates, or too few points to resample: the interval is the point estimate, said so', () => {
  const none = fitSeries(series(line(5, 10, [1024, 2048, 4096, 8192])), { replicates: 0 })
  assert.deepEqual(none.alphaCi, [none.alpha, none.alpha])
  assert.deepEqual(none.warnings, [TOO_FEW])
  // Two sizes with one value each: neither stratified nor enough points for residuals.
  const two = fitSeries(series(line(5, 10, [1024, 2048])), { replicates: 20 })
  assert.deepEqual(two.alphaCi, [two.alpha, two.alpha])
  assert.deepEqual(two.betaCi, [two.beta, two.beta])
  assert.deepEqual(two.warnings, [TOO_FEW])
  // Three sizes of an exact line: the residual bootstrap redraws zero residuals, the interval is the point.
  const three = fitSeries(series(line(5, 10, [1024, 2048, 4096])), { replicates: 20 })
  assert.deepEqual(three.warnings, [])
  // The default: 200 replicates, so an interval is drawn.
  assert.deepEqual(fitSeries(series(line(5, 10, [1024, 2048, 4096]))).warnings, [])
  close(three.alpha, 5 * US)
  close(three.beta, 10e9)
  close(three.alphaCi[0], 5 * US)
  close(three.alphaCi[1], 5 * US)
  close(three.betaCi?.[0], 10e9)
  close(three.betaCi?.[1], 10e9)
})

test('warnings: rows without a size, and a line whose floor is not positive', () => {
  const unsized = fitSeries(series([[0, [2]], ...line(5, 10, [1024, 2048, 4096])], { unsized: 2 }), { replicates: 0 })
  assert.deepEqual(unsized.warnings, ['2 row(s) without a message size were counted as 0 B', TOO_FEW])
  assert.equal(unsized.smallest.sizeBytes, null)
  // Rows without a size but none at 0 B: the smallest size is stated; 0 B with no unsized rows is 0 B.
  const stated = fitSeries(series(line(5, 10, [1024, 2048, 4096]), { unsized: 2 }), { replicates: 0 })
  assert.equal(stated.smallest.sizeBytes, 1024)
  // Times ≤ 0 left out by buildSeries: said, after the unsized rows.
  const dropped = fitSeries(series(line(5, 10, [1024, 2048, 4096]), { unsized: 1, nonPositive: 3 }), { replicates: 0 })
  assert.deepEqual(dropped.warnings, [
    '1 row(s) without a message size were counted as 0 B',
    '3 time value(s) ≤ 0 or not a number left out: not a measured time',
    TOO_FEW,
  ])
  const zeroB = fitSeries(series([[0, [4]], ...line(5, 10, [1024, 2048])]), { replicates: 0 })
  assert.equal(zeroB.smallest.sizeBytes, 0)
  // −1 µs + x / 1 GB/s at 10–80 kB: 9, 19, 39, 79 µs; the line meets 0 above 0 B.
  const neg = fitSeries(series(line(-1, 1, [10000, 20000, 40000, 80000])), { replicates: 0 })
  close(neg.alpha, -1 * US, 1e-6)
  assert.deepEqual(neg.warnings, [
    'α ≤ 0: the line does not describe the smallest sizes; read the smallest-size median instead',
    TOO_FEW,
  ])
})

test('sizes in any order: read from the smallest up', () => {
  const f = fitSeries(series(line(5, 10, [4096, 1024, 16384, 2048])), { replicates: 0 })
  assert.deepEqual([f.smallest.sizeBytes, f.segments[0]?.fromBytes, f.segments[0]?.toBytes], [1024, 1024, 16384])
  close(f.smallest.median, 5 * US + 1024 / 10e9)
  close(f.alpha, 5 * US)
})

test('β from unsized large-copy bandwidths when the times give none: their median and its CI', () => {
  const bw = [10, 11, 12, 9, 10.5, 11.5].map((g) => g * 1e9)
  const f = fitSeries(series([[0, [2, 2.2, 1.8]]], { unsized: 3, bandwidths: bw }), { replicates: 0 })
  // Median of 9, 10, 10.5, 11, 11.5, 12 GB/s: 10.75; 6 values: the CI is their min–max.
  close(f.beta, 10.75e9)
  assert.deepEqual(f.betaCi, [9e9, 12e9])
  assert.ok(
    f.warnings.includes(
      'β is the median p2p.bw_uni bandwidth (its copy size is not recorded; at ≥ 40 MB α is negligible)',
    ),
    `${f.warnings}`,
  )
  const few = fitSeries(series([[0, [2]]], { unsized: 1, bandwidths: [10e9, 12e9, 11e9] }), { replicates: 0 })
  close(few.beta, 11e9)
  assert.deepEqual(few.betaCi, [11e9, 11e9])
  // A slope from the times wins over the bandwidths.
  const sized = fitSeries(series(line(5, 10, [1024, 2048, 4096]), { bandwidths: bw }), { replicates: 0 })
  close(sized.beta, 10e9)
  assert.ok(!sized.warnings.some((w) => w.startsWith('β is the median')))
})

test('a flat or falling line has no β; the segments carry their sizes, α, β and relative RMS', () => {
  const falling = fitSeries(
    series([
      [8, [6]],
      [16, [5]],
      [32, [4]],
      [64, [3]],
    ]),
    { replicates: 10 },
  )
  assert.ok(falling.segments[0]!.alpha > 0)
  assert.deepEqual([falling.beta, falling.betaCi, falling.segments[0]?.beta], [null, null, null])
  // Two exact lines: 8 µs + x/5 GB/s to 1 KiB, 20 µs + x/20 GB/s beyond (8 sizes each).
  const sizes = Array.from({ length: 16 }, (_, i) => 8 * 2 ** i)
  const pts: [number, number[]][] = sizes.map((x) => [x, [x <= 1024 ? 8 + x / 5e3 : 20 + x / 20e3]])
  const f = fitSeries(series(pts), { replicates: 0 })
  assert.deepEqual(
    f.segments.map((s) => [s.fromBytes, s.toBytes, s.points]),
    [
      [8, 1024, 8],
      [2048, 262144, 8],
    ],
  )
  close(f.alpha, 8 * US, 1e-6)
  close(f.segments[0]?.beta, 5e9, 1e-6)
  close(f.segments[1]?.alpha, 20 * US, 1e-6)
  close(f.beta, 20e9, 1e-6)
  assert.ok(f.segments.every((s) => s.relRms < 1e-9))
  assert.equal(f.sizes, 16)
  assert.equal(f.n, 16)
})
