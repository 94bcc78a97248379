/**
 * Statistics of benchmark samples (benchstat's benchmath, in TypeScript): sorted samples,
 * quantiles, a per-cell `Summary` with a distribution-free CI of the median and MAD
 * outliers, the Mann-Whitney U test, geomean, and the within/between-launch variance split.
 * Pure functions; nothing here does IO.
 */
export { sortSample, quantile, medianOf } from './_sorted.ts'
export type { SortedSample } from './_sorted.ts'
export { medianCI, medianOrderCi } from './_binomial.ts'
export type { OrderCi } from './_binomial.ts'
export { summarize, modifiedZ, geomean, withinBetween, withinBetweenIndexed, minSamplesFor, DEFAULT_THRESHOLDS } from './_summary.ts'
export type { Summary } from './_summary.ts'
export { mannWhitney, uFrequencies, EXACT_LIMIT } from './_mannwhitney.ts'
export type { MannWhitney } from './_mannwhitney.ts'
export { normalCdf, erfc } from './_normal.ts'
