/**
 * The bootstrap's O(1) resample median (src/analysis/fit/_resample-median.ts) against plain
 * resampling: n uniform indices into the sample, then the median of the values drawn.
 * Samples of distinct integers 0..n−1 make an index error a shift of a whole unit, which
 * the means of 20,000 replicates (standard error about 0.05 units) see at once.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ORDER_STAT_MIN, resampleMedian } from '../../src/analysis/fit/_resample-median.ts'
import type { Series } from '../../src/analysis/index.ts'
import { fitSeries } from '../../src/analysis/index.ts'
import { betaDeviate, gammaDeviate, mulberry32, randInt } from '../../src/random/index.ts'
import type { SortedSample } from '../../src/stats/index.ts'
import { medianOf, quantile, sortSample } from '../../src/stats/index.ts'
import { handSeries } from '../analysis/hand-fit.ts'

const REPS = 20_000

/** Replicate medians of `x` by plain resampling. */
function plain(x: SortedSample, seed: number): SortedSample {
  const u = mulberry32(seed)
  const n = x.length
  const out: number[] = []
  for (let b = 0; b < REPS; b++) {
    const r: number[] = []
    for (let i = 0; i < n; i++) r.push(x[randInt(u, n)] as number)
    out.push(medianOf(sortSample(r)))
  }
  return sortSample(out)
}

/** Replicate medians of `x` drawn from the order-statistic distribution. */
function drawn(x: SortedSample, seed: number): SortedSample {
  const u = mulberry32(seed)
  return sortSample(Array.from({ length: REPS }, () => resampleMedian(x, u)))
}

const meanOf = (s: readonly number[]): number => s.reduce((a, v) => a + v, 0) / s.length
const sdOf = (s: readonly number[]): number => {
  const m = meanOf(s)
  return Math.sqrt(s.reduce((a, v) => a + (v - m) ** 2, 0) / (s.length - 1))
}

for (const n of [101, 100, 8, 7]) {
  test(`n = ${n}: 20,000 drawn replicate medians match 20,000 resampled ones (mean, sd, quantiles)`, () => {
    const x = sortSample(Array.from({ length: n }, (_, i) => i))
    const a = plain(x, 11)
    const b = drawn(x, 12)
    // Standard error of the difference of the two means: sd·√(2/20,000) = 0.01·sd; allow 4 of them.
    const tol = 0.04 * sdOf(a)
    assert.ok(Math.abs(meanOf(a) - meanOf(b)) < tol, `means ${meanOf(a)} vs ${meanOf(b)} (tolerance ${tol})`)
    assert.ok(Math.abs(sdOf(a) / sdOf(b) - 1) < 0.04, `sd ${sdOf(a)} vs ${sdOf(b)}`)
    // Quantiles land on the sample's own values (or midpoints): within one unit, the grid step.
    for (const q of [0.025, 0.25, 0.5, 0.75, 0.975])
      assert.ok(Math.abs(quantile(a, q) - quantile(b, q)) <= 1, `q${q}: ${quantile(a, q)} vs ${quantile(b, q)}`)
  })
}

test('n = 3: the drawn median is the smallest value with the exact probability 7/27', () => {
  // Two or three of three draws from {0, 1, 2} are 0: 3·(1/3)²·(2/3) + (1/3)³ = 7/27.
  const x = sortSample([0, 1, 2])
  const u = mulberry32(5)
  let low = 0
  let high = 0
  for (let b = 0; b < REPS; b++) {
    const m = resampleMedian(x, u)
    if (m === 0) low++
    if (m === 2) high++
  }
  // Binomial standard error √(p(1−p)/20,000) ≈ 0.0031; allow 4 of them.
  assert.ok(Math.abs(low / REPS - 7 / 27) < 0.0125, `P(0) = ${low / REPS}`)
  assert.ok(Math.abs(high / REPS - 7 / 27) < 0.0125, `P(2) = ${high / REPS}`)
})

test('n = 1: the only value', () => {
  assert.equal(resampleMedian(sortSample([4.5]), mulberry32(1)), 4.5)
})

test('gammaDeviate and betaDeviate have the textbook mean and variance (20,000 draws)', () => {
  const u = mulberry32(9)
  for (const shape of [0.5, 1, 3.5, 500]) {
    const g = Array.from({ length: REPS }, () => gammaDeviate(u, shape))
    // Gamma(k, 1): mean k, variance k; the mean's standard error is √(k/20,000).
    assert.ok(Math.abs(meanOf(g) - shape) < 4 * Math.sqrt(shape / REPS), `Gamma(${shape}) mean ${meanOf(g)}`)
    assert.ok(Math.abs(sdOf(g) ** 2 / shape - 1) < 0.05, `Gamma(${shape}) variance ${sdOf(g) ** 2}`)
  }
  const [a, b] = [50, 51]
  const x = Array.from({ length: REPS }, () => betaDeviate(u, a, b))
  const sd = Math.sqrt((a * b) / ((a + b) ** 2 * (a + b + 1)))
  assert.ok(Math.abs(meanOf(x) - a / (a + b)) < (4 * sd) / Math.sqrt(REPS), `Beta mean ${meanOf(x)}`)
  assert.ok(Math.abs(sdOf(x) / sd - 1) < 0.03, `Beta sd ${sdOf(x)} vs ${sd}`)
})

/** A series of `per` log-normal samples at each of 8 sizes (seeded). */
function series(per: number): Series {
  const u = mulberry32(3)
  const z = (): number => Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u())
  const bySize = new Map<number, number[]>()
  for (let i = 0; i < 8; i++) {
    const size = 8 * 4 ** i
    bySize.set(
      size,
      Array.from({ length: per }, () => (5e-6 + size / 20e9) * Math.exp(0.1 * z())),
    )
  }
  return handSeries([], { key: 'k', id: { bench: 'b', p2p: null }, benches: new Set(['b']), bySize })
}

test(`fitSeries: below ${ORDER_STAT_MIN} samples a size resamples value by value; from there its intervals agree with that`, () => {
  const small = series(ORDER_STAT_MIN - 1)
  // Below the threshold the default is the plain resampling, draw for draw (what every golden holds).
  assert.deepEqual(fitSeries(small), fitSeries(small, { orderStatMin: Infinity }))
  const big = series(ORDER_STAT_MIN)
  const drawnFit = fitSeries(big, { replicates: 1000 })
  const plainFit = fitSeries(big, { replicates: 1000, orderStatMin: Infinity })
  assert.notDeepEqual(drawnFit.alphaCi, plainFit.alphaCi, 'the order-statistic draws are in use at the threshold')
  // Endpoints of 1,000-replicate percentile intervals, each within 10 % of the plain interval's width.
  for (const [d, p] of [
    [drawnFit.alphaCi, plainFit.alphaCi],
    [drawnFit.betaCi, plainFit.betaCi],
  ] as [number[], number[]][]) {
    const w = (p[1] as number) - (p[0] as number)
    for (const j of [0, 1]) assert.ok(Math.abs((d[j] as number) - (p[j] as number)) < 0.1 * w, `${d} vs ${p}`)
  }
})
