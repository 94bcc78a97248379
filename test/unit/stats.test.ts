/**
 * Statistics against independently computed values. Sources of every expected number are
 * given beside it: numpy 2.4 / scipy 1.17 (run once by hand, values pasted), R-equivalent
 * definitions, benchstat's own tests, textbook tables, and brute-force enumeration here.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  geomean,
  mannWhitney,
  medianCI,
  medianOrderCi,
  minSamplesFor,
  modifiedZ,
  normalCdf,
  quantile,
  sortSample,
  summarize,
  uFrequencies,
  withinBetween,
} from '../../src/stats/index.ts'

const close = (got: number, want: number, rel = 1e-9, msg = ''): void => {
  assert.ok(Math.abs(got - want) <= rel * Math.abs(want) + 1e-300, `${msg} got ${got}, want ${want}`)
}

// x: a made-up latency sample (µs) with one slow outlier.
const X = [12.1, 11.8, 12.6, 13.0, 11.9, 12.2, 14.8, 12.0, 12.4, 12.3, 12.5]

test('summary matches numpy/scipy on a fixed sample', () => {
  // numpy: median 12.3, mean 12.509090909090911, std(ddof=1) 0.8336120745941071,
  // percentile([5, 95]) = [11.85, 13.9]; scipy.stats.median_abs_deviation = 0.3.
  const s = summarize(X)
  assert.equal(s.n, 11)
  close(s.median, 12.3)
  close(s.mean, 12.509090909090911)
  close(s.stdev, 0.8336120745941071)
  close(s.p5, 11.85)
  close(s.p95, 13.9)
  close(s.mad, 0.3)
  assert.equal(s.min, 11.8)
  assert.equal(s.max, 14.8)
  // n = 11: P(Bin(11, ½) ≤ 1) = 12/2048 ≤ 0.025 < P(≤ 2) = 67/2048, so [x(2), x(10)], coverage 1 − 24/2048.
  assert.deepEqual(s.ci, [11.9, 13.0])
  close(s.ciLevel, 1 - 24 / 2048)
  // 14.8: z = 0.6745·(14.8 − 12.3)/0.3 = 5.62 > 3.5; 13.0: z = 1.57.
  assert.deepEqual(s.outliers, [6])
})

test('quantile is Hyndman-Fan type 7 (R default, numpy percentile)', () => {
  const s = sortSample([10, 9, 8, 7, 6, 5, 4, 3, 2, 1])
  // numpy.percentile(range(1, 11), [5, 95, 50, 25]) = [1.45, 9.55, 5.5, 3.25]
  close(quantile(s, 0.05), 1.45)
  close(quantile(s, 0.95), 9.55)
  close(quantile(s, 0.5), 5.5)
  close(quantile(s, 0.25), 3.25)
  assert.equal(quantile(s, 0), 1)
  assert.equal(quantile(s, 1), 10)
  assert.ok(Number.isNaN(quantile(sortSample([]), 0.5)))
})

test('median CI: benchstat test cases (golang.org/x/perf benchmath TestSummaryNone)', () => {
  // {-10, 2, 3, 4, 5, 6} at 0.95: centre 3.5, [-10, 6], confidence 1 − 0.03125.
  const s = summarize([-10, 2, 3, 4, 5, 6])
  assert.equal(s.median, 3.5)
  assert.deepEqual(s.ci, [-10, 6])
  assert.equal(s.ciLevel, 1 - 0.03125)
  // At 0.99 six values are not enough (benchstat: need ≥ 8), so ±∞.
  const s99 = summarize([-10, 2, 3, 4, 5, 6], 0.99)
  assert.deepEqual(s99.ci, [-Infinity, Infinity])
  assert.equal(s99.ciLevel, 1)
  assert.match(s99.warnings.join(), /need ≥ 8/)
  assert.equal(minSamplesFor(0.95), 6)
  assert.equal(minSamplesFor(0.99), 8)
  const one = summarize([1])
  assert.deepEqual(one.ci, [-Infinity, Infinity])
  assert.match(one.warnings.join(), /n = 1 < 6/)
  assert.equal(one.stdev, 0)
})

/** Exact Binomial(n, ½) CDF with BigInt binomial coefficients: an independent check. */
function binomCdfExact(k: number, n: number): number {
  let c = 1n
  let sum = 0n
  for (let i = 0; i <= k; i++) {
    sum += c
    c = (c * BigInt(n - i)) / BigInt(i + 1)
  }
  return Number((sum * 10n ** 18n) / 2n ** BigInt(n)) / 1e18
}

test('median CI order statistics equal exact binomial computations for n = 1..80', () => {
  for (const level of [0.9, 0.95, 0.99]) {
    for (let n = 1; n <= 80; n++) {
      let k = 0
      while (k + 1 <= (n + 1) / 2 && 2 * binomCdfExact(k, n) <= 1 - level) k++ // P(X ≤ k−1) after the loop
      const o = medianOrderCi(n, level)
      assert.equal(o.lo, k, `n=${n} level=${level}`)
      if (k > 0) {
        assert.equal(o.hi, n - k + 1)
        close(o.coverage, 1 - 2 * binomCdfExact(k - 1, n), 1e-12, `coverage n=${n}`)
      }
    }
  }
})

test('median CI for large n matches scipy.stats.binom', () => {
  // largest k with binom.cdf(k−1, n, .5) ≤ .025, and 1 − 2·cdf(k−1), from scipy 1.17:
  const want: [number, number, number][] = [
    [10, 2, 0.978515625],
    [20, 6, 0.9586105346679688],
    [100, 40, 0.9647997997822951],
    [1000, 469, 0.9537088026395019],
    [1000000, 499020, 0.9501210313476314],
  ]
  for (const [n, k, cov] of want) {
    const o = medianOrderCi(n, 0.95)
    assert.equal(o.lo, k, `n=${n}`)
    assert.equal(o.hi, n - k + 1)
    close(o.coverage, cov, 1e-9)
  }
  const s = sortSample(Array.from({ length: 20 }, (_, i) => 20 - i))
  assert.deepEqual(medianCI(s), [6, 15])
})

test('modified z-scores: Iglewicz-Hoaglin formula and the MAD = 0 fallback', () => {
  // median 3, |x − 3| = [2, 1, 0, 1, 97] so MAD = 1 and z = 0.6745·(x − 3).
  const z = modifiedZ([1, 2, 3, 4, 100])
  const want = [-2, -1, 0, 1, 97].map((d) => 0.6745 * d)
  z.forEach((v, i) => close(v, want[i] as number, 1e-12))
  assert.deepEqual(summarize([1, 2, 3, 4, 100]).outliers, [4])
  // MAD = 0: mean |x − 5| = 0.2, so z(6) = 1/(1.253314·0.2) = 3.98943 > 3.5.
  const z0 = modifiedZ([5, 5, 5, 5, 6])
  close(z0[4] as number, 1 / (1.253314 * 0.2), 1e-12)
  assert.equal(z0[0], 0)
  assert.deepEqual(modifiedZ([7, 7, 7]), [0, 0, 0])
})

test('geomean and within/between variance, by hand', () => {
  close(geomean([1, 2, 4, 8]), 2 ** 1.5) // scipy.stats.gmean = 2.82842712474619
  assert.ok(Number.isNaN(geomean([1, 0, 2])))
  assert.ok(Number.isNaN(geomean([])))
  // launches a: 1,2,3 (mean 2) and b: 4,5,6 (mean 5): SS within = 2 + 2 over 6 − 2 df = 1;
  // between = sample variance of {2, 5} = 4.5.
  const wb = withinBetween(
    [1, 2, 3].map((value) => ({ launch: 'a', value })).concat([4, 5, 6].map((value) => ({ launch: 'b', value }))),
  )
  assert.deepEqual(wb, { within: 1, between: 4.5, launches: 2 })
  const single = withinBetween([
    { launch: 'x', value: 1 },
    { launch: 'x', value: 3 },
  ])
  assert.equal(single.within, 2)
  assert.ok(Number.isNaN(single.between))
})

/** All C(m+n, m) placements of m a's among m+n ranks, counted by U: the null distribution by brute force. */
function bruteU(m: number, n: number): number[] {
  const counts = new Array<number>(m * n + 1).fill(0)
  const N = m + n
  for (let mask = 0; mask < 1 << N; mask++) {
    let bits = 0
    let rankSum = 0
    for (let r = 0; r < N; r++) if (mask & (1 << r)) bits++, (rankSum += r + 1)
    if (bits === m) counts[rankSum - (m * (m + 1)) / 2]!++
  }
  return counts
}

test('exact U distribution equals brute-force enumeration (m, n ≤ 8)', () => {
  for (let m = 1; m <= 8; m++) {
    for (let n = 1; n <= 8; n++) assert.deepEqual(Array.from(uFrequencies(m, n)), bruteU(m, n), `m=${m} n=${n}`)
  }
})

/** Samples of sizes m and n (no ties) whose U for the first is exactly u. */
function withU(m: number, n: number, u: number): [number[], number[]] {
  // a[i] sits at rank i + 1 + shift[i] with shifts non-decreasing in i and ≤ n; U = Σ shift.
  const shift = new Array<number>(m).fill(0)
  let left = u
  for (let i = m - 1; i >= 0 && left > 0; i--) {
    shift[i] = Math.min(n, left, i < m - 1 ? (shift[i + 1] as number) : n)
    left -= shift[i] as number
  }
  const aRanks = new Set(shift.map((s, i) => i + 1 + s))
  const a: number[] = []
  const b: number[] = []
  for (let r = 1; r <= m + n; r++) (aRanks.has(r) ? a : b).push(r)
  return [a, b]
}

test('exact p equals brute-force two-sided p for every U (m, n ≤ 6)', () => {
  for (let m = 1; m <= 6; m++) {
    for (let n = 1; n <= 6; n++) {
      const dist = bruteU(m, n)
      const total = dist.reduce((x, y) => x + y, 0)
      for (let u = 0; u <= m * n; u++) {
        const [a, b] = withU(m, n, u)
        const r = mannWhitney(a, b)
        assert.equal(r.u, u)
        assert.ok(r.exact)
        // R: p = 2·P(U ≤ u) when u ≤ mn/2, else 2·P(U ≥ u), capped at 1.
        const lowTail = dist.slice(0, u + 1).reduce((x, y) => x + y, 0)
        const highTail = dist.slice(u).reduce((x, y) => x + y, 0)
        const want = Math.min(1, (2 * (u > (m * n) / 2 ? highTail : lowTail)) / total)
        close(r.p, want, 1e-12, `m=${m} n=${n} u=${u}`)
      }
    }
  }
})

test('Mann-Whitney critical values of the textbook table (two-sided α = 0.05)', () => {
  // Critical U (reject when U ≤ value), two-tailed α = .05, from the standard Mann-Whitney
  // table (e.g. Siegel & Castellan, Nonparametric Statistics, Table J; Zar, Biostatistical
  // Analysis, Table B.11): n1 = n2 = 5: 2, 6: 5, 7: 8, 8: 13, 10: 23, 20: 127; 5 vs 10: 8.
  const table: [number, number, number][] = [
    [5, 5, 2],
    [6, 6, 5],
    [7, 7, 8],
    [8, 8, 13],
    [10, 10, 23],
    [20, 20, 127],
    [5, 10, 8],
  ]
  for (const [m, n, crit] of table) {
    assert.ok(mannWhitney(...withU(m, n, crit)).p <= 0.05, `${m}×${n} U=${crit} significant`)
    assert.ok(mannWhitney(...withU(m, n, crit + 1)).p > 0.05, `${m}×${n} U=${crit + 1} not significant`)
  }
})

test("Mann-Whitney p-values equal R's wilcox.test / scipy", () => {
  // R: wilcox.test(1:5, 6:10)$p.value = 0.007937 (= 2/252); wilcox.test(1:4, 5:8) = 0.02857 (= 2/70).
  close(mannWhitney([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]).p, 2 / 252)
  close(mannWhitney([5, 6, 7, 8], [1, 2, 3, 4]).p, 2 / 70)
  // scipy.stats.mannwhitneyu([19,22,16,29,24], [20,11,17,12], method='exact'): U = 17, p = 0.1111111111111111.
  const e = mannWhitney([19, 22, 16, 29, 24], [20, 11, 17, 12])
  assert.equal(e.u, 17)
  close(e.p, 0.1111111111111111)
  // Ties in small samples → the exact permutation p: 146 of the C(15, 7) = 6435 splits are as
  // extreme (itertools enumeration); the normal approximation (scipy mannwhitneyu(...,
  // method='asymptotic', use_continuity=True) = R wilcox.test(correct=TRUE)) said 0.0269.
  const t = mannWhitney([1.1, 2.2, 2.2, 3.3, 4.4, 4.4, 5.5], [2.2, 3.3, 6.6, 7.7, 8.8, 8.8, 10, 11])
  assert.equal(t.exact, true)
  assert.equal(t.u, 8.5)
  close(t.p, 146 / 6435, 1e-12)
  const a = Array.from({ length: 8 }, () => [0.8, 0.83, 0.83, 0.9, 0.9, 0.9, 1.0]).flat()
  const b = Array.from({ length: 8 }, () => [0.85, 0.9, 0.92, 0.95, 0.95, 1.01, 1.1]).flat()
  const big = mannWhitney(a, b)
  assert.equal(big.u, 608)
  close(big.p, 1.4039506515570646e-8, 1e-8)
  // n ≥ 50 without ties also uses the normal approximation: 1..60 vs 10.5..69.5, p = 0.005906794153805775.
  const n60 = mannWhitney(
    Array.from({ length: 60 }, (_, i) => i + 1),
    Array.from({ length: 60 }, (_, i) => i + 10.5),
  )
  assert.equal(n60.exact, false)
  close(n60.p, 0.005906794153805775, 1e-10)
  // Every value equal: no evidence of a difference (benchstat reports p = 1).
  assert.equal(mannWhitney([1, 1, 1, 1], [1, 1, 1, 1]).p, 1)
  assert.ok(Number.isNaN(mannWhitney([], [1]).p))
})

test('normal CDF to near double precision (scipy.stats.norm.cdf)', () => {
  const want: [number, number][] = [
    [-1.96, 0.024997895148220435],
    [-3, 1.34989803e-3],
    [-5, 2.86651572e-7],
    [-8, 6.22096057427174e-16],
    [-12, 1.77648211e-33],
    [0.3, 0.617911422],
  ]
  for (const [z, p] of want) close(normalCdf(z), p, 1e-8, `z=${z}`)
  close(normalCdf(-1.96), 0.024997895148220435, 1e-13)
})

test('binomialUpperTail: exact small cases, the complement of the CDF, extremes', async () => {
  const { binomialUpperTail } = await import('../../src/stats/index.ts')
  // P(X >= 2), n = 3, p = 1/2: (3 + 1) / 8.
  assert.ok(Math.abs(binomialUpperTail(2, 3, 0.5) - 0.5) < 1e-12)
  // P(X >= 1) = 1 - (1 - p)^n.
  assert.ok(Math.abs(binomialUpperTail(1, 10, 0.1) - (1 - 0.9 ** 10)) < 1e-12)
  // P(X >= 3), n = 6, p = 1/3, summed by hand: C(6,3)8/729 + C(6,4)4/729 + C(6,5)2/729 + 1/729.
  assert.ok(Math.abs(binomialUpperTail(3, 6, 1 / 3) - (160 + 60 + 12 + 1) / 729) < 1e-12)
  assert.equal(binomialUpperTail(0, 5, 0.2), 1)
  assert.equal(binomialUpperTail(6, 5, 0.2), 0)
  // Far in the tail of a large n: tiny but not 0 (log space).
  const p = binomialUpperTail(30, 90, 0.01)
  assert.ok(p > 0 && p < 1e-20, String(p))
})
