/**
 * Types of `diffSets`, which are also the `gpucomm diff --format json` output
 * (JSON.stringify of a `DiffResult`; ±∞ CI bounds print as null).
 */

import type { CellConfig } from '../cells/index.ts'
import type { Metric, Unit } from '../model/index.ts'
import type { LogRatio, Summary } from '../stats/index.ts'
import type { ObservedChange } from './_observed.ts'

/** Options of `diffSets`. */
export interface DiffOptions {
  /** Significance level of the Mann-Whitney U test (default 0.05); p > alpha prints `~`. */
  alpha?: number
  /** Confidence level of the median CIs (default 0.95). */
  level?: number
  /** Compare a SIMULATED set with a real one (refused otherwise, exit 2). */
  allowSim?: boolean
  /** Metrics to test (`--metric`); default the primary one of each bench (time, latency, bandwidth). */
  metrics?: Metric[]
}

/** How `--fail-on-regression` decides: Benjamini–Hochberg q ≤ alpha (default) or each p ≤ alpha. */
export type GateCorrection = 'bh' | 'none'

/** One side of the comparison as the header names it. */
export interface DiffSide {
  dir: string
  id: string
  origin: string
  simulated: boolean
  /** The simulator's known shift (`--sim-scale`), when the set was made with one. */
  simScale?: number
  rows: number
  cells: number
}

/** One cell found in both sets. */
export interface DiffCell {
  /** The cell key (see cells `cellKey`): the join key of the two sets. */
  key: string
  bench: string
  metric: Metric
  unit: Unit
  /** The key without bench and metric, for row labels. */
  label: string
  config: CellConfig
  /**
   * Statistics of A's and B's launch medians (base units): one value per launch (trial), the
   * median of its iterations, so `n` counts launches and `ci` is the median's CI over launches.
   */
  a: Summary
  b: Summary
  /** Values (iterations × launches) behind A's and B's launch medians. */
  values: [number, number]
  /** (B median − A median) / A median, a fraction (0.05 = +5 %); 0 when both are 0. */
  delta: number
  /** Welch fit of ln B − ln A over launch medians; null with one launch on a side (or a value ≤ 0). */
  fit: LogRatio | null
  /** The `level` CI of the change B/A − 1 from `fit` (asymmetric); null when there is no fit. */
  deltaCi: [number, number] | null
  /** Two-sided Mann-Whitney U p-value of A's launch medians against B's. */
  p: number
  /** True when `p` came from the exact U distribution. */
  exact: boolean
  /** Whether this cell's metric is tested (primary, or chosen by `--metric`); others are shown only. */
  tested: boolean
  /** Whether the launch counts can give p ≤ alpha at all (3 + 3 cannot reach 0.05). */
  reachable: boolean
  /** The printed resolution of the values (one unit of the last printed digit, base units); 0 when unknown. */
  resolution: number
  /** Benjamini–Hochberg adjusted p over the tested cells; NaN for cells not tested. */
  q: number
  /** Tested, reachable, p ≤ alpha, and the medians differ by more than the printed resolution. */
  significant: boolean
  /** 'lower' for times and latencies, 'higher' for bandwidths. */
  better: 'lower' | 'higher'
  /** How much worse B is than A as a fraction (slower or lower bandwidth); ≤ 0 means not worse. */
  worse: number
  /** Significant and worse. */
  regression: boolean
  /** Data errors of the cell (wrong elements in the data check), per side: never a metric delta. */
  errors: string[]
  /** Caveats of this cell (small n, outliers, …). */
  warnings: string[]
  /** Observed conditions that differ between A and B (cells match on the requested configuration). */
  changed?: ObservedChange[]
}

/** What the tests of a diff can and cannot say, stated once before any cell. */
export interface DiffTesting {
  /** Metrics tested; the others are shown only. */
  metrics: Metric[]
  /** Cells tested. */
  cells: number
  /** cells × alpha: how many cells would be flagged by chance alone if nothing changed. */
  expectedFalsePositives: number
  /** Sample sizes ("3+3") of tested cells that cannot reach p ≤ alpha, with how many cells. */
  unreachable: { sizes: string; cells: number; minP: number }[]
  /** The fewest values (trials) on each side that can reach alpha. */
  minSamples: number
}

/** The geometric mean of the cell medians of one metric, over cells found in both sets. */
export interface DiffGeomean {
  metric: Metric
  unit: Unit
  cells: number
  a: number
  b: number
  /** b / a − 1, a fraction. */
  delta: number
}

/** Everything `diff` found; the JSON output of `gpucomm diff`. */
export interface DiffResult {
  a: DiffSide
  b: DiffSide
  alpha: number
  level: number
  /** True when either set is SIMULATED. */
  simulated: boolean
  cells: DiffCell[]
  /** One per metric that has cells in both sets and only positive medians. */
  geomeans: DiffGeomean[]
  /** Keys of cells found only in A, or only in B. */
  onlyA: string[]
  onlyB: string[]
  /** What the tests can say (metrics, false positives expected, unreachable sample sizes). */
  testing: DiffTesting
  /** Data errors (wrong elements) found in either set, one line each. */
  errors: string[]
  /** Set-level caveats and per-cell caveats with how many cells they concern. */
  warnings: string[]
}
