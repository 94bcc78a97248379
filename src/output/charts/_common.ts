import type { TopLevelSpec } from 'vega-lite'
import { simLabel } from '../../model/index.ts'

/** Inputs every chart shares. */
export interface ChartContext {
  /** Labels every title SIMULATED when the data came from the simulator. */
  simulated: boolean
  /** The simulator's known shift (`--sim-scale`), said in every title beside SIMULATED. */
  simScale?: number
  /** Short name of the result set or host, shown in the subtitle. */
  subject?: string
}

/** The chart title, always saying SIMULATED for simulated data. */
export function chartTitle(text: string, ctx: ChartContext): { text: string; subtitle?: string } {
  const t = ctx.simulated ? `${simLabel(ctx)}: ${text}` : text
  return ctx.subject ? { text: t, subtitle: ctx.subject } : { text: t }
}

/** A chart's plot height in pixels unless it says otherwise. */
export const PLOT_HEIGHT = 340

/** Common top-level settings (schema, background, font sizes). */
export function base(width = 560, height = PLOT_HEIGHT): Partial<TopLevelSpec> & { $schema: string } {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    background: 'white',
    width,
    height,
    config: {
      axis: { labelFontSize: 11, titleFontSize: 12 },
      legend: { labelFontSize: 11, titleFontSize: 12, labelLimit: 320 },
      title: { fontSize: 15, subtitleFontSize: 11 },
    },
  } as Partial<TopLevelSpec> & { $schema: string }
}

/** Rounds for specs (golden files stay stable): 4 significant digits. */
export const r4 = (v: number): number => (v === 0 || !Number.isFinite(v) ? v : Number(v.toPrecision(4)))

/** A series' P2P state for chart keys: `bounce` (P2P off, staged by the bench itself) apart from the driver's `disabled`. */
export const p2pState = (f: { p2p: 'enabled' | 'disabled' | null; staging?: 'bounce' }): string | null =>
  f.staging ?? f.p2p

/**
 * What a P2P state measured, in words for titles and legends: "P2P on (peer access)",
 * "host-staged (no peer access)" when P2P was asked for but no pair could have it, "host-staged
 * (P2P off)", "host-staged by the bench (P2P off)"; with the copy kind when there is one.
 */
export function measuredAs(state: string | null, noPeerAccess: boolean, copy?: string | null): string {
  const how =
    state === 'enabled'
      ? noPeerAccess
        ? 'host-staged (no peer access)'
        : 'P2P on (peer access)'
      : state === 'disabled'
        ? 'host-staged (P2P off)'
        : state === 'bounce'
          ? 'host-staged by the bench (P2P off)'
          : (state ?? '')
  const by = copy === 'ce' ? 'copy-engine copies' : copy === 'sm' ? 'SM-kernel copies' : (copy ?? '')
  return [how, by].filter(Boolean).join(', ')
}

/**
 * A log scale fitted to the values drawn (no "nice" rounding to the next power of ten, so a
 * chart whose data stop at 1,500 µs does not run to 10,000): the extremes with a 15 % margin.
 * Over a decade or more each end moves to the next 1-2-5 value when that is at most 1.5× away.
 */
export function fittedLog(values: readonly number[]): { type: 'log'; domain: [number, number]; nice: false } {
  const pos = values.filter((v) => Number.isFinite(v) && v > 0)
  const lo = pos.length ? Math.min(...pos) : 1
  const hi = pos.length ? Math.max(...pos) : 10
  // Ends on a labelled 1-2-5 value only over a decade or more: a narrow range stays narrow.
  const wide = hi / lo >= 10
  return {
    type: 'log',
    domain: wide ? [snap(lo / 1.15, -1), snap(hi * 1.15, 1)] : [r4(lo / 1.15), r4(hi * 1.15)],
    nice: false,
  }
}

/**
 * `v` moved to the next 1-2-5 value (down for dir -1, up for +1) when that is at most 1.5× away,
 * so an axis whose data start at 14 µs begins at a labelled 10 rather than an unlabelled 12.2.
 */
function snap(v: number, dir: -1 | 1): number {
  const e = Math.floor(Math.log10(v))
  const steps = [1, 2, 5, 10, 20].map((m) => Number((m * 10 ** (e - 1 + (dir > 0 ? 1 : 0))).toPrecision(6)))
  const near = dir < 0 ? steps.filter((s) => s <= v).pop() : steps.find((s) => s >= v)
  return near !== undefined && (dir < 0 ? v / near : near / v) <= 1.5 ? near : r4(v)
}

/**
 * A colour domain for a heatmap that spans at least ±`minSpan` of the median (default 10 %),
 * so pairs that differ by noise (13.56–13.88 µs) share a colour while a pair 20 % off stands
 * out; wider spreads keep their own range.
 */
export function spanDomain(values: readonly number[], minSpan = 0.1): [number, number] {
  const v = values.filter(Number.isFinite).sort((a, b) => a - b)
  if (v.length === 0) return [0, 1]
  const mid = v[Math.floor(v.length / 2)] as number
  const lo = Math.min(v[0] as number, mid * (1 - minSpan))
  const hi = Math.max(v[v.length - 1] as number, mid * (1 + minSpan))
  return [r4(lo), r4(hi === lo ? lo * 1.01 + 1e-12 : hi)]
}

/** Mantissas of log ticks, densest first, with the smallest gap between neighbours in decades. */
const MANTISSAS: readonly (readonly number[])[] = [[1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 5, 7], [1, 2, 5], [1]]
const gapOf = (m: readonly number[]): number => Math.min(...m.map((v, i) => Math.log10((m[i + 1] ?? 10) / v)))

/**
 * A log axis labelled at every decade the domain spans and at 2 and 5 (or more) between them
 * where labels `fontSize` high fit `heightPx` without touching: 0.1, 0.2, 0.5, 1, … 1,000 µs,
 * not vega's default, which thins a log axis's labels to a few and can leave the P2P floors
 * (0.4 µs) unlabelled. Over less than about one decade vega's own ticks are kept (undefined).
 */
export function logAxis(domain: readonly [number, number], heightPx: number, fontSize = 11) {
  const [lo, hi] = domain
  if (!(lo > 0 && hi > lo)) return undefined
  const perDecade = heightPx / Math.log10(hi / lo)
  const room = fontSize * 1.6
  const mantissas = MANTISSAS.find((m) => gapOf(m) * perDecade >= room) ?? [1]
  const every = Math.max(1, Math.ceil(room / perDecade))
  const values: number[] = []
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
    if (e % every !== 0) continue
    for (const m of mantissas) {
      const v = Number((m * 10 ** e).toPrecision(6))
      if (v >= lo && v <= hi) values.push(v)
    }
  }
  if (values.length < 3) return undefined
  return { values, format: ',~g', labelOverlap: false as const }
}
