/**
 * The launch as the unit of replication. Iterations of one launch share its state (clocks,
 * placement, drift), so they are not independent draws: a cell's values are reduced to one
 * median per launch, and intervals and tests work on those. The change between two sets is
 * the ratio of the geometric means of their launch medians, with a Welch t interval on the
 * logs (ratios of times are what vary multiplicatively; the interval is asymmetric around
 * the ratio, as it should be).
 */

import { medianOf, sortSample } from './_sorted.ts'
import { studentQuantile, studentTail } from './_student.ts'

/** The median of each launch's values, in order of the launch numbers' first appearance. */
export function launchMedians(values: ArrayLike<number>, launch: ArrayLike<number>): number[] {
  const by = new Map<number, number[]>()
  for (let i = 0; i < values.length; i++) {
    const l = launch[i] as number
    const list = by.get(l)
    if (list) list.push(values[i] as number)
    else by.set(l, [values[i] as number])
  }
  return [...by.values()].map((v) => medianOf(sortSample(v)))
}

/** The log-scale fit of B's launch medians against A's (Welch: unequal variances). */
export interface LogRatio {
  /** exp(mean ln B − mean ln A): B's geometric mean over A's. */
  ratio: number
  /** Standard error of ln(ratio). */
  se: number
  /** Welch–Satterthwaite degrees of freedom (fractional). */
  df: number
  /** Launches of A and B. */
  na: number
  nb: number
}

function meanVar(x: readonly number[]): { mean: number; v: number } {
  const m = x.reduce((s, v) => s + v, 0) / x.length
  return { mean: m, v: x.reduce((s, v) => s + (v - m) ** 2, 0) / (x.length - 1) }
}

/**
 * The Welch fit of ln B − ln A over launch medians; undefined when either side has fewer
 * than two launches (no spread to measure: "one launch: no interval") or a value ≤ 0.
 */
export function logRatio(a: readonly number[], b: readonly number[]): LogRatio | undefined {
  if (a.length < 2 || b.length < 2) return undefined
  if (![...a, ...b].every((v) => v > 0 && Number.isFinite(v))) return undefined
  const la = meanVar(a.map(Math.log))
  const lb = meanVar(b.map(Math.log))
  const va = la.v / a.length
  const vb = lb.v / b.length
  const s2 = va + vb
  // Welch–Satterthwaite; when both spreads are 0 the df is moot (se = 0): the pooled a + b − 2.
  const df = s2 > 0 ? (s2 * s2) / ((va * va) / (a.length - 1) + (vb * vb) / (b.length - 1)) : a.length + b.length - 2
  return { ratio: Math.exp(lb.mean - la.mean), se: Math.sqrt(s2), df, na: a.length, nb: b.length }
}

/** The two-sided `level` interval of the ratio, [lo, hi]. */
export function ratioInterval(f: LogRatio, level: number): [number, number] {
  const t = studentQuantile(1 - (1 - level) / 2, f.df)
  const l = Math.log(f.ratio)
  return [Math.exp(l - t * f.se), Math.exp(l + t * f.se)]
}

/** The one-sided `level` bound of the ratio: the lower bound (`'lower'`) or the upper one. */
export function ratioBound(f: LogRatio, level: number, side: 'lower' | 'upper'): number {
  const t = studentQuantile(level, f.df)
  const l = Math.log(f.ratio)
  return Math.exp(side === 'lower' ? l - t * f.se : l + t * f.se)
}

/**
 * The one-sided p-value of "the true ratio is above `limit`" (`'above'`) or below it: small
 * when the data show the ratio lies beyond `limit` in that direction. With se = 0 it is 0 or 1.
 */
export function ratioBeyond(f: LogRatio, limit: number, direction: 'above' | 'below'): number {
  const d = Math.log(f.ratio) - Math.log(limit)
  const z = direction === 'above' ? d : -d
  if (f.se === 0) return z > 0 ? 0 : 1
  return studentTail(z / f.se, f.df)
}
