import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { badInput } from '../errors/index.ts'
import type { NamedChart } from '../plot/index.ts'
import { loadSet } from '../resultset/index.ts'

/** Chart kinds `gpucomm plot --kind` draws. */
export const PLOT_KINDS = ['latency', 'heatmap', 'groups', 'diff'] as const
export type PlotKind = (typeof PLOT_KINDS)[number]

/** Options of plotSet. */
export interface PlotOptions {
  kind: PlotKind
  out: string
  /** The baseline result set (diff charts compare the set against it). */
  baseline?: string
  allowSim?: boolean
}

/** Builds the charts of one kind for a result set (loads and analyzes it). */
export async function chartsOf(
  dir: string,
  kind: PlotKind,
  baseline?: string,
  allowSim = false,
): Promise<NamedChart[]> {
  const set = await loadSet(dir)
  const ctx = {
    simulated: set.manifest.simulated,
    ...(set.manifest.host?.hostname ? { subject: set.manifest.host.hostname } : {}),
  }
  const plot = await import('../plot/index.ts')
  if (kind === 'diff') {
    if (!baseline) throw badInput('plot --kind diff needs --baseline DIR (the set to compare against)')
    const { diffSets } = await import('../diff/index.ts')
    const base = await loadSet(baseline)
    const d = diffSets(base, set, { allowSim })
    return plot.diffCharts(d, { ...ctx, simulated: ctx.simulated || base.manifest.simulated })
  }
  const { analyze, compare } = await import('../analysis/index.ts')
  if (kind === 'groups') return plot.groupsCharts(await compare(set, { by: 'grouping' }), ctx)
  const a = await analyze(set)
  return kind === 'latency' ? plot.latencyCharts(set.rows, a, ctx) : plot.heatmapCharts(a, ctx)
}

/** Writes `<name>.vl.json`, `<name>.svg` and `<name>.png` for every chart of a kind; returns the paths. */
export async function plotSet(dir: string, opts: PlotOptions): Promise<string[]> {
  const charts = await chartsOf(dir, opts.kind, opts.baseline, opts.allowSim)
  if (charts.length === 0) throw badInput(`${dir}: nothing to draw as '${opts.kind}' (no matching measurements)`)
  const { renderChart } = await import('../render/index.ts')
  mkdirSync(opts.out, { recursive: true })
  const written: string[] = []
  for (const c of charts) {
    const r = await renderChart(c.spec)
    const base = join(opts.out, c.name)
    writeFileSync(`${base}.vl.json`, `${JSON.stringify(c.spec, null, 1)}\n`)
    writeFileSync(`${base}.svg`, r.svg)
    writeFileSync(`${base}.png`, r.png)
    written.push(`${base}.vl.json`, `${base}.svg`, `${base}.png`)
  }
  return written
}
