/**
 * Adaptive repetition (`gpucomm sweep --target-ci PCT`): a point is launched again until
 * every measured cell of it has a 95 % CI of the median (distribution-free, from order
 * statistics: stats `medianCI`) whose half-width is within PCT % of the median, bounded by
 * the minimum and maximum number of trials. Cells are the point's measured values per
 * bench, metric, size, pair/group and placement; derived bandwidths (algbw, busbw) and
 * `#wrong` counts are left out: they follow the times, and their printed rounding would
 * make a relative width meaningless at small sizes.
 */
import type { Row } from '../model/index.ts'
import { medianCI, medianOf, sortSample } from '../stats/index.ts'
import type { AdaptiveSpec, Point } from '../sweep/index.ts'

/** Where a point's configuration stands. */
export interface AdaptiveState {
  /** Trials that ended ok so far. */
  trials: number
  /** The widest CI half-width among the cells, in percent of the median (Infinity: too few trials). */
  worstPct: number
}

const MEASURED = new Set(['time', 'latency', 'bandwidth'])

/** The configuration a point repeats (its id without the `~tN` trial suffix). */
export const configOf = (pointId: string): string => pointId.replace(/~t\d+$/, '')

/** A cell of a point's rows: everything that tells values apart except trial and source. */
export function adaptiveCell(r: Row): string | undefined {
  if (!MEASURED.has(r.metric)) return undefined
  return [
    r.bench,
    r.metric,
    r.sizeBytes,
    r.src,
    r.dst,
    r.group,
    r.ranks,
    r.placement,
    r.p2p,
    r.timer,
    r.copy,
    r.direction,
    r.dtype,
    r.redop,
    r.root,
    r.host,
  ].join('|')
}

/**
 * Half-width of the 95 % CI of the median of `values`, in percent of the median:
 * Infinity while the sample is too small for a finite interval (n < 6), 0 for a CI of
 * zero width (also at a median of 0).
 */
export function ciHalfWidthPct(values: readonly number[], level = 0.95): number {
  const s = sortSample(values)
  const [lo, hi] = medianCI(s, level)
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return Infinity
  const half = (hi - lo) / 2
  if (half === 0) return 0
  const m = Math.abs(medianOf(s))
  return m === 0 ? Infinity : (100 * half) / m
}

/** The widest CI half-width (percent) over the cells; Infinity when a cell is too small, 0 for none. */
export function worstHalfWidthPct(cells: Iterable<readonly number[]>): number {
  let worst = 0
  for (const v of cells) worst = Math.max(worst, ciHalfWidthPct(v))
  return worst
}

/**
 * The stopping rule: stop after `trials` ok trials when the widest half-width is within
 * the target and the minimum is met, or when the maximum is reached.
 */
export function shouldStop(s: AdaptiveSpec, trials: number, worstPct: number): boolean {
  return trials >= s.maxTrials || (trials >= s.minTrials && worstPct <= s.targetCiPct)
}

interface Config {
  trials: Set<number>
  cells: Map<string, number[]>
}

/** Collects the values of every configuration's cells and answers whether to launch again. */
export class AdaptiveTracker {
  private readonly configs = new Map<string, Config>()

  constructor(readonly settings: AdaptiveSpec) {}

  /** Adds the rows of one ok trial of `point` (or, on resume, any rows that carry a point id). */
  add(rows: readonly Row[]): void {
    for (const r of rows) {
      if (r.point === undefined) continue
      const c = this.config(configOf(r.point))
      c.trials.add(r.trial)
      const key = adaptiveCell(r)
      if (key === undefined) continue
      const v = c.cells.get(key)
      if (v) v.push(r.value)
      else c.cells.set(key, [r.value])
    }
  }

  /** Where the configuration of `pointId` stands. */
  state(pointId: string): AdaptiveState {
    const c = this.config(configOf(pointId))
    return { trials: c.trials.size, worstPct: worstHalfWidthPct(c.cells.values()) }
  }

  /** Why `point` need not run (its configuration is done), or undefined when it should run. */
  skipReason(point: Point): string | undefined {
    const s = this.state(point.id)
    if (!shouldStop(this.settings, s.trials, s.worstPct)) return undefined
    const pct = `±${s.worstPct.toFixed(2)} %`
    if (s.worstPct <= this.settings.targetCiPct)
      return `target CI reached: median CI ${pct} ≤ ±${this.settings.targetCiPct} % after ${s.trials} trials`
    return `max trials (${this.settings.maxTrials}) reached; widest median CI ${pct}`
  }

  /** Per configuration: trials, widest half-width and whether the target was met (for the manifest). */
  summary(): Record<string, { trials: number; worstCiPct: number | null; reached: boolean }> {
    const out: Record<string, { trials: number; worstCiPct: number | null; reached: boolean }> = {}
    for (const [k, c] of this.configs) {
      const w = worstHalfWidthPct(c.cells.values())
      out[k] = {
        trials: c.trials.size,
        worstCiPct: Number.isFinite(w) ? Number(w.toFixed(3)) : null,
        reached: w <= this.settings.targetCiPct && c.trials.size >= this.settings.minTrials,
      }
    }
    return out
  }

  private config(k: string): Config {
    let c = this.configs.get(k)
    if (!c) this.configs.set(k, (c = { trials: new Set(), cells: new Map() }))
    return c
  }
}
