/**
 * Statistics of benchmark samples (benchstat's benchmath, in TypeScript): sorted samples,
 * quantiles, a per-cell `Summary` with a distribution-free CI of the median and MAD
 * outliers, the Mann-Whitney U test, geomean, and the within/between-launch variance split.
 * Pure functions; nothing here does IO.
 */

export type { OrderCi } from './_binomial.ts'
export { binomialUpperTail, medianCI, medianOrderCi } from './_binomial.ts'
export type { MannWhitney } from './_mannwhitney.ts'
export { EXACT_LIMIT, mannWhitney, uFrequencies, uNormalP, uTestMinP } from './_mannwhitney.ts'
export { erfc, normalCdf } from './_normal.ts'
export type { Ranked } from './_order-stats.ts'
export { OrderStats, quantileRanks, selectRank } from './_order-stats.ts'
export type { SortedSample } from './_sorted.ts'
export { medianOf, quantile, sortSample } from './_sorted.ts'
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
