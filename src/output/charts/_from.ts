/**
 * Adapters: a result set's rows and its analysis or comparison → named chart specs (a diff's
 * are in _from-diff.ts, the pair heatmaps' in _from-heatmap.ts). Pure: callers load and analyze; these only choose what to draw.
 */
import type { TopLevelSpec } from 'vega-lite'
import type { Analysis, Band, Comparison, Fit, Series } from '../../analysis/index.ts'
import { BAND_TOLERANCE, bandById, buildSeries, statedBand } from '../../analysis/index.ts'
import type { Row } from '../../model/index.ts'
import { medianOf, sortSample, summarize } from '../../stats/index.ts'
import type { ChartContext } from './_common.ts'
import { measuredAs, p2pState } from './_common.ts'
import { groupsChart } from './_groups.ts'
import type { BandShade, FloorRule, SizePoint } from './_latency.ts'
import { bandwidthChart, latencyChart } from './_latency.ts'

/** A chart with a file-safe name, a title and one sentence on what it shows. */
export interface NamedChart {
  name: string
  /** The chart kind's id (report/kinds). */
  kind: string
  title: string
  caption: string
  spec: TopLevelSpec
}

/** True when the series is the one the fit was made from (same identity fields). */
function sameSeries(s: Series, f: Fit): boolean {
  return Object.entries(s.id).every(
    ([k, v]) => JSON.stringify((f as unknown as Record<string, unknown>)[k]) === JSON.stringify(v),
  )
}

function shade(b: Band): BandShade {
  return { label: b.label, low: b.low, high: b.high, source: b.source.split(/[ ,(]/)[0] ?? b.source }
}

/** An arm's words: its NCCL env and host-axis values ("NCCL_P2P_DISABLE=1"), "" for none. */
const armWords = (env?: Record<string, string> | null, host?: Record<string, string> | null): string =>
  [...Object.entries(env ?? {}), ...Object.entries(host ?? {})].map(([k, v]) => ` ${k}=${v}`).join('')

/**
 * The series a fit is drawn in: its link class (pairs), the same GPU, or its grouping
 * (collectives), each arm (env, host-axis values) its own: arms are never pooled into one line.
 */
function classOf(f: Fit): string {
  const arm = armWords(f.env, f.hostAxis)
  if (f.src !== undefined && f.dst !== undefined)
    return `${f.src === f.dst ? 'same GPU' : (f.linkClass ?? 'GPU pairs')}${arm}`
  return `${f.grouping ?? (f.ranks !== undefined ? `${f.ranks} ranks` : 'groups')}${arm}`
}

/** P2P was asked for but no pair between two GPUs had peer access: the copies were host-staged. */
export function noPeerAccess(fits: readonly Fit[]): boolean {
  const cross = fits.filter((f) => f.src !== undefined && f.dst !== undefined && f.src !== f.dst)
  return fits[0]?.p2p === 'enabled' && cross.length > 0 && cross.every((f) => f.peerAccess === false)
}

const med = (v: readonly number[]): number => medianOf(sortSample(v))

/** "3 points at 0 B … left off": why a log axis does not show every row. */
const zeroNote = (n: number): string | undefined =>
  n ? `${n} size${n === 1 ? '' : 's'} printed as 0 B (count below the rank count) left off the log axis` : undefined

/**
 * Latency vs size per bench, P2P state and copy kind: per link class (or grouping) the median
 * across its pairs (groups) with their spread, each class's floor α as a labelled rule, and the
 * expectation bands the floors fall in.
 */
export function latencyCharts(rows: Iterable<Row>, analysis: Analysis, ctx: ChartContext): NamedChart[] {
  const series = buildSeries(rows)
  const groups = new Map<string, Fit[]>()
  for (const f of analysis.fits) {
    const k = `${f.bench}|${p2pState(f) ?? ''}|${f.copy ?? ''}`
    groups.set(k, [...(groups.get(k) ?? []), f])
  }
  const out: NamedChart[] = []
  for (const [k, fits] of groups) {
    const { classes, zero } = classesOf(fits, series)
    // A latency-vs-size chart needs sizes: p2pBandwidthLatencyTest's one 16 B copy is a heatmap instead.
    const drawn = [...classes].filter(([, c]) => c.bySize.size >= 2)
    if (drawn.length === 0) continue
    const [bench, p2p, copy] = k.split('|') as [string, string, string]
    const unit = bench.startsWith('p2p.') ? 'pair' : 'group'
    const { points, floors } = classLines(drawn, unit)
    // Per drawn class the one band the report's summary states for the same fits and floor
    // (statedBand), when the floor lies in it (± BAND_TOLERANCE) or, compared at stated sizes,
    // the fitted times there do: one band, one source.
    const ids = drawn
      .map(([, c]) => statedBand(c.fits, med(c.alphas))?.band)
      .filter((b) => b && b.position !== 'outside')
    const bands = [...new Set(ids.map((b) => b?.id))]
      .map((id) => bandById(id as string))
      .filter((b): b is Band => b !== undefined)
      .slice(0, 5)
      .map(shade)
    const key = `${bench}${p2p ? ` p2p=${p2p}` : ''}${copy ? ` ${copy}` : ''}`
    const how = measuredAs(p2p || null, noPeerAccess(fits), copy || null)
    const what = `${bench}${how ? `, ${how}` : ''}`
    out.push({
      name: `latency-${key.replace(/[^\w]+/g, '-').replace(/-+$/, '')}`,
      kind: 'latency',
      title: `Latency vs size: ${what}`,
      caption: latencyCaption(unit, bands.length > 0),
      spec: latencyChart(points, floors, bands, ctx, what, zeroNote(zero)),
    })
  }
  return out
}

interface SizeClass {
  members: number
  fits: Fit[]
  alphas: number[]
  bySize: Map<number, number[]>
}

/** The fits' link classes (groupings): members, floors, per-size medians; `zero`: sizes printed as 0 B. */
function classesOf(fits: readonly Fit[], series: readonly Series[]): { classes: Map<string, SizeClass>; zero: number } {
  const classes = new Map<string, SizeClass>()
  let zero = 0
  for (const f of fits) {
    const s = series.find((x) => sameSeries(x, f))
    if (!s) continue
    const name = classOf(f)
    const c = classes.get(name) ?? { members: 0, fits: [], alphas: [], bySize: new Map<number, number[]>() }
    classes.set(name, c)
    c.members++
    c.fits.push(f)
    c.alphas.push(f.alpha)
    for (const [z, samples] of s.bySize) {
      if (z <= 0) {
        zero++
        continue
      }
      c.bySize.set(z, [...(c.bySize.get(z) ?? []), med(samples)])
    }
  }
  return { classes, zero }
}

/** Each class's line (median per size, lowest to highest member) and its floor rule. */
function classLines(drawn: [string, SizeClass][], unit: string): { points: SizePoint[]; floors: FloorRule[] } {
  const label = (name: string, n: number): string =>
    `${name} (${n} ${name.startsWith('same GPU') ? 'GPU' : unit}${n === 1 ? '' : 's'})`
  const points: SizePoint[] = []
  const floors: FloorRule[] = []
  for (const [name, c] of drawn) {
    const series = label(name, c.members)
    for (const z of [...c.bySize.keys()].sort((a, b) => a - b)) {
      const m = c.bySize.get(z) as number[]
      points.push({
        series,
        sizeBytes: z,
        value: med(m),
        ...(m.length > 1 ? { lo: Math.min(...m), hi: Math.max(...m) } : {}),
      })
    }
    floors.push({ series, alpha: med(c.alphas) })
  }
  return { points, floors }
}

const latencyCaption = (unit: string, banded: boolean): string =>
  `Median time per size across the ${unit}s of each ` +
  `${unit === 'pair' ? 'link class' : 'grouping'} (line), the lowest to highest ` +
  `${unit} median (shaded), each floor α (dotted, labelled)` +
  (banded
    ? ', and per line the published expectation band its floor is stated against (the one the summary ' +
      `and the floors table name), when the floor (or, for a band given at stated sizes, the fitted ` +
      `time there) is within ± ${BAND_TOLERANCE * 100} % of it (shaded or, for a single published value, a dashed rule).`
    : '; no published expectation band holds these floors.')

/** Bus bandwidth vs size per collective, one line per grouping (nccl-tests' main figure), out-of-place. */
export function busbwCharts(rows: Iterable<Row>, ctx: ChartContext): NamedChart[] {
  const c = busbwCollector()
  for (const r of rows) c.add(r)
  return c.charts(ctx)
}

/**
 * busbwCharts a row at a time, for rows streamed from disk: `add` keeps the values of busbw
 * rows (and the source line of each printed as 0 B, which rows replayed without their lines
 * would miscount), `charts` draws them.
 */
export function busbwCollector(): { add(r: Row): void; charts(ctx: ChartContext): NamedChart[] } {
  const benches = new Map<string, Map<string, Map<number, number[]>>>()
  const zero = new Map<string, Set<string>>()
  const add = (r: Row): void => {
    if (r.metric !== 'busbw' || r.placement === 'in-place') return
    const name = `${r.grouping ?? (r.ranks !== null ? `${r.ranks} ranks` : 'groups')}${armWords(r.env, r.hostAxis)}`
    if (!(r.sizeBytes && r.sizeBytes > 0)) {
      zero.set(r.bench, (zero.get(r.bench) ?? new Set()).add(`${name}|${r.source.file}|${r.source.line}`))
      return
    }
    const b = benches.get(r.bench) ?? new Map<string, Map<number, number[]>>()
    benches.set(r.bench, b)
    const s = b.get(name) ?? new Map<number, number[]>()
    b.set(name, s)
    const v = s.get(r.sizeBytes)
    if (v) v.push(r.value)
    else s.set(r.sizeBytes, [r.value])
  }
  return { add, charts: (ctx) => drawBusbw(benches, zero, ctx) }
}

function drawBusbw(
  benches: Map<string, Map<string, Map<number, number[]>>>,
  zero: Map<string, Set<string>>,
  ctx: ChartContext,
): NamedChart[] {
  const out: NamedChart[] = []
  for (const [bench, byName] of benches) {
    const points: SizePoint[] = []
    for (const [name, bySize] of byName)
      for (const z of [...bySize.keys()].sort((a, b) => a - b)) {
        const s = summarize(bySize.get(z) as number[])
        const ok = (v: number | undefined): v is number => v !== undefined && Number.isFinite(v)
        points.push({
          series: name,
          sizeBytes: z,
          value: s.median,
          ...(ok(s.ci[0]) && ok(s.ci[1]) ? { lo: s.ci[0], hi: s.ci[1] } : {}),
        })
      }
    if (points.length < 2) continue
    const what = `${bench} busbw`
    out.push({
      name: `busbw-${bench.replace(/[^\w]+/g, '-')}`,
      kind: 'busbw',
      title: `Bus bandwidth vs size: ${bench}`,
      caption:
        `Median bus bandwidth per size for each grouping (out-of-place), shaded between the 95% CI ` +
        `of the median; busbw is nccl-tests' algbw × its per-collective factor, comparable across ` +
        `rank counts.`,
      spec: bandwidthChart(points, [], ctx, what, zeroNote(zero.get(bench)?.size ?? 0)),
    })
  }
  return out
}

/** Grouping comparison (TP8 vs TP4, …) per size with CIs, one chart per bench. */
export function groupsCharts(cmp: Comparison, ctx: ChartContext): NamedChart[] {
  return cmp.benches
    .filter((b) => b.groupings.length > 1)
    .map((b) => ({
      name: `groups-${b.bench.replace(/[^\w]+/g, '-')}`,
      kind: 'groups' as const,
      title: `${b.bench} by ${cmp.by}`,
      caption: `Median ${b.bench} time per size for each ${cmp.by}, with 95% CI bars; lower is better.`,
      spec: groupsChart(
        b.sizes.flatMap((s) =>
          s.groupings.map((g) => ({
            grouping: g.grouping,
            sizeBytes: s.sizeBytes,
            median: g.median,
            lo: g.ci[0] ?? g.median,
            hi: g.ci[1] ?? g.median,
          })),
        ),
        ctx,
        `${b.bench} time`,
      ),
    }))
}
