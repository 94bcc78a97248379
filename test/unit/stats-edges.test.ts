/**
 * The edges of the statistics that the mutation run found untested (TESTING.md): empty and
 * out-of-range input, the exact boundaries of the median CI walk, the ties flag, the normal
 * approximation's own corrections, the warnings a summary gives, erfc's branches far into
 * the tails, and launches numbered out of order or with gaps. Expected values come from
 * their definitions (binomial sums written out here) or from Python's math module (erfc),
 * never from this code.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  erfc,
  mannWhitney,
  medianOf,
  medianOrderCi,
  modifiedZ,
  quantile,
  sortSample,
  summarize,
  uNormalP,
  uTestMinP,
  withinBetweenIndexed,
} from '../../src/stats/index.ts'

const close = (got: number, want: number, rel: number, what: string): void =>
  assert.ok(Math.abs(got - want) <= rel * Math.abs(want), `${what}: ${got} vs ${want}`)

test('median CI order statistics at their exact boundaries', () => {
  // n = 0: nothing to bound.
  assert.deepEqual(medianOrderCi(0, 0.95), { lo: 0, hi: 1, coverage: 1 })
  // n = 2 at 95 %: P(X ≤ 0) = 1/4 > 0.025, unbounded, hi = n + 1.
  assert.deepEqual(medianOrderCi(2, 0.95), { lo: 0, hi: 3, coverage: 1 })
  // n = 2 at 50 %: P(X ≤ 0) = 1/4 equals the tail 0.25, so [x(1), x(2)] covers exactly 50 %: allowed.
  assert.deepEqual(medianOrderCi(2, 0.5), { lo: 1, hi: 2, coverage: 0.5 })
  // n = 4 at 10 %: P(X ≤ 1) = 5/16 ≤ 0.45, P(X ≤ 2) = 11/16 > 0.45; the walk stops at the middle, k = 2.
  assert.deepEqual(medianOrderCi(4, 0.1), { lo: 2, hi: 3, coverage: 1 - 2 * (5 / 16) })
})

test('quantile and median: empty or out-of-range input is NaN; medianOf is the 0.5 quantile', () => {
  const s = sortSample([3, 1, 2, 10])
  assert.ok(Number.isNaN(quantile(sortSample([]), 0.5)))
  assert.ok(Number.isNaN(quantile(s, 1.5)))
  assert.ok(Number.isNaN(quantile(s, -0.1)))
  assert.equal(quantile(s, 1), 10)
  assert.equal(quantile(s, 0), 1)
  assert.equal(medianOf(s), 2.5)
  assert.throws(() => sortSample([1, Number.NaN]), RangeError)
  assert.throws(() => sortSample([1, Number.POSITIVE_INFINITY]), RangeError)
})

test('Mann-Whitney: the ties flag is false without ties; empty samples give NaN', () => {
  assert.deepEqual(mannWhitney([1, 2, 3], [4, 5, 6]), { u: 0, p: 0.1, exact: true, ties: false })
  assert.equal(mannWhitney([1, 2, 3], [3, 5, 6]).ties, true)
  // Large untied samples: the normal path, no ties either.
  const a = Array.from({ length: 60 }, (_, i) => i + 1)
  const b = a.map((x) => x + 60)
  const r = mannWhitney(a, b)
  assert.equal(r.exact, false)
  assert.equal(r.ties, false)
  // z = (0 − 1800 + 0.5)/√(3600/12 · 121); 2Φ(z) = erfc(−z/√2) by Python's math.erfc.
  close(r.p, 3.556570974984777e-21, 1e-9, 'p of 1..60 vs 61..120')
  for (const empty of [mannWhitney([], [1, 2]), mannWhitney([1, 2], [])]) {
    assert.ok(Number.isNaN(empty.u) && Number.isNaN(empty.p))
    assert.equal(empty.exact, false)
    assert.equal(empty.ties, false)
  }
})

test('normal approximation: all values tied gives p = 1; U at its mean gives p = 1', () => {
  assert.equal(uNormalP(50, 10, 10, [20]), 1)
  assert.equal(uNormalP(50, 10, 10, []), 1)
})

test('the smallest exact p: 2 / C(m + n, m)', () => {
  assert.equal(uTestMinP(1, 1), 1)
  close(uTestMinP(3, 3), 2 / 20, 1e-12, '3 + 3')
  close(uTestMinP(6, 6), 2 / 924, 1e-12, '6 + 6')
  close(uTestMinP(2, 5), 2 / 21, 1e-12, '2 + 5')
  close(uTestMinP(5, 2), 2 / 21, 1e-12, '5 + 2')
})

test('summary: no values, two values, and the warnings it gives', () => {
  assert.deepEqual(summarize([]), {
    n: 0,
    median: Number.NaN,
    mean: Number.NaN,
    stdev: Number.NaN,
    min: Number.NaN,
    max: Number.NaN,
    p5: Number.NaN,
    p95: Number.NaN,
    mad: Number.NaN,
    ci: [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY],
    ciLevel: 1,
    outliers: [],
    warnings: ['no values'],
  })
  assert.equal(summarize([1, 3]).stdev, Math.SQRT2)
  assert.deepEqual(summarize([1, 2, 3]).warnings, [
    'n = 3 < 6: no 95 % confidence interval of the median (need ≥ 6 values)',
  ])
  // At 50 % three values bound the median, but fewer than 6 is still called wide.
  assert.deepEqual(summarize([1, 2, 3], 0.5).warnings, ['n = 3 < 6: confidence interval is wide'])
  assert.deepEqual(summarize([1, 2, 3, 4, 5, 6]).warnings, [])
  // One and two outliers (modified z far above 3.5).
  assert.deepEqual(summarize([10, 11, 12, 11, 10, 12, 11, 100]).warnings, ['1 outlier (|modified z| > 3.5)'])
  const two = summarize([10, 11, 12, 11, 10, 12, 11, 100, 200])
  assert.deepEqual(two.outliers, [7, 8])
  assert.deepEqual(two.warnings, ['2 outliers (|modified z| > 3.5)'])
  assert.deepEqual(modifiedZ([]), [])
})

test('erfc in both tails and at the branch points (Python math.erfc)', () => {
  close(erfc(2), 0.004677734981047265, 1e-15, 'erfc(2)')
  close(erfc(-2), 2 - 0.004677734981047265, 1e-15, 'erfc(-2)')
  close(erfc(-5), 1.9999999999984626, 1e-15, 'erfc(-5)')
  assert.ok(Number.isNaN(erfc(Number.NaN)))
})

test('within/between: launches numbered out of order or with gaps', () => {
  // Launch 1 first, then launch 0; launch means 2 and 11; within = (1+1+1+1)/(4−2) = 2.
  const r = withinBetweenIndexed([1, 3, 10, 12], [1, 1, 0, 0])
  assert.deepEqual(r, { within: 2, between: 40.5, launches: 2 })
  // Launch numbers 0 and 2 (no launch 1): still two launches with finite variances.
  const g = withinBetweenIndexed([1, 3, 10, 12], [0, 0, 2, 2])
  assert.deepEqual(g, { within: 2, between: 40.5, launches: 2 })
})
