/**
 * Statistics of benchmark samples (benchstat's benchmath, in TypeScript): sorted samples,
 * quantiles, a per-cell `Summary` with a distribution-free CI of the median and MAD
 * outliers, the Mann-Whitney U test, geomean, the within/between-launch variance split,
 * launch medians (the unit of replication) with a Welch t interval of a ratio, and Student t.
 * Pure functions; nothing here does IO.
 */

export type { OrderCi } from './_binomial.ts'
export { binomialUpperTail, medianCI, medianOrderCi } from './_binomial.ts'
export type { LogRatio } from './_launches.ts'
export { launchMedians, logRatio, ratioBeyond, ratioBound, ratioInterval } from './_launches.ts'
export type { MannWhitney } from './_mannwhitney.ts'
export { EXACT_LIMIT, mannWhitney, uFrequencies, uNormalP, uTestMinP } from './_mannwhitney.ts'
export { erfc, normalCdf } from './_normal.ts'
export type { Ranked } from './_order-stats.ts'
export { OrderStats, quantileRanks, selectRank } from './_order-stats.ts'
export type { SortedSample } from './_sorted.ts'
export { medianOf, quantile, sortSample } from './_sorted.ts'
export { incompleteBeta, studentQuantile, studentTail } from './_student.ts'
export type { Summary } from './_summary.ts'
export {
  DEFAULT_THRESHOLDS,
  geomean,
  minSamplesFor,
  modifiedZ,
  summarize,
  withinBetween,
  withinBetweenIndexed,
} from './_summary.ts'
