/**
 * α–β fit of one series with a bootstrap interval. The fit runs on the per-size medians
 * (robust against outlier iterations); the bootstrap redoes it on resampled data with the
 * breakpoints held fixed: when the values came from several launches, hierarchically (the
 * launch is the unit of replication: draw launches with replacement, then each drawn launch's
 * values; iterations of one launch share its state and are not independent); otherwise within
 * each size when sizes have several samples (stratified bootstrap), or on the line's relative
 * residuals (residual bootstrap; _bootstrap.ts). One launch of several iterations gives no interval.
 */

import { OrderStats, quantile, quantileRanks, sortSample, summarize } from '../../stats/index.ts'
import type { Segment } from '../_types.ts'
import type { Resampled } from './_bootstrap.ts'
import { resampleFit } from './_bootstrap.ts'
import type { SegmentFit, XY } from './_fit.ts'
import { relResiduals, segmentedFit } from './_fit.ts'
import { ORDER_STAT_MIN } from './_resample-median.ts'
import type { Series } from './_series.ts'

/** The numeric part of a Fit. */
export interface AlphaBeta {
  /** Floor: α of the first segment (seconds). */
  alpha: number
  /** Bootstrap percentile interval of α (seconds); [α, α] when it cannot be resampled. */
  alphaCi: [number, number]
  /** Launches the values came from (0: not known); 1 with several iterations: no interval ("one launch"). */
  launches: number
  /** Asymptotic bandwidth: β of the last segment (bytes/second); null when unresolved. */
  beta: number | null
  betaCi: [number, number] | null
  segments: Segment[]
  /** The measured side of the floor: the smallest size (null: the tool did not state it), its median and its minimum. */
  smallest: { sizeBytes: number | null; median: number; min: number; n: number }
  /** Distinct sizes and samples that went in. */
  sizes: number
  n: number
  warnings: string[]
}

/** Options of `fitSeries`. */
export interface FitOptions {
  /** Bootstrap replicates (default 200). */
  replicates?: number
  /** Base seed; each series mixes in its own key, so results do not depend on order. */
  seed?: number
  /** Interval level (default 0.95). */
  level?: number
  /**
   * Sizes with at least this many samples draw each replicate median from its order-statistic
   * distribution (`resampleMedian`, O(1)) instead of resampling every sample (default ORDER_STAT_MIN).
   */
  orderStatMin?: number
}

/** The union of two intervals (the first alone when there is no second, or the second is empty). */
const wider = (a: [number, number], b: [number, number] | undefined): [number, number] =>
  b && Number.isFinite(b[0]) && Number.isFinite(b[1]) ? [Math.min(a[0], b[0]), Math.max(a[1], b[1])] : a

const betaOf = (slope: number): number | null => (slope > 0 ? 1 / slope : null)

function toSegment(p: readonly XY[], s: SegmentFit): Segment {
  const pts = p.slice(s.from, s.to + 1)
  const r = relResiduals(pts, s.fit.alpha, s.fit.slope)
  return {
    fromBytes: (pts[0] as XY).x,
    toBytes: (pts[pts.length - 1] as XY).x,
    points: pts.length,
    alpha: s.fit.alpha,
    beta: betaOf(s.fit.slope),
    relRms: Math.sqrt(r.reduce((a, x) => a + x * x, 0) / r.length),
  }
}

/** Fits `time = α + size/β` to a series (segmented; α from the first segment, β from the last). */
export function fitSeries(series: Series, opts: FitOptions = {}): AlphaBeta {
  const sizes = [...series.bySize.keys()].sort((a, b) => a - b)
  const orderStatMin = opts.orderStatMin ?? ORDER_STAT_MIN
  const samples = strata(series, sizes, orderStatMin)
  const points: XY[] = sizes.map((x, i) => ({ x, y: (samples[i] as OrderStats).quantile(0.5) }))
  const segs = segmentedFit(points)
  const first = segs[0] as SegmentFit
  const last = segs[segs.length - 1] as SegmentFit
  const warnings = inputWarnings(series, sizes.length, first.fit.alpha)
  const r = resampleFit(series, points, samples, segs, opts.replicates ?? 200, opts.seed ?? 1, orderStatMin)
  if (r.oneLaunch) warnings.push('one launch: no interval (its iterations share its state)')
  else if (r.boot.alphas.length === 0) warnings.push('too few points to resample: no interval')
  const ci = percentileCi(opts.level ?? 0.95)
  const fitted = betaOf(last.fit.slope)
  const direct = fitted === null && series.bandwidths.length ? bandwidthBeta(series.bandwidths, warnings) : null
  const beta = direct ? direct.beta : fitted
  return {
    alpha: first.fit.alpha,
    alphaCi: r.boot.alphas.length
      ? wider(ci(r.boot.alphas), r.few ? ci(r.few.alphas) : undefined)
      : [first.fit.alpha, first.fit.alpha],
    launches: r.launches,
    beta,
    betaCi: direct ? direct.ci : betaCi(beta, r, ci),
    segments: segs.map((s) => toSegment(points, s)),
    smallest: smallestOf(series, sizes, samples[0] as OrderStats),
    sizes: sizes.length,
    n: samples.reduce((a, s) => a + s.length, 0),
    warnings,
  }
}

/** Each size's samples, ranked (`stratum`); their copies share one buffer (one allocation per series, not per size). */
function strata(series: Series, sizes: readonly number[], orderStatMin: number): OrderStats[] {
  const lists = sizes.map((x) => series.bySize.get(x) ?? [])
  const buffer = new Float64Array(lists.reduce((a, l) => a + l.length, 0))
  let at = 0
  return lists.map((l) => stratum(l, orderStatMin, buffer.subarray(at, (at += l.length))))
}

/** What the data leave out or cannot resolve, said before the fit's own warnings. */
function inputWarnings(series: Series, sizes: number, alpha: number): string[] {
  const warnings: string[] = []
  if (series.unsized > 0) warnings.push(`${series.unsized} row(s) without a message size were counted as 0 B`)
  if (series.nonPositive > 0)
    warnings.push(`${series.nonPositive} time value(s) ≤ 0 or not a number left out: not a measured time`)
  if (sizes < 2) warnings.push('one message size only: α is the median time there and β is not resolved')
  if (alpha <= 0)
    warnings.push('α ≤ 0: the line does not describe the smallest sizes; read the smallest-size median instead')
  return warnings
}

type Ci = (v: number[]) => [number, number]

/** The percentile interval at `level` of replicate values. */
const percentileCi =
  (level: number): Ci =>
  (v) => {
    const s = sortSample(v)
    return [quantile(s, (1 - level) / 2), quantile(s, 1 - (1 - level) / 2)]
  }

/**
 * β's interval from the replicate slopes when most are positive, else [β, β]; under
 * FEW_LAUNCHES the wider of it and the within-size one (as α's).
 */
function betaCi(beta: number | null, r: Resampled, ci: Ci): [number, number] | null {
  if (beta === null) return null
  const betasOf = (slopes: number[]): number[] => slopes.filter((x) => x > 0).map((x) => 1 / x)
  const betas = betasOf(r.boot.slopes)
  if (betas.length <= r.boot.slopes.length / 2) return [beta, beta]
  const few = r.few ? betasOf(r.few.slopes) : []
  return wider(ci(betas), r.few && few.length > r.few.slopes.length / 2 ? ci(few) : undefined)
}

/** The measured side of the floor: the smallest size (null when the tool did not state it), its median and minimum. */
function smallestOf(series: Series, sizes: readonly number[], s0: OrderStats): AlphaBeta['smallest'] {
  return {
    sizeBytes: sizes[0] === 0 && series.unsized > 0 ? null : (sizes[0] as number),
    median: s0.quantile(0.5),
    min: s0.at(0),
    n: s0.length,
  }
}

/**
 * One size's samples, ranked. A stratum the bootstrap resamples value by value is sorted; a
 * larger one (its replicate medians drawn by `resampleMedian`) has its minimum, its median and
 * a window of ±6√n + 2 ranks around the median placed (its copy goes into `into`): a replicate median's rank has a standard
 * deviation of about √n / 2, so a rank outside the window (12 of them away) is as good as never
 * read, and costs a full sort when it is.
 */
function stratum(values: readonly number[], orderStatMin: number, into: Float64Array): OrderStats {
  const n = values.length
  if (n < orderStatMin) return new OrderStats(values, [], [0, n - 1], into)
  const half = Math.ceil(6 * Math.sqrt(n)) + 2
  const mid = (n - 1) / 2
  return new OrderStats(values, [0, ...quantileRanks(n, 0.5)], [mid - half, mid + half], into)
}

/**
 * β straight from large-copy bandwidths of unrecorded size: their median, with the
 * order-statistic CI of the median (the point when n is too small to bound it).
 */
function bandwidthBeta(values: readonly number[], warnings: string[]): { beta: number; ci: [number, number] } {
  const s = summarize(values)
  warnings.push('β is the median p2p.bw_uni bandwidth (its copy size is not recorded; at ≥ 40 MB α is negligible)')
  return { beta: s.median, ci: Number.isFinite(s.ci[0]) && Number.isFinite(s.ci[1]) ? s.ci : [s.median, s.median] }
}
