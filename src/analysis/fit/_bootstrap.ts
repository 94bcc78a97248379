/**
 * The bootstrap of an α–β fit (fitSeries, _alphabeta.ts): replicate α (first segment) and
 * slope (last segment) values with the breakpoints held fixed, drawn hierarchically over
 * launches, within each size, or from the line's relative residuals.
 */

import type { Uniform as Rng } from '../../random/index.ts'
import { hashSeed, mulberry32, randInt } from '../../random/index.ts'
import type { OrderStats } from '../../stats/index.ts'
import { selectRank } from '../../stats/index.ts'
import type { LineFit, SegmentFit, XY } from './_fit.ts'
import { huberLine, relResiduals } from './_fit.ts'
import { resampleMedian } from './_resample-median.ts'
import type { Series } from './_series.ts'

/** The most values a series may hold for the launch-level (hierarchical) bootstrap. */
export const HIER_MAX = 200_000

/** Below this many launches the launch-level interval is widened to hold the within-size one too. */
export const FEW_LAUNCHES = 6

/** Replicate α and slope values. */
export interface Replicates {
  alphas: number[]
  slopes: number[]
}

/** A series' replicates and how they were drawn. */
export interface Resampled {
  /** Launches the values came from (0: not known). */
  launches: number
  /** One launch of several iterations: no replicates (its iterations share its state). */
  oneLaunch: boolean
  boot: Replicates
  /** Under FEW_LAUNCHES launches, the within-size replicates too: the interval is the wider of both. */
  few?: Replicates
}

/**
 * The replicates of one series' fit, seeded by its key. Hierarchical up to HIER_MAX values
 * (O(n) a replicate); past it, within sizes (O(1) medians). Under FEW_LAUNCHES a launch
 * resample holds few distinct mixes and its percentile interval is too narrow, so the
 * within-size replicates are drawn too (conservative).
 */
export function resampleFit(
  series: Series,
  points: readonly XY[],
  samples: readonly OrderStats[],
  segs: readonly SegmentFit[],
  reps: number,
  seed: number,
  orderStatMin: number,
): Resampled {
  const rng = mulberry32(hashSeed(series.key, seed))
  const sizes = points.map((p) => p.x)
  const launches = series.launches?.size ?? 0
  const total = sizes.reduce((a, x) => a + (series.bySize.get(x)?.length ?? 0), 0)
  const per = launches >= 2 && series.launchOf && total <= HIER_MAX ? byLaunch(series, sizes, launches) : undefined
  const oneLaunch = launches === 1 && samples.some((s) => s.length >= 2)
  const boot = oneLaunch ? { alphas: [], slopes: [] } : bootstrap(points, samples, segs, rng, reps, orderStatMin, per)
  const few = per && launches < FEW_LAUNCHES ? bootstrap(points, samples, segs, rng, reps, orderStatMin) : undefined
  return { launches, oneLaunch, boot, ...(few ? { few } : {}) }
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
