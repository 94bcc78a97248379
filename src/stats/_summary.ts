/**
 * Summary statistics of one sample (one cell): centre, spread, a distribution-free CI of
 * the median and MAD-based outliers. Thresholds live in `DEFAULT_THRESHOLDS`.
 */
import { mean, sampleVariance } from 'simple-statistics'
import { medianCI, medianOrderCi } from './_binomial.ts'
import { madAround, OrderStats, quantileRanks, scratch } from './_order-stats.ts'
import { quantile, sortSample } from './_sorted.ts'

/** Thresholds used by the statistics, in one place. */
export const DEFAULT_THRESHOLDS = {
  /** Confidence level of the median CI. */
  ciLevel: 0.95,
  /** |modified z| above this marks an outlier (Iglewicz & Hoaglin 1993). */
  outlierZ: 3.5,
  /** Below this many values the 95 % median CI is unbounded (benchstat: need ≥ 6). */
  minCiSamples: 6,
  /** Significance level of `diff`. */
  alpha: 0.05,
} as const

/** Statistics of one sample, all in the unit of the input values. */
export interface Summary {
  n: number
  median: number
  mean: number
  /** Sample standard deviation (n − 1 denominator); 0 when n = 1. */
  stdev: number
  min: number
  max: number
  /** 5th and 95th percentiles (linear interpolation, R type 7). */
  p5: number
  p95: number
  /** Raw median absolute deviation, median(|x − median|), not scaled by 1.4826. */
  mad: number
  /** Distribution-free CI of the median from order statistics, as benchstat; ±∞ when n is too small. */
  ci: [number, number]
  /** Exact coverage of `ci` (≥ the requested level; 1 when unbounded), as benchstat reports it. */
  ciLevel: number
  /** Indices into the input whose |modified z| exceeds 3.5 (see `modifiedZ`). */
  outliers: number[]
  /** Human-readable caveats, e.g. a small n. */
  warnings: string[]
}

/** Mean and sample standard deviation (n − 1 denominator; 0 for n = 1), as simple-statistics computes them. */
function meanStdev(values: ArrayLike<number>): { mean: number; stdev: number } {
  // simple-statistics reads x.length and x[i] only, so a typed array serves as well.
  const m = mean(values as number[])
  const n = values.length
  if (n < 2) return { mean: m, stdev: 0 }
  // sampleStandardDeviation's own steps (√(Σ(x − mean)² / (n − 1)), summed in order), with
  // the mean it would compute again taken from above: the same number, one pass fewer.
  let ss = 0
  for (let i = 0; i < n; i++) {
    const d = (values[i] as number) - m
    ss += d * d
  }
  return { mean: m, stdev: Math.sqrt(ss / (n - 1)) }
}

/** Sample variance (n − 1 denominator), NaN for fewer than 2 values, by simple-statistics. */
const varianceOf = (values: readonly number[]): number => (values.length < 2 ? NaN : sampleVariance(values as number[]))

/**
 * Modified z-scores (Iglewicz & Hoaglin 1993): z = 0.6745·(x − median)/MAD, i.e.
 * (x − median)/(1.4826·MAD), since 1/0.6745 = 1.4826 makes MAD a consistent estimator of σ
 * for normal data. When MAD is 0 (more than half the values equal, common with coarse
 * timers) the mean absolute deviation is used instead, z = (x − median)/(1.253314·MeanAD)
 * (1.253314 = √(π/2)), so one differing value is not an "infinite" outlier; when both are
 * 0 every value equals the median and every z is 0.
 */
export function modifiedZ(values: readonly number[]): number[] {
  if (values.length === 0) return []
  const sorted = sortSample(values)
  const med = quantile(sorted, 0.5)
  return zAround(values, med, madAround(values, med))
}

/** Modified z-scores given the median and raw MAD (see `modifiedZ`). */
function zAround(values: readonly number[], med: number, mad: number): number[] {
  const scale = zScale(values, med, mad)
  return values.map((x) => (scale === 0 ? 0 : (x - med) / scale))
}

/** The divisor of the modified z-score: MAD/0.6745, or 1.253314·MeanAD when MAD is 0. */
function zScale(values: ArrayLike<number>, med: number, mad: number): number {
  if (mad !== 0) return mad / 0.6745
  let sum = 0
  for (let i = 0; i < values.length; i++) sum += Math.abs((values[i] as number) - med)
  return 1.253314 * (sum / values.length)
}

/**
 * Summarizes a sample; `level` is the median-CI confidence (default 0.95). `noun` names the
 * values in warnings ("launches" when each value is one launch's median).
 */
export function summarize(
  values: ArrayLike<number>,
  level: number = DEFAULT_THRESHOLDS.ciLevel,
  noun = 'values',
): Summary {
  const n = values.length
  if (n === 0) return emptySummary()
  const order = medianOrderCi(n, level)
  // The ranks read below, placed by selection instead of a sort (the same values).
  const ranks = [0, n - 1, order.lo - 1, order.hi - 1, ...[0.05, 0.5, 0.95].flatMap((q) => quantileRanks(n, q))]
  const sorted = new OrderStats(values, ranks, undefined, scratch(0, n))
  const median = sorted.quantile(0.5)
  const { mean, stdev } = meanStdev(values)
  const warnings: string[] = []
  const few = ciWarning(n, order.lo, level, noun)
  if (few) warnings.push(few)
  const mad = madAround(values, median, scratch(1, n))
  const outliers = outliersOf(values, median, zScale(values, median, mad))
  if (outliers.length > 0)
    warnings.push(
      `${outliers.length} outlier${outliers.length > 1 ? 's' : ''} (|modified z| > ${DEFAULT_THRESHOLDS.outlierZ})`,
    )
  return {
    n,
    median,
    mean,
    stdev,
    min: sorted.at(0),
    max: sorted.at(n - 1),
    p5: sorted.quantile(0.05),
    p95: sorted.quantile(0.95),
    mad,
    ci: medianCI(sorted, level),
    ciLevel: order.coverage,
    outliers,
    warnings,
  }
}

/** The summary of no values: every statistic NaN, an unbounded interval. */
function emptySummary(): Summary {
  return {
    n: 0,
    median: NaN,
    mean: NaN,
    stdev: NaN,
    min: NaN,
    max: NaN,
    p5: NaN,
    p95: NaN,
    mad: NaN,
    ci: [-Infinity, Infinity],
    ciLevel: 1,
    outliers: [],
    warnings: ['no values'],
  }
}

/** Why the median's interval is missing (`lo` below rank 1) or wide, if it is. */
function ciWarning(n: number, lo: number, level: number, noun: string): string | undefined {
  if (lo < 1)
    return (
      `n = ${n} < ${minSamplesFor(level)}: no ` +
      `${pct(level)} confidence interval of the median (need ≥ ${minSamplesFor(level)} ${noun})`
    )
  if (n < DEFAULT_THRESHOLDS.minCiSamples)
    return `n = ${n} < ${DEFAULT_THRESHOLDS.minCiSamples}: confidence interval is wide`
  return undefined
}

/** The indices of values whose modified z (|x − median| / scale) passes the outlier threshold; none when scale is 0. */
function outliersOf(values: ArrayLike<number>, median: number, scale: number): number[] {
  const outliers: number[] = []
  if (scale > 0)
    for (let i = 0; i < values.length; i++)
      if (Math.abs((values[i] as number) - median) / scale > DEFAULT_THRESHOLDS.outlierZ) outliers.push(i)
  return outliers
}

/** The smallest n that gives a bounded median CI at `level` (6 at 0.95, 8 at 0.99). */
export function minSamplesFor(level: number): number {
  for (let n = 1; n <= 1100; n++) if (medianOrderCi(n, level).lo >= 1) return n
  return Infinity
}

const pct = (level: number): string => `${Number((level * 100).toPrecision(4))} %`

/**
 * The geometric mean, exp(mean(ln x)). Own code: simple-statistics' `geometricMean`
 * multiplies the values first, which overflows for a few hundred cells of bytes/second. NaN when empty or when any value is ≤ 0 or not
 * finite (a geomean of such values has no meaning; callers report that as a warning).
 */
export function geomean(values: readonly number[]): number {
  if (values.length === 0) return NaN
  let s = 0
  for (const v of values) {
    if (!(v > 0) || !Number.isFinite(v)) return NaN
    s += Math.log(v)
  }
  return Math.exp(s / values.length)
}

/**
 * Variance within a launch versus between launches (trials), the one-way ANOVA split:
 * `within` is the pooled within-launch variance Σ_l Σ_i (x_li − x̄_l)² / (N − k) (NaN when
 * N = k, i.e. one value per launch), `between` is the sample variance of the k launch
 * means (NaN when k < 2). A `between` much larger than `within`/n_l says launches differ
 * more than iterations do (clocks, placement), so repeat launches, not iterations.
 */
export function withinBetween(samples: { launch: string; value: number }[]): {
  within: number
  between: number
  launches: number
} {
  const ids = new Map<string, number>()
  const launch = samples.map((s) => {
    let id = ids.get(s.launch)
    if (id === undefined) ids.set(s.launch, (id = ids.size))
    return id
  })
  return withinBetweenIndexed(
    samples.map((s) => s.value),
    launch,
  )
}

/**
 * `withinBetween` over parallel arrays: `values[i]` came from launch number `launch[i]`
 * (small non-negative integers). No per-value objects, for cells of a million rows.
 */
export function withinBetweenIndexed(
  values: ArrayLike<number>,
  launch: ArrayLike<number>,
): { within: number; between: number; launches: number } {
  const n = values.length
  let k = 0
  for (let i = 0; i < launch.length; i++) if ((launch[i] as number) + 1 > k) k = (launch[i] as number) + 1
  const sum = new Float64Array(k)
  const count = new Float64Array(k)
  for (let i = 0; i < n; i++) {
    const l = launch[i] as number
    sum[l] = (sum[l] as number) + (values[i] as number)
    count[l] = (count[l] as number) + 1
  }
  const means: number[] = []
  const meanOf = new Float64Array(k)
  for (let l = 0; l < k; l++) {
    if ((count[l] as number) === 0) continue
    meanOf[l] = (sum[l] as number) / (count[l] as number)
    means.push(meanOf[l] as number)
  }
  let ss = 0
  for (let i = 0; i < n; i++) ss += ((values[i] as number) - (meanOf[launch[i] as number] as number)) ** 2
  const df = n - means.length
  return {
    within: df > 0 ? ss / df : NaN,
    between: varianceOf(means),
    launches: means.length,
  }
}
