import type { TopLevelSpec } from 'vega-lite'
import type { ChartContext } from './_common.ts'
import { base, chartTitle, r4 } from './_common.ts'

/** One diff cell: the relative change B vs A (fraction) and whether it is significant. */
export interface DiffBar {
  label: string
  delta: number
  lo?: number
  hi?: number
  significant: boolean
}

/** Delta % per cell; non-significant cells are grey. */
export function diffChart(bars: readonly DiffBar[], ctx: ChartContext, baseline = 'baseline'): TopLevelSpec {
  const values = bars.map((b) => ({
    cell: b.label,
    pct: r4(b.delta * 100),
    lo: r4((b.lo ?? b.delta) * 100),
    hi: r4((b.hi ?? b.delta) * 100),
    sig: b.significant ? 'significant' : 'not significant (~)',
  }))
  const height = Math.max(120, Math.min(900, bars.length * 16))
  return {
    ...base(560, height),
    title: chartTitle(`Change vs ${baseline} (delta %, p ≤ α coloured)`, ctx),
    data: { values },
    encoding: { y: { field: 'cell', type: 'nominal', sort: null, title: null, axis: { labelLimit: 300 } } },
    layer: [
      {
        mark: 'bar',
        encoding: {
          x: { field: 'pct', type: 'quantitative', title: 'delta %' },
          color: {
            field: 'sig',
            type: 'nominal',
            title: null,
            scale: { domain: ['significant', 'not significant (~)'], range: ['#d95f02', '#bbbbbb'] },
          },
        },
      },
      { mark: 'rule', encoding: { x: { field: 'lo', type: 'quantitative' }, x2: { field: 'hi' } } },
    ],
  } as TopLevelSpec
}
