/**
 * The one-line conclusions of `compare`, hyperfine-style: per size band, "tp4 is 1.91 ±
 * 0.04× faster than tp8 at 8 B–32 KiB", with the α–β reason when the ring model explains
 * the ratio. Bands come from each grouping's own floor α (its smallest median time): a size
 * is latency-bound while both times are within 4/3 of their α (α is ≥ 75 % of the time),
 * bandwidth-bound once both are 4 × their α or more (α ≤ 25 %), in transition between.
 * The launch is the unit: each launch's value over the band is the geometric mean of its times
 * at the band's sizes, and the ratio is the geometric mean of the slower's launch values over
 * the faster's, with the Welch t 95 % interval on the logs (as diff's; asymmetric around the
 * ratio). Sizes of one launch share its state, so they are not counted as more evidence.
 * A winner is named only when that interval excludes 1.
 */
import { logRatio, quantile, ratioInterval, sortSample } from '../../stats/index.ts'
import { formatBytes } from '../../units/index.ts'
import type { Conclusion, SizeBand, SizeComparison } from '../_types.ts'

/** Ring steps and bytes each rank moves (× size) for the collectives whose ring model is standard. */
const RING: Record<
  string,
  { steps: (n: number) => number; stepsText: string; bytes: (n: number) => number; bytesText: string }
> = {
  all_reduce: {
    steps: (n) => 2 * (n - 1),
    stepsText: '2(n−1)',
    bytes: (n) => (2 * (n - 1)) / n,
    bytesText: '2(n−1)/n',
  },
  all_gather: { steps: (n) => n - 1, stepsText: 'n−1', bytes: (n) => (n - 1) / n, bytesText: '(n−1)/n' },
  reduce_scatter: { steps: (n) => n - 1, stepsText: 'n−1', bytes: (n) => (n - 1) / n, bytesText: '(n−1)/n' },
}

const medianOf = (v: readonly number[]): number => quantile(sortSample(v), 0.5)

/** Latency-, transition- or bandwidth-bound, from both groupings' time over their own floor. */
function bandOf(tf: number, af: number, ts: number, as: number): SizeBand {
  if (tf <= (4 / 3) * af && ts <= (4 / 3) * as) return 'latency'
  if (tf >= 4 * af && ts >= 4 * as) return 'bandwidth'
  return 'transition'
}

/** Conclusions for one bench: the fastest grouping against each other one, band by band. */
export function conclusions(bench: string, sizes: readonly SizeComparison[], ranks: Map<string, number>): Conclusion[] {
  const names = [...new Set(sizes.flatMap((z) => z.groupings.map((g) => g.grouping)))]
  if (names.length < 2) return []
  // Order by the median over sizes of log time: the overall fastest first.
  const score = (g: string): number =>
    medianOf(sizes.flatMap((z) => z.groupings.filter((x) => x.grouping === g).map((x) => Math.log(x.median))))
  const [fast, ...others] = names.sort((a, b) => score(a) - score(b)) as [string, ...string[]]
  return others.flatMap((other) => pairConclusions(bench, sizes, fast, other, ranks))
}

function pairConclusions(
  bench: string,
  sizes: readonly SizeComparison[],
  fast: string,
  slow: string,
  ranks: Map<string, number>,
): Conclusion[] {
  const both = sizes
    .map((z) => ({
      size: z.sizeBytes,
      f: z.groupings.find((g) => g.grouping === fast),
      s: z.groupings.find((g) => g.grouping === slow),
    }))
    .filter((x) => x.f && x.s) as {
    size: number
    f: SizeComparison['groupings'][number]
    s: SizeComparison['groupings'][number]
  }[]
  if (both.length === 0) return []
  const af = Math.min(...both.map((x) => x.f.median))
  const as = Math.min(...both.map((x) => x.s.median))
  const bands: { band: SizeBand; points: typeof both }[] = []
  for (const x of both) {
    const band = bandOf(x.f.median, af, x.s.median, as)
    const last = bands[bands.length - 1]
    if (last && last.band === band) last.points.push(x)
    else bands.push({ band, points: [x] })
  }
  return bands.map(({ band, points }) =>
    conclude(
      bench,
      band,
      points[0]!.size,
      points[points.length - 1]!.size,
      points.length,
      [bandLaunches(points.map((p) => p.f.values)), bandLaunches(points.map((p) => p.s.values))],
      fast,
      slow,
      ranks,
    ),
  )
}

/**
 * One value per launch over a band: the geometric mean of that launch's times at the band's
 * sizes (launch i is the i-th value of every size; launches missing a size are left out).
 */
export function bandLaunches(perSize: readonly (readonly number[])[]): number[] {
  const n = Math.min(...perSize.map((v) => v.length))
  return Array.from({ length: Number.isFinite(n) ? n : 0 }, (_, i) =>
    Math.exp(perSize.reduce((s, v) => s + Math.log(v[i] as number), 0) / perSize.length),
  )
}

/** "± 0.04" when the interval is symmetric at two decimals, else " [1.10, 1.25]" (a ratio's usually is not). */
export function ratioCiText(ratio: number, lo: number, hi: number): string {
  const [down, up] = [(ratio - lo).toFixed(2), (hi - ratio).toFixed(2)]
  return down === up ? ` ± ${up}` : ` [${lo.toFixed(2)}, ${hi.toFixed(2)}]`
}

function conclude(
  bench: string,
  band: SizeBand,
  fromBytes: number,
  toBytes: number,
  n: number,
  [fastLaunches, slowLaunches]: [number[], number[]],
  fast: string,
  slow: string,
  ranks: Map<string, number>,
): Conclusion {
  const fit = logRatio(fastLaunches, slowLaunches)
  const launches = Math.min(fastLaunches.length, slowLaunches.length)
  let ratio = fit ? fit.ratio : bandRatio(fastLaunches, slowLaunches)
  let [lo, hi] = fit ? ratioInterval(fit, 0.95) : [-Infinity, Infinity]
  let [faster, slower] = [fast, slow]
  if (ratio < 1) {
    ;[faster, slower, ratio, lo, hi] = [slow, fast, 1 / ratio, 1 / hi, 1 / lo]
  }
  const bounded = Number.isFinite(lo) && Number.isFinite(hi)
  const pm = bounded ? Math.max(ratio - lo, hi - ratio) : null
  const clear = bounded && lo > 1
  const range = fromBytes === toBytes ? formatBytes(fromBytes) : `${formatBytes(fromBytes)}–${formatBytes(toBytes)}`
  const reason = clear ? alphaBetaReason(bench, band, ratio, ranks.get(faster), ranks.get(slower)) : null
  const where = `at ${range} (${band === 'transition' ? 'between latency- and bandwidth-bound' : `${band}-bound`})`
  let text: string
  if (clear) text = `${faster} is ${ratio.toFixed(2)}${ratioCiText(ratio, lo, hi)}× faster than ${slower} ${where}`
  else if (bounded)
    text =
      `${faster} and ${slower} take the same time within the noise ${where}: ratio ` +
      `${ratio.toFixed(2)}, 95% CI [${lo.toFixed(2)}, ${hi.toFixed(2)}] over ${launches} launches`
  else
    text =
      `${faster} is ${ratio.toFixed(2)}× faster than ${slower} ${where}, but ` +
      `${launches === 1 ? 'one launch: no interval' : `${launches} launches give no 95% interval (need 2 a side)`}`
  if (reason) text += `: ${reason}`
  return {
    faster,
    slower,
    band,
    fromBytes,
    toBytes,
    sizes: n,
    pairs: launches,
    ratio,
    ci: [bounded ? lo : null, bounded ? hi : null],
    pm,
    clear,
    reason,
    text,
  }
}

/** The ratio of the medians when no interval can be had (fewer than two launches a side). */
function bandRatio(fast: readonly number[], slow: readonly number[]): number {
  if (fast.length === 0 || slow.length === 0) return Number.NaN
  return quantile(sortSample(slow), 0.5) / quantile(sortSample(fast), 0.5)
}

/** The α–β reading of a ratio, when the ring model of the collective accounts for it; else null. */
function alphaBetaReason(
  bench: string,
  band: SizeBand,
  ratio: number,
  nFast: number | undefined,
  nSlow: number | undefined,
): string | null {
  const ring = RING[bench.replace(/^nccl\./, '')]
  if (!ring || nFast === undefined || nSlow === undefined || !(nSlow > nFast)) return null
  if (band === 'latency') {
    const r = ring.steps(nSlow) / ring.steps(nFast)
    if (!(ratio > 1 && ratio <= r * 1.1)) return null
    return (
      `time ≈ α here, and a ring ${bench.slice(5)} takes ${ring.stepsText} steps, ` +
      `${ring.steps(nSlow)} at ${nSlow} ranks vs ${ring.steps(nFast)} at ${nFast} (` +
      `${r.toFixed(2)}×; the fixed cost of a call makes the measured ratio smaller)`
    )
  }
  if (band === 'bandwidth') {
    const r = ring.bytes(nSlow) / ring.bytes(nFast)
    if (!(Math.abs(Math.log(ratio / r)) <= Math.log(1.15))) return null
    return (
      `time ≈ bytes/β here, and each rank moves ${ring.bytesText} × the message, ` +
      `${ring.bytes(nSlow).toFixed(2)}× at ${nSlow} ranks vs ${ring.bytes(nFast).toFixed(2)}× at ` +
      `${nFast} (${r.toFixed(2)}×)`
    )
  }
  return null
}
