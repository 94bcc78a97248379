import type { TopLevelSpec } from 'vega-lite'
import type { ChartContext } from './_common.ts'
import { base, chartTitle, r4 } from './_common.ts'

/**
 * One bar of the diff chart: the relative change B vs A (fraction) of a cell or a group of equal
 * cells, its whisker, and what its cells say together: 'faster' or 'slower' when every cell is
 * significant that way, 'same' when none is, 'mixed' otherwise (`significant` of `cells`).
 */
export interface DiffBar {
  label: string
  delta: number
  lo?: number
  hi?: number
  verdict: 'faster' | 'slower' | 'same' | 'mixed'
  significant: number
  cells: number
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
  /** What a whisker spans ("whisker: the 95% CI of the change"), told under the title. */
  whisker?: string
}

/** How a bar's cells can come out, with their colours (lower time is faster); mixed is light. */
const VERDICTS = {
  faster: ['faster (B takes less time)', '#1a9850'],
  slower: ['slower (B takes more time)', '#d73027'],
  mixed: ['mixed (k of n cells significant, printed beside the bar)', '#c2a5cf'],
  same: ['no significant change (~)', '#bbbbbb'],
} as const
const ORDER = ['faster', 'slower', 'mixed', 'same'] as const

/**
 * A change in % as printed beside its bar: "−97.0 %", "+3,330 %"; "~ +1.5 %" when no cell is
 * significant; "+2.73 % (8/24 significant)" when some are.
 */
export function pctText(b: DiffBar): string {
  const pct = b.delta * 100
  const digits = Math.abs(pct) >= 100 ? 0 : Math.abs(pct) >= 10 ? 1 : 2
  const num = Math.abs(pct).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
  const text = `${pct < 0 ? '−' : '+'}${num} %`
  if (b.verdict === 'same') return `~ ${text}`
  return b.verdict === 'mixed' ? `${text} (${b.significant}/${b.cells} significant)` : text
}

/** Plot width of the diff chart; the value column is drawn just right of it. */
const WIDTH = 560

/**
 * Delta % per group of time cells with whiskers, coloured by what its cells say (faster, slower,
 * mixed, no significant change); full row labels; A, B, "N of M shown" and the whisker's meaning
 * in the subtitle.
 */
export function diffChart(bars: readonly DiffBar[], ctx: ChartContext, names: DiffNames): TopLevelSpec {
  const values = bars.map((b) => ({
    cell: b.label,
    pct: r4(b.delta * 100),
    lo: r4((b.lo ?? b.delta) * 100),
    hi: r4((b.hi ?? b.delta) * 100),
    dir: VERDICTS[b.verdict][0],
    txt: pctText(b),
  }))
  const height = Math.max(120, Math.min(900, bars.length * 16))
  const title = chartTitle('Change of B vs A (delta % of the median)', ctx)
  const subtitle = [
    `A = ${names.a}, B = ${names.b}`,
    `${bars.length} of ${names.total} groups of equal cells shown: the largest |delta|`,
    ...(names.whisker ? [names.whisker] : []),
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
            scale: { domain: ORDER.map((k) => VERDICTS[k][0]), range: ORDER.map((k) => VERDICTS[k][1]) },
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
