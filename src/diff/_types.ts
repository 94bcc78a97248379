/**
 * Types of `diffSets`, which are also the `gpucomm diff --format json` output
 * (JSON.stringify of a `DiffResult`; ±∞ CI bounds print as null).
 */
import type { CellConfig } from '../cells/index.ts'
import type { Metric, Unit } from '../model/index.ts'
import type { Summary } from '../stats/index.ts'

/** Options of `diffSets`. */
export interface DiffOptions {
  /** Significance level of the Mann-Whitney U test (default 0.05); p > alpha prints `~`. */
  alpha?: number
  /** Confidence level of the median CIs (default 0.95). */
  level?: number
  /** Compare a SIMULATED set with a real one (refused otherwise, exit 2). */
  allowSim?: boolean
}

/** One side of the comparison as the header names it. */
export interface DiffSide {
  dir: string
  id: string
  origin: string
  simulated: boolean
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
  /** Statistics of A's and B's values (base units). */
  a: Summary
  b: Summary
  /** (B median − A median) / A median, a fraction (0.05 = +5 %); 0 when both are 0. */
  delta: number
  /** Two-sided Mann-Whitney U p-value of A's values against B's. */
  p: number
  /** True when `p` came from the exact U distribution. */
  exact: boolean
  /** p ≤ alpha. */
  significant: boolean
  /** 'lower' for times and latencies, 'higher' for bandwidths. */
  better: 'lower' | 'higher'
  /** How much worse B is than A as a fraction (slower or lower bandwidth); ≤ 0 means not worse. */
  worse: number
  /** Significant and worse. */
  regression: boolean
  /** Caveats of this cell (small n, outliers, …). */
  warnings: string[]
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
  /** Set-level caveats and per-cell caveats with how many cells they concern. */
  warnings: string[]
}
