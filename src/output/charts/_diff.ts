import type { TopLevelSpec } from 'vega-lite'
import type { ChartContext } from './_common.ts'
import { base, chartTitle, r4 } from './_common.ts'

/** One diff cell: the relative change B vs A (fraction), its CI, and whether it is significant. */
export interface DiffBar {
  label: string
  delta: number
  lo?: number
  hi?: number
  significant: boolean
}

/** How the two sides and the selection are named on the chart. */
export interface DiffNames {
  /** A (the baseline) and B (the set compared against it). */
  a: string
  b: string
  /** Groups of cells that could have been shown (the bars are the top ones by |delta|). */
  total: number
  /** Every tested cell of the diff counted by outcome, as `gpucomm diff` states it. */
  counts?: string
}

/** The three directions a time cell can move, with their colours (lower time is faster). */
const DIRECTIONS = [
  ['faster (B takes less time)', '#1a9850'],
  ['slower (B takes more time)', '#d73027'],
  ['no significant change (~)', '#bbbbbb'],
] as const

const direction = (b: DiffBar): string =>
  (b.significant ? (b.delta < 0 ? DIRECTIONS[0] : DIRECTIONS[1]) : DIRECTIONS[2])[0]

/** A change in % as printed beside its bar: "−97.0 %", "+3,330 %", "~ +1.5 %" when not significant. */
export function pctText(b: DiffBar): string {
  const pct = b.delta * 100
  const digits = Math.abs(pct) >= 100 ? 0 : Math.abs(pct) >= 10 ? 1 : 2
  const num = Math.abs(pct).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
  return `${b.significant ? '' : '~ '}${pct < 0 ? '−' : '+'}${num} %`
}

/** Plot width of the diff chart; the value column is drawn just right of it. */
const WIDTH = 560

/**
 * Delta % per group of time cells with whiskers, coloured by direction (faster, slower, no significant
 * change); full row labels; A, B and "N of M shown" in the subtitle.
 */
export function diffChart(bars: readonly DiffBar[], ctx: ChartContext, names: DiffNames): TopLevelSpec {
  const values = bars.map((b) => ({
    cell: b.label,
    pct: r4(b.delta * 100),
    lo: r4((b.lo ?? b.delta) * 100),
    hi: r4((b.hi ?? b.delta) * 100),
    dir: direction(b),
    txt: pctText(b),
  }))
  const height = Math.max(120, Math.min(900, bars.length * 16))
  const title = chartTitle(`Change of B vs A (delta % of the median, 95% CI)`, ctx)
  const subtitle = [
    `A = ${names.a}, B = ${names.b}`,
    `${bars.length} of ${names.total} groups of equal cells shown: the largest |delta|`,
    ...(names.counts ? [names.counts] : []),
  ]
  return {
    ...base(WIDTH, height),
    title: { ...title, subtitle },
    data: { values },
    encoding: { y: { field: 'cell', type: 'nominal', sort: null, title: null, axis: { labelLimit: 0 } } },
    layer: [
      {
        mark: 'bar',
        encoding: {
          x: {
            field: 'pct',
            type: 'quantitative',
            title: 'change of the median time, B vs A (%)',
            // Few ticks, thinned when they would touch: "1,0001,2001,400" was one run of digits.
            axis: { tickCount: 6, labelOverlap: 'greedy', labelSeparation: 8 },
          },
          color: {
            field: 'dir',
            type: 'nominal',
            title: null,
            scale: { domain: DIRECTIONS.map((d) => d[0]), range: DIRECTIONS.map((d) => d[1]) },
            legend: { orient: 'bottom', direction: 'vertical', labelLimit: 0 },
          },
          tooltip: [{ field: 'cell' }, { field: 'pct', title: 'delta %' }, { field: 'lo' }, { field: 'hi' }],
        },
      },
      {
        mark: { type: 'rule', color: '#333' },
        encoding: { x: { field: 'lo', type: 'quantitative' }, x2: { field: 'hi' } },
      },
      { mark: { type: 'rule', color: '#000' }, encoding: { x: { datum: 0 } } },
      // Each bar's change as a number right of the plot: a -13 % bar beside a +3,300 % one is a hairline.
      {
        mark: { type: 'text', align: 'left', baseline: 'middle', dx: 8, fontSize: 11 },
        encoding: { x: { value: WIDTH }, text: { field: 'txt' } },
      },
    ],
  } as TopLevelSpec
}
