/**
 * The regression gate (`diff --fail-on-regression PCT`): a cell fails only when its launch
 * medians show, at the stated confidence, that B is worse than A by more than PCT. Each
 * tested cell gets a one-sided Welch t test of "worse by more than PCT" on the logs of its
 * launch medians; the Benjamini–Hochberg procedure runs over all m tested cells (cells with
 * one launch a side count, with p = 1). A cell fails when its q ≤ α; its printed bound is
 * the one-sided lower bound of the regression at 1 − α·R/m, R the cells that fail (the
 * false-coverage-rate adjusted bound of Benjamini & Yekutieli 2005), which lies beyond PCT
 * exactly for those cells. With `correction: 'none'` each p ≤ α counts and the bound is at 1 − α.
 */
import { ratioBeyond, ratioBound } from '../stats/index.ts'
import { benjaminiHochberg, withinResolution } from './_gate.ts'
import type { DiffCell, DiffResult, GateCorrection } from './_types.ts'

/** A cell the gate fails on. */
export interface GateFailure {
  cell: DiffCell
  /** One-sided lower bound of how much worse B is than A (a fraction: 0.06 = 6 % worse), at `level`. */
  bound: number
  /** One-sided confidence of `bound`. */
  level: number
  /** One-sided p of "worse by more than the threshold", and its Benjamini–Hochberg q. */
  p: number
  q: number
}

/** What the gate decided. */
export interface GateResult {
  /** The threshold as a fraction (PCT / 100). */
  threshold: number
  correction: GateCorrection
  /** Cells tested (m). */
  cells: number
  /** Failing cells, the largest bound first. */
  failures: GateFailure[]
}

/**
 * The one-sided p of "B is worse than A by more than `threshold`" for one cell: 1 without a
 * fit (one launch a side), and 1 when the medians differ by no more than the printed resolution
 * (no tool output can resolve that, however alike the launches print).
 */
export function worsePValue(c: DiffCell, threshold: number): number {
  if (!c.fit || withinResolution(c.a.median, c.b.median, c.resolution)) return 1
  if (c.better === 'lower') return ratioBeyond(c.fit, 1 + threshold, 'above')
  return threshold >= 1 ? 1 : ratioBeyond(c.fit, 1 - threshold, 'below')
}

/** The one-sided lower bound at `level` of how much worse B is (NaN without a fit). */
export function worseBound(c: DiffCell, level: number): number {
  if (!c.fit) return NaN
  return c.better === 'lower' ? ratioBound(c.fit, level, 'lower') - 1 : 1 - ratioBound(c.fit, level, 'upper')
}

/** Runs the gate at `pct` percent over the tested cells of `result`. */
export function gate(result: DiffResult, pct: number, correction: GateCorrection = 'bh'): GateResult {
  const threshold = pct / 100
  const alpha = result.alpha
  const tested = result.cells.filter((c) => c.tested)
  const ps = tested.map((c) => worsePValue(c, threshold))
  const qs = correction === 'bh' ? benjaminiHochberg(ps) : ps
  const failing = tested.map((c, i) => ({ c, p: ps[i] as number, q: qs[i] as number })).filter((x) => x.q <= alpha)
  const m = tested.length
  const level = correction === 'bh' ? 1 - (alpha * failing.length) / m : 1 - alpha
  const failures = failing
    .map(({ c, p, q }) => ({ cell: c, bound: worseBound(c, level), level, p, q }))
    .sort((x, y) => y.bound - x.bound)
  return { threshold, correction, cells: m, failures }
}

/** "+6.1 % (one-sided 99.2 % bound) > 5 %": the line the CLI prints per failing cell, without the key. */
export function failureText(f: GateFailure, threshold: number): string {
  const pct = (x: number): string => `${(x * 100).toFixed(Math.abs(x) >= 0.1 ? 1 : 2)} %`
  const level = Number((f.level * 100).toPrecision(4))
  return `worse by at least ${pct(f.bound)} (one-sided ${level} % bound) > threshold ${pct(threshold)}`
}
