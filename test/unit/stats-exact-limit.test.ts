/**
 * Where the Mann-Whitney U test stops being exact: both samples under 50 values → exact;
 * one sample of 50 or more → the normal approximation, as R's wilcox.test does. Reference
 * p values from scipy.stats.mannwhitneyu (two-sided, continuity correction).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { mannWhitney } from '../../src/stats/index.ts'

const close = (got: number, want: number, tol: number): void =>
  assert.ok(Math.abs(got - want) <= tol, `${got} vs ${want}`)
const range = (n: number, f: (i: number) => number): number[] => Array.from({ length: n }, (_, i) => f(i))

test('4 values against 50: the normal approximation (p 0.00144), not the exact p (4.4e-5), either way round', () => {
  // scipy: method='asymptotic' p = 0.0014361265319151018, method='exact' p = 4.426863472368467e-05.
  const small = [0.1, 0.2, 0.3, 3.3]
  const big = range(50, (i) => i + 0.5)
  for (const [a, b] of [
    [small, big],
    [big, small],
  ] as const) {
    const r = mannWhitney(a, b)
    assert.equal(r.exact, false)
    close(r.p, 0.0014361265319151018, 1e-12)
  }
})

test('49 values against 49 (no ties): still exact (p 0.43616; the normal one would be 0.43447)', () => {
  // scipy: method='exact' p = 0.43616241308189513, method='asymptotic' p = 0.4344654719925546.
  const r = mannWhitney(
    range(49, (i) => i + 0.5),
    range(49, (i) => i * 0.9 + 5.13),
  )
  assert.equal(r.exact, true)
  close(r.p, 0.43616241308189513, 1e-9)
})
