import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { DigestClasses } from '../../diff/index.ts'
import { badInput } from '../../errors/index.ts'
import type { ReadSet } from '../../resultset/index.ts'
import { loadSamples, streamRows } from '../../resultset/index.ts'
import type { ChartContext, NamedChart } from '../charts/index.ts'
import { CHART_KINDS, chartKind } from './kinds/index.ts'

/** The ids of the chart kinds `gpucomm plot --kind` draws (the registry in kinds/). */
export const PLOT_KINDS: readonly string[] = CHART_KINDS.map((k) => k.id)
/** One of PLOT_KINDS. */
export type PlotKind = string

/** Options of plotSet. */
export interface PlotOptions {
  kind: PlotKind
  out: string
  /** The baseline result set (diff charts compare the set against it). */
  baseline?: string
  allowSim?: boolean
  /** Called as each step starts: building the charts (total unknown), then rendering each one. */
  onStage?: (name: string, index: number, total: number) => void
}

/**
 * What every chart of a set says about it: SIMULATED or not, and in the subtitle the result set
 * (its simulator preset and id), never the host that draws the chart.
 */
export function chartContext(set: Pick<ReadSet, 'manifest'>): ChartContext {
  const m = set.manifest
  const preset = /preset (\S+)/.exec(m.instrument?.version ?? '')?.[1]
  return {
    simulated: m.simulated,
    ...(m.simScale !== undefined ? { simScale: m.simScale } : {}),
    subject: `result set ${m.id}${preset ? `, preset ${preset}` : ''}`,
  }
}

/** Builds the charts of one kind for a result set (loads and analyzes it). */
export async function chartsOf(
  dir: string,
  kind: PlotKind,
  baseline?: string,
  allowSim = false,
): Promise<NamedChart[]> {
  const k = chartKind(kind)
  if (!k) throw badInput(`--kind ${kind}: no such chart kind (known: ${PLOT_KINDS.join(', ')})`)
  // Rows replayed from 12 bytes each (loadSamples): memory holds the values, not row objects.
  const set = await loadSamples(dir)
  const ctx = chartContext(set)
  return k.build(set, ctx, { allowSim, ...(baseline ? { baseline } : {}) })
}

/**
 * The busbw charts of a set. Rows in memory are read as they are; a replayed set (whose rows
 * lack their source lines, which the count of sizes printed as 0 B needs) is streamed again
 * from disk, its busbw rows only, a chunk at a time.
 */
export async function busbwChartsOf(set: ReadSet, ctx: ChartContext): Promise<NamedChart[]> {
  const { busbwCharts, busbwCollector } = await import('../charts/index.ts')
  if (Array.isArray(set.rows)) return busbwCharts(set.rows, ctx)
  const c = busbwCollector()
  await streamRows(set.dir, (rows) => rows.forEach(c.add), { metric: 'busbw', note: false })
  return c.charts(ctx)
}

/** The link classes of two sets' pairs, where their topology captures name them (diff groups pairs by them). */
export async function linkClassesOf(a: ReadSet, b: ReadSet): Promise<DigestClasses> {
  const { loadTopology } = await import('../../analysis/index.ts')
  const viewA = (await loadTopology(a.dir, a.manifest)).view
  const viewB = (await loadTopology(b.dir, b.manifest)).view
  return { ...(viewA ? { a: viewA.linkClass } : {}), ...(viewB ? { b: viewB.linkClass } : {}) }
}

/** Writes `<name>.vl.json`, `<name>.svg` and `<name>.png` for every chart of a kind; returns the paths. */
export async function plotSet(dir: string, opts: PlotOptions): Promise<string[]> {
  opts.onStage?.(`reading the set, building the ${opts.kind} charts`, 0, 0)
  const charts = await chartsOf(dir, opts.kind, opts.baseline, opts.allowSim)
  if (charts.length === 0) throw badInput(`${dir}: nothing to draw as '${opts.kind}' (no matching measurements)`)
  const { renderChart } = await import('../render/index.ts')
  mkdirSync(opts.out, { recursive: true })
  const written: string[] = []
  for (const [i, c] of charts.entries()) {
    opts.onStage?.(`rendering ${c.name}`, i, charts.length)
    const r = await renderChart(c.spec)
    const base = join(opts.out, c.name)
    writeFileSync(`${base}.vl.json`, `${JSON.stringify(c.spec, null, 1)}\n`)
    writeFileSync(`${base}.svg`, r.svg)
    writeFileSync(`${base}.png`, r.png)
    written.push(`${base}.vl.json`, `${base}.svg`, `${base}.png`)
  }
  return written
}
