/**
 * Adapters: a result set's rows and its analysis, comparison or diff → named chart specs.
 * Pure: callers load and analyze; these only choose what to draw.
 */
import type { TopLevelSpec } from 'vega-lite'
import type { Analysis, Band, Comparison, Fit, Series } from '../analysis/index.ts'
import { bandById, buildSeries } from '../analysis/index.ts'
import type { DiffResult } from '../diff/index.ts'
import type { Row } from '../model/index.ts'
import { summarize } from '../stats/index.ts'
import { formatBytes } from '../units/index.ts'
import type { ChartContext } from './_common.ts'
import { diffChart } from './_diff.ts'
import { groupsChart } from './_groups.ts'
import { heatmapChart } from './_heatmap.ts'
import type { BandShade, FitLine, SizePoint } from './_latency.ts'
import { latencyChart } from './_latency.ts'

/** A chart with a file-safe name, a title and one sentence on what it shows. */
export interface NamedChart {
  name: string
  /** The chart kind's id (report/kinds). */
  kind: string
  title: string
  caption: string
  spec: TopLevelSpec
}

/** The most series one latency chart draws; more are thinned to the fastest, median and slowest. */
const MAX_SERIES = 6

const label = (f: Pick<Fit, 'src' | 'dst' | 'group' | 'ranks' | 'grouping'>): string =>
  f.src !== undefined && f.dst !== undefined
    ? `GPU${f.src}→GPU${f.dst}`
    : f.group
      ? `group ${f.group}${f.grouping ? ` (${f.grouping})` : ''}`
      : `${f.ranks ?? '?'} ranks${f.grouping ? ` (${f.grouping})` : ''}`

/** True when the series is the one the fit was made from (same identity fields). */
function sameSeries(s: Series, f: Fit): boolean {
  return Object.entries(s.id).every(
    ([k, v]) => JSON.stringify((f as unknown as Record<string, unknown>)[k]) === JSON.stringify(v),
  )
}

function thin(fits: Fit[]): Fit[] {
  if (fits.length <= MAX_SERIES) return fits
  const s = fits.slice().sort((a, b) => a.alpha - b.alpha)
  const pick = [0, 1, s.length >> 1, s.length - 2, s.length - 1].map((i) => s[i] as Fit)
  return [...new Set(pick)]
}

function shade(b: Band): BandShade {
  return { label: b.label, low: b.low, high: b.high, source: b.source.split(/[ ,(]/)[0] ?? b.source }
}

/** Latency vs size per bench and P2P state, with the α–β fits, floors and the bands they fall in. */
export function latencyCharts(rows: readonly Row[], analysis: Analysis, ctx: ChartContext): NamedChart[] {
  const series = buildSeries(rows)
  const groups = new Map<string, Fit[]>()
  for (const f of analysis.fits) {
    if (f.src !== undefined && f.src === f.dst) continue // same-GPU copies get their own band, not this chart
    const k = `${f.bench}|${f.p2p ?? ''}|${f.copy ?? ''}`
    groups.set(k, [...(groups.get(k) ?? []), f])
  }
  const out: NamedChart[] = []
  const sized = (f: Fit): number => {
    const s = series.find((x) => sameSeries(x, f))
    return s ? [...s.bySize.keys()].filter((z) => z > 0).length : 0
  }
  for (const [k, all] of groups) {
    // A latency-vs-size chart needs sizes: p2pBandwidthLatencyTest's one 16 B copy is a heatmap instead.
    const fits = all.filter((f) => sized(f) >= 2)
    if (fits.length === 0) continue
    const [bench, p2p, copy] = k.split('|') as [string, string, string]
    const shown = thin(fits)
    const points: SizePoint[] = []
    const lines: FitLine[] = []
    for (const f of shown) {
      const s = series.find((x) => sameSeries(x, f))
      const sizes = s ? [...s.bySize.keys()].filter((z) => z > 0).sort((a, b) => a - b) : []
      for (const z of sizes) {
        const sum = summarize((s?.bySize.get(z) ?? []).map((v) => v.value))
        points.push({
          series: label(f),
          sizeBytes: z,
          value: sum.median,
          lo: Number.isFinite(sum.ci[0]) ? sum.ci[0] : sum.median,
          hi: Number.isFinite(sum.ci[1]) ? sum.ci[1] : sum.median,
        })
      }
      const lo = sizes[0] ?? 8
      const hi = sizes[sizes.length - 1] ?? lo
      if (f.beta !== null && f.beta > 0)
        lines.push({ series: label(f), alpha: f.alpha, beta: f.beta, minSize: lo, maxSize: Math.max(hi, lo) })
    }
    const ids = [...new Set(shown.flatMap((f) => f.bands))].slice(0, 4)
    const bands = ids
      .map(bandById)
      .filter((b): b is Band => b !== undefined)
      .map(shade)
    const what = `${bench}${p2p ? ` p2p=${p2p}` : ''}${copy ? ` ${copy}` : ''}`
    const name = `latency-${what.replace(/[^\w]+/g, '-').replace(/-+$/, '')}`
    const caption = `Median time per size (95% CI bars) for ${shown.length} of ${fits.length} series, the fitted α–β line (dashed), each floor α (dotted red) and the expectation bands the floors fall in (shaded, with their source).`
    out.push({
      name,
      kind: 'latency',
      title: `Latency vs size: ${what}`,
      caption,
      spec: latencyChart(points, lines, bands, ctx, what),
    })
  }
  return out
}

/** Pair heatmaps of the floor α (latency) per P2P state, annotated with the link class. */
export function heatmapCharts(analysis: Analysis, ctx: ChartContext): NamedChart[] {
  const byState = new Map<string, Fit[]>()
  for (const f of analysis.fits) {
    if (f.src === undefined || f.dst === undefined || !f.bench.startsWith('p2p.')) continue
    const k = `${f.bench} p2p=${f.p2p ?? 'n/a'}${f.copy ? ` ${f.copy}` : ''}`
    byState.set(k, [...(byState.get(k) ?? []), f])
  }
  return [...byState].map(([k, fits]) => ({
    name: `heatmap-${k.replace(/[^\w]+/g, '-')}`,
    kind: 'heatmap' as const,
    title: `Pair floors: ${k}`,
    caption:
      'Floor α per ordered pair (row = source GPU, column = destination), with the link class where the set has a topology capture.',
    spec: heatmapChart(
      fits.map((f) => ({
        src: f.src as number,
        dst: f.dst as number,
        value: f.alpha,
        ...(f.linkClass ? { link: f.linkClass } : {}),
      })),
      'latency',
      `Floor α, ${k}`,
      ctx,
    ),
  }))
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

/** A short row label of a diff cell: bench, pair or group, P2P state and size. */
function diffLabel(c: DiffResult['cells'][number]): string {
  const k = c.config
  const who =
    k.src !== null && k.dst !== null
      ? `${k.src}→${k.dst}`
      : k.group
        ? `${k.group}${k.grouping ? ` ${k.grouping}` : ''}`
        : k.ranks !== null
          ? `${k.ranks} ranks`
          : ''
  const extra = [
    k.p2p ? `p2p ${k.p2p === 'enabled' ? 'on' : 'off'}` : '',
    k.copy ?? '',
    k.env
      ? Object.entries(k.env)
          .map(([e, v]) => `${e}=${v}`)
          .join(' ')
      : '',
  ]
    .filter(Boolean)
    .join(' ')
  return [c.bench.replace(/^nccl\./, ''), who, extra, k.sizeBytes !== null ? formatBytes(k.sizeBytes) : '']
    .filter(Boolean)
    .join(' · ')
}

/** Delta % per cell of a diff (time cells); non-significant cells grey. */
export function diffCharts(d: DiffResult, ctx: ChartContext): NamedChart[] {
  // Times and latencies are the headline (bandwidth mirrors them); out-of-place only, like nccl-tests' summary.
  const shown = d.cells.filter(
    (c) =>
      (c.metric === 'time' || c.metric === 'latency') &&
      c.config.placement !== 'in-place' &&
      !(c.config.timer === 'cpu' && c.bench.startsWith('p2p.')),
  )
  if (shown.length === 0) return []
  const bars = shown.slice(0, 60).map((c) => ({ label: diffLabel(c), delta: c.delta, significant: c.significant }))
  return [
    {
      name: 'diff',
      kind: 'diff',
      title: 'Change against the baseline',
      caption: `Relative change of each cell's median (B vs A); grey bars are not significant (Mann-Whitney p > ${d.alpha}).${shown.length > 60 ? ` First 60 of ${shown.length} time cells.` : ''}`,
      spec: diffChart(bars, ctx),
    },
  ]
}
