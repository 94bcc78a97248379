/**
 * Student t (tail and quantiles, fractional df) and the launch-level pieces built on it:
 * launch medians and the Welch interval of a ratio on the logs. Expected values are table
 * values (R's qt/pt, scipy's t.ppf/t.sf) and hand computations, written in the comments.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  incompleteBeta,
  launchMedians,
  logRatio,
  ratioBeyond,
  ratioBound,
  ratioInterval,
  studentQuantile,
  studentTail,
} from '../../src/stats/index.ts'

const near = (x: number, y: number, tol: number, what: string) =>
  assert.ok(Math.abs(x - y) <= tol, `${what}: ${x} vs ${y}`)

test('Student t quantiles and tails match the tables (qt, pt), fractional df included', () => {
  near(studentQuantile(0.975, 10), 2.228138852, 1e-8, 'qt(.975, 10)')
  near(studentQuantile(0.975, 1), 12.70620474, 1e-7, 'qt(.975, 1)')
  near(studentQuantile(0.995, 5), 4.032142984, 1e-8, 'qt(.995, 5)')
  near(studentQuantile(0.975, 4), 2.776445105, 1e-8, 'qt(.975, 4)')
  near(studentQuantile(0.95, 2.5), 2.558218614, 1e-8, 'qt(.95, 2.5) (scipy t.ppf)')
  near(studentQuantile(0.975, 1e7), 1.959964, 1e-5, 'qt(.975, large) → the normal 1.96')
  near(studentQuantile(0.025, 10), -2.228138852, 1e-8, 'symmetric')
  assert.equal(studentQuantile(0.5, 7), 0)
  near(studentTail(2, 3), 0.06966298, 1e-8, '1 − pt(2, 3)')
  near(studentTail(-2, 3), 1 - 0.06966298, 1e-8, 'lower side')
  near(studentTail(0, 9), 0.5, 1e-15, 'centre')
  // I_x(a, b) at a closed form: I_0.5(2, 3) = 11/16.
  near(incompleteBeta(0.5, 2, 3), 0.6875, 1e-14, 'I_0.5(2, 3)')
  assert.ok(Number.isNaN(studentQuantile(0.5, 0)))
})

test('launch medians: one median per launch, in order of first appearance', () => {
  assert.deepEqual(launchMedians([10, 1, 20, 2, 30, 3, 40], [1, 0, 1, 0, 1, 0, 1]), [25, 2])
  assert.deepEqual(launchMedians([5], [3]), [5])
})

test('Welch on logs: B = 2·A launch by launch gives ratio 2, df 2(n − 1), an asymmetric interval', () => {
  const a = [1, 2, 3]
  const b = [2, 4, 6]
  const f = logRatio(a, b)!
  near(f.ratio, 2, 1e-12, 'ratio')
  near(f.df, 4, 1e-9, 'equal spreads and sizes: df = 4')
  // ln(1, 2, 3) = 0, 0.6931, 1.0986: mean 0.5973, variance 0.30863; se = √(2·0.30863/3) = 0.45360.
  near(f.se, 0.4536033, 1e-6, 'se')
  const [lo, hi] = ratioInterval(f, 0.95)
  near(lo, 2 * Math.exp(-2.776445105 * f.se), 1e-9, 'lo')
  near(hi, 2 * Math.exp(2.776445105 * f.se), 1e-9, 'hi')
  assert.ok(hi - 2 > 2 - lo, 'wider above: a ratio interval is asymmetric')
  // One-sided bounds at 0.95 use qt(.95, 4) = 2.131847.
  near(ratioBound(f, 0.95, 'lower'), 2 * Math.exp(-2.131847 * f.se), 1e-5, 'lower bound')
  near(ratioBound(f, 0.95, 'upper'), 2 * Math.exp(2.131847 * f.se), 1e-5, 'upper bound')
  // p of "above 2": exactly the centre, 0.5; of "above the lower bound": 0.05.
  near(ratioBeyond(f, 2, 'above'), 0.5, 1e-12, 'at the estimate')
  near(ratioBeyond(f, ratioBound(f, 0.95, 'lower'), 'above'), 0.05, 1e-9, 'at the bound')
  near(ratioBeyond(f, ratioBound(f, 0.95, 'upper'), 'below'), 0.05, 1e-9, 'below the upper bound')
  // One launch on a side, or a value ≤ 0: no fit (no interval from one value).
  assert.equal(logRatio([1], [2, 3]), undefined)
  assert.equal(logRatio([1, 2], [0, 3]), undefined)
  // No spread at all: se 0, p 0 or 1.
  const flat = logRatio([2, 2], [3, 3])!
  assert.equal(flat.se, 0)
  assert.equal(ratioBeyond(flat, 1.4, 'above'), 0)
  assert.equal(ratioBeyond(flat, 1.6, 'above'), 1)
})
