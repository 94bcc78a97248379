/**
 * α–β fit of one series with a bootstrap interval. The fit runs on the per-size medians
 * (robust against outlier iterations); the bootstrap redoes it on resampled data with the
 * breakpoints held fixed: when the values came from several launches, hierarchically (the
 * launch is the unit of replication: draw launches with replacement, then each drawn launch's
 * values; iterations of one launch share its state and are not independent); otherwise within
 * each size when sizes have several samples (stratified bootstrap), or on the line's relative
 * residuals (residual bootstrap). One launch of several iterations gives no interval.
 */

import type { Uniform as Rng } from '../../random/index.ts'
import { hashSeed, mulberry32, randInt } from '../../random/index.ts'
import { OrderStats, quantile, quantileRanks, selectRank, sortSample, summarize } from '../../stats/index.ts'
import type { Segment } from '../_types.ts'
import type { LineFit, SegmentFit, XY } from './_fit.ts'
import { huberLine, relResiduals, segmentedFit } from './_fit.ts'
import { ORDER_STAT_MIN, resampleMedian } from './_resample-median.ts'
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

/** Below this many launches the launch-level interval is widened to hold the within-size one too. */
export const FEW_LAUNCHES = 6

/** The union of two intervals (the first alone when there is no second, or the second is empty). */
const wider = (a: [number, number], b: [number, number] | undefined): [number, number] =>
  b && Number.isFinite(b[0]) && Number.isFinite(b[1]) ? [Math.min(a[0], b[0]), Math.max(a[1], b[1])] : a

/** The most values a series may hold for the launch-level (hierarchical) bootstrap. */
export const HIER_MAX = 200_000

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
  // The strata's copies share one buffer (one allocation per series, not per size).
  const lists = sizes.map((x) => series.bySize.get(x) ?? [])
  const buffer = new Float64Array(lists.reduce((a, l) => a + l.length, 0))
  let at = 0
  const samples = lists.map((l) => stratum(l, orderStatMin, buffer.subarray(at, (at += l.length))))
  const points: XY[] = sizes.map((x, i) => ({ x, y: (samples[i] as OrderStats).quantile(0.5) }))
  const segs = segmentedFit(points)
  const first = segs[0] as SegmentFit
  const last = segs[segs.length - 1] as SegmentFit
  const warnings: string[] = []
  if (series.unsized > 0) warnings.push(`${series.unsized} row(s) without a message size were counted as 0 B`)
  if (series.nonPositive > 0)
    warnings.push(`${series.nonPositive} time value(s) ≤ 0 or not a number left out: not a measured time`)
  if (sizes.length < 2) warnings.push('one message size only: α is the median time there and β is not resolved')
  if (first.fit.alpha <= 0)
    warnings.push('α ≤ 0: the line does not describe the smallest sizes; read the smallest-size median instead')
  const rng = mulberry32(hashSeed(series.key, opts.seed ?? 1))
  const launches = series.launches?.size ?? 0
  // Hierarchical up to HIER_MAX values (O(n) a replicate); past it, within sizes (O(1) medians).
  const total = lists.reduce((a, l) => a + l.length, 0)
  const per = launches >= 2 && series.launchOf && total <= HIER_MAX ? byLaunch(series, sizes, launches) : undefined
  const oneLaunch = launches === 1 && samples.some((s) => s.length >= 2)
  const boot = oneLaunch
    ? { alphas: [], slopes: [] }
    : bootstrap(points, samples, segs, rng, opts.replicates ?? 200, orderStatMin, per)
  // Under FEW_LAUNCHES a launch resample holds few distinct mixes and its percentile interval is
  // too narrow: the interval is then the wider of it and the within-size one (conservative).
  const few =
    per && launches < FEW_LAUNCHES
      ? bootstrap(points, samples, segs, rng, opts.replicates ?? 200, orderStatMin)
      : undefined
  const lv = opts.level ?? 0.95
  const ci = (v: number[]): [number, number] => {
    const s = sortSample(v)
    return [quantile(s, (1 - lv) / 2), quantile(s, 1 - (1 - lv) / 2)]
  }
  // β's interval from replicate slopes, when most are positive (as for `betas` below).
  const ciOfSlopes = (slopes: number[]): [number, number] | undefined => {
    const b = slopes.filter((x) => x > 0).map((x) => 1 / x)
    return b.length > slopes.length / 2 ? ci(b) : undefined
  }
  if (oneLaunch) warnings.push('one launch: no interval (its iterations share its state)')
  else if (boot.alphas.length === 0) warnings.push('too few points to resample: no interval')
  const fitted = betaOf(last.fit.slope)
  const betas = boot.slopes.filter((s) => s > 0).map((s) => 1 / s)
  const s0 = samples[0] as OrderStats
  const direct = fitted === null && series.bandwidths.length ? bandwidthBeta(series.bandwidths, warnings) : null
  const beta = direct ? direct.beta : fitted
  return {
    alpha: first.fit.alpha,
    alphaCi: boot.alphas.length
      ? wider(ci(boot.alphas), few ? ci(few.alphas) : undefined)
      : [first.fit.alpha, first.fit.alpha],
    launches,
    beta,
    betaCi: direct
      ? direct.ci
      : beta === null
        ? null
        : betas.length > boot.slopes.length / 2
          ? wider(ci(betas), few ? ciOfSlopes(few.slopes) : undefined)
          : [beta, beta],
    segments: segs.map((s) => toSegment(points, s)),
    smallest: {
      sizeBytes: sizes[0] === 0 && series.unsized > 0 ? null : (sizes[0] as number),
      median: s0.quantile(0.5),
      min: s0.at(0),
      n: s0.length,
    },
    sizes: sizes.length,
    n: samples.reduce((a, s) => a + s.length, 0),
    warnings,
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

/** Replicate α (first segment) and slope (last segment) values. */
function bootstrap(
  points: readonly XY[],
  samples: readonly OrderStats[],
  segs: readonly SegmentFit[],
  rng: Rng,
  reps: number,
  orderStatMin: number,
  per?: number[][][],
): { alphas: number[]; slopes: number[] } {
  const stratified = samples.filter((s) => s.length >= 2).length >= Math.max(1, samples.length / 2)
  const alphas: number[] = []
  const slopes: number[] = []
  const fits = segs.map((s) => s.fit)
  if (!stratified && points.length <= 2) return { alphas, slopes }
  const scratch = new Float64Array(
    per
      ? Math.max(...per.map((l) => l.reduce((m, v) => Math.max(m, v.length), 0) * l.length))
      : Math.max(0, ...samples.map((s) => (s.length < orderStatMin ? s.length : 0))),
  )
  const medians = points.map((p) => p.y)
  for (let b = 0; b < reps; b++) {
    const ys = per
      ? resampleLaunches(per, rng, scratch, medians)
      : stratified
        ? resampleWithin(samples, rng, scratch, orderStatMin)
        : resampleResiduals(points, segs, fits, rng)
    const pts = points.map((p, i) => ({ x: p.x, y: ys[i] as number }))
    const f0 = huberLine(pts.slice((segs[0] as SegmentFit).from, (segs[0] as SegmentFit).to + 1))
    const l = segs[segs.length - 1] as SegmentFit
    const fl = segs.length === 1 ? f0 : huberLine(pts.slice(l.from, l.to + 1))
    alphas.push(f0.alpha)
    slopes.push(fl.slope)
  }
  return { alphas, slopes }
}

/**
 * One median per size from a with-replacement resample of that size's samples (sorted).
 * Below `orderStatMin` samples it is drawn into `scratch` value by value and its median taken
 * by selection, not a sort: the same two order statistics and the same interpolation as
 * `medianOf`, so the same number in O(n) instead of O(n log n). From `orderStatMin` on it comes
 * straight from the median's order-statistic distribution (`resampleMedian`, O(1)).
 */
function resampleWithin(
  samples: readonly OrderStats[],
  rng: Rng,
  scratch: Float64Array,
  orderStatMin: number,
): number[] {
  return samples.map((s) => {
    const n = s.length
    if (n >= orderStatMin) return resampleMedian(s, rng)
    for (let i = 0; i < n; i++) scratch[i] = s.at(randInt(rng, n))
    return medianInPlace(scratch, n)
  })
}

/** Each size's values split by launch ([size][launch] → values), from `launchOf` beside `bySize`. */
function byLaunch(series: Series, sizes: readonly number[], launches: number): number[][][] {
  return sizes.map((x) => {
    const out: number[][] = Array.from({ length: launches }, () => [])
    const lanes = series.launchOf?.get(x) ?? []
    for (const [i, v] of (series.bySize.get(x) ?? []).entries()) out[lanes[i] as number]?.push(v)
    return out
  })
}

/**
 * One hierarchical replicate: as many launches as there are, drawn with replacement, then
 * each drawn launch's values drawn with replacement; one median per size (the size's median
 * when no drawn launch measured it).
 */
function resampleLaunches(per: readonly number[][][], rng: Rng, scratch: Float64Array, medians: number[]): number[] {
  const n = per[0]?.length ?? 0
  const drawn = Array.from({ length: n }, () => randInt(rng, n))
  return per.map((launches, k) => {
    let m = 0
    for (const l of drawn) {
      const v = launches[l] as number[]
      for (let j = 0; j < v.length; j++) scratch[m++] = v[randInt(rng, v.length)] as number
    }
    return m ? medianInPlace(scratch, m) : (medians[k] as number)
  })
}

/** `medianOf` (quantile 0.5, Hyndman-Fan 7) of a[0..n), reordering a; NaN when n is 0. */
export function medianInPlace(a: Float64Array, n: number): number {
  if (n === 0) return NaN
  const h = (n - 1) * 0.5
  const lo = Math.floor(h)
  const x = selectRank(a, n, lo)
  if (lo + 1 >= n) return x
  let y = Infinity
  for (let i = lo + 1; i < n; i++) if ((a[i] as number) < y) y = a[i] as number
  return x + (h - lo) * (y - x)
}

/** ŷ·(1 + r*) with r* drawn from the same segment's relative residuals. */
function resampleResiduals(
  points: readonly XY[],
  segs: readonly SegmentFit[],
  fits: readonly LineFit[],
  rng: Rng,
): number[] {
  const out: number[] = []
  segs.forEach((s, k) => {
    const f = fits[k] as LineFit
    const pts = points.slice(s.from, s.to + 1)
    const r = relResiduals(pts, f.alpha, f.slope)
    for (const p of pts) out.push((f.alpha + f.slope * p.x) * (1 + (r[randInt(rng, r.length)] as number)))
  })
  return out
}
