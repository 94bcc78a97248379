import type { TopLevelSpec } from 'vega-lite'
import type { ChartContext } from './_common.ts'
import { base, chartTitle, fittedLog, logAxis, PLOT_HEIGHT, r4 } from './_common.ts'
import { colorScale, sizeAxisFor } from './_style.ts'

/** One grouping's median time at one size, with its confidence interval (seconds). */
export interface GroupPoint {
  grouping: string
  sizeBytes: number
  median: number
  lo: number
  hi: number
}

/** Grouping comparison (e.g. TP8 vs TP4) per size: medians with CI bars, log-log. */
export function groupsChart(points: readonly GroupPoint[], ctx: ChartContext, what = 'all_reduce time'): TopLevelSpec {
  const values = points.map((p) => ({
    grouping: p.grouping,
    size: p.sizeBytes,
    us: r4(p.median * 1e6),
    lo: r4(p.lo * 1e6),
    hi: r4(p.hi * 1e6),
  }))
  const x = sizeAxisFor(points.map((p) => p.sizeBytes))
  // Fitted to the medians and their CIs, not rounded up to the next power of ten.
  const yScale = fittedLog(values.flatMap((v) => [v.lo, v.hi, v.us]))
  const color = {
    field: 'grouping',
    type: 'nominal',
    title: 'grouping',
    scale: colorScale(points.map((p) => p.grouping)),
  } as const
  const axis = logAxis(yScale.domain, PLOT_HEIGHT)
  return {
    ...base(),
    title: chartTitle(`Groupings compared: ${what} (median, 95% CI)`, ctx),
    data: { values },
    layer: [
      {
        mark: { type: 'line', point: true },
        encoding: {
          x,
          y: { field: 'us', type: 'quantitative', scale: yScale, title: `${what} (µs)`, ...(axis ? { axis } : {}) },
          color,
        },
      },
      {
        mark: { type: 'rule' },
        encoding: { x, y: { field: 'lo', type: 'quantitative', scale: yScale }, y2: { field: 'hi' }, color },
      },
    ],
  } as TopLevelSpec
}
