/**
 * The statistical decisions of `diff`, apart from the cell matching: which metrics are
 * tested, the printed resolution of a cell, whether its sample sizes can reach α at all,
 * and the Benjamini–Hochberg false-discovery-rate control of the regression gate.
 */
import type { Metric } from '../model/index.ts'
import { uTestMinP } from '../stats/index.ts'

/**
 * Metrics tested by default: the primary one of every bench. Time for collectives, latency
 * and bandwidth for p2p copies. algbw and busbw are derived by the tool from the time (shown,
 * not tested again); `wrong` is a data check, reported as an error of its cell.
 */
export const PRIMARY_METRICS: readonly Metric[] = ['time', 'latency', 'bandwidth']

/** Whether `metric` is tested: one of `chosen` (from `--metric`) or else a primary metric. */
export function isTested(metric: Metric, chosen?: readonly Metric[]): boolean {
  if (metric === 'wrong') return false
  return chosen && chosen.length > 0 ? chosen.includes(metric) : PRIMARY_METRICS.includes(metric)
}

/**
 * The printed resolution of a cell: the largest power of ten every value (of every sample) is a whole multiple
 * of. Values are the tool's printed decimals scaled to base units, correctly rounded (40.12 µs
 * → 4.012e-5 s), so the last printed digit survives: 0.07 GB/s gives 1e7 B/s. 0 when every
 * value is zero. A computed (unprinted) value has more digits than any tool prints; its step
 * comes out 10^−12 of the largest value, the search's last power, where the multiple test's
 * relative tolerance admits every value: far below any difference worth a finding.
 */
export function printedStep(...samples: readonly (readonly number[])[]): number {
  let top = -Infinity
  for (const values of samples)
    for (const v of values) if (v !== 0 && Number.isFinite(v)) top = Math.max(top, Math.floor(Math.log10(Math.abs(v))))
  if (top === -Infinity) return 0
  for (let k = top; k >= top - 12; k--) {
    const step = 10 ** k
    if (samples.every((values) => values.every((v) => isMultiple(v, step)))) return step
  }
  return 0
}

function isMultiple(v: number, step: number): boolean {
  const x = v / step
  return Math.abs(x - Math.round(x)) <= 1e-12 * Math.max(1, Math.abs(x))
}

/** A difference of medians no larger than the printed resolution, which no tool output can resolve. */
export const withinResolution = (a: number, b: number, step: number): boolean =>
  step > 0 && Math.abs(b - a) <= step * (1 + 1e-9)

/**
 * Benjamini–Hochberg adjusted p-values (q-values), in input order: q_(i) = min over j ≥ i of
 * p_(j)·N/j. Rejecting q ≤ α keeps the expected share of false findings among the findings
 * at most α (for independent or positively dependent tests, as cells of one run are).
 * NaN p-values stay NaN and do not count. Own code: simple-statistics has no FDR control.
 */
export function benjaminiHochberg(ps: readonly number[]): number[] {
  const idx = ps.map((_, i) => i).filter((i) => !Number.isNaN(ps[i] as number))
  idx.sort((x, y) => (ps[x] as number) - (ps[y] as number))
  const q = ps.map(() => NaN)
  const N = idx.length
  let run = 1
  for (let r = N - 1; r >= 0; r--) {
    const i = idx[r] as number
    run = Math.min(run, ((ps[i] as number) * N) / (r + 1))
    q[i] = run
  }
  return q
}

/**
 * The smallest equal sample size at which the U test can reach `alpha` at all: the most
 * extreme exact p with n + n values is 2/C(2n, n) (benchstat's uTestMinP table); 4 at 0.05.
 */
export function uTestMinN(alpha: number): number {
  for (let n = 1; n <= 30; n++) if (uTestMinP(n, n) <= alpha) return n
  return Infinity
}

/** Whether samples of m and n values can give p ≤ alpha at all. */
export const canReach = (m: number, n: number, alpha: number): boolean => uTestMinP(m, n) <= alpha
