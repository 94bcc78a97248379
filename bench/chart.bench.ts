/**
 * Chart rendering: every chart `chartsOf` builds for a SIMULATED seed-vm set (p2p matrix and
 * all_reduce on TP8 and TP4, 3 trials; kinds latency, heatmap, groups), rendered to SVG and
 * PNG with `renderChart`. Reports the time per chart (median) and in all.
 * Run alone with `npx tsx bench/chart.bench.ts`.
 */
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { chartsOf, renderChart } from '../src/output/index.ts'
import { simSet } from '../test/simset.ts'
import type { Metric } from './_util.ts'
import { median, round } from './_util.ts'

/** Runs the chart bench. */
export async function chartBench(): Promise<Metric[]> {
  const dir = await simSet({ preset: 'seed-vm', seed: 1, trials: 3 })
  try {
    const t0 = performance.now()
    const charts = []
    for (const kind of ['latency', 'heatmap', 'groups'] as const)
      charts.push(...(await chartsOf(dir, kind, undefined, true)))
    const buildS = (performance.now() - t0) / 1000
    await renderChart(charts[0]?.spec as never) // warm-up: vega and resvg load on first use
    const each: number[] = []
    for (const c of charts) {
      const t = performance.now()
      await renderChart(c.spec)
      each.push((performance.now() - t) / 1000)
    }
    const total = each.reduce((a, b) => a + b, 0)
    return [
      {
        metric: `render ${charts.length} charts of a seed-vm sim set (SVG + PNG): per chart, median`,
        value: round(median(each) * 1000),
        unit: 'ms',
        note: `slowest ${round(Math.max(...each) * 1000)} ms`,
      },
      {
        metric: 'render: all charts',
        value: round(total),
        unit: 's',
        note: `building the specs (analysis included) ${round(buildS)} s`,
      },
    ]
  } finally {
    rmSync(join(dir, '..'), { recursive: true, force: true })
  }
}

if (process.argv[1] === import.meta.filename) console.table(await chartBench())
