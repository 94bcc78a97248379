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
 * The x domain (%) of the diff chart, set by its bars: their changes and 0, plus on either side
 * room for the whiskers past them, 5 % to 25 % of the bars' span. A whisker that reaches further
 * does not widen it: a two-launch CI that runs to +16,000 % would squeeze every bar against the
 * axis, so it is cut at the plot edge instead (cutWhisker), and the bars fill at least 2/3 of the plot.
 */
function diffDomain(rows: readonly { pct: number; lo: number; hi: number }[]): [number, number] {
  const lo = Math.min(0, ...rows.map((r) => r.pct))
  const hi = Math.max(0, ...rows.map((r) => r.pct))
  const span = hi > lo ? hi - lo : 1
  const room = (over: number): number => Math.min(0.25 * span, Math.max(0.05 * span, over + 0.03 * span))
  const under = lo - Math.min(lo, ...rows.map((r) => r.lo))
  const over = Math.max(hi, ...rows.map((r) => r.hi)) - hi
  return [r4(lo - room(under)), r4(hi + room(over))]
}

/** A whisker's drawn ends, kept inside `domain`, and which ends were cut there. */
function cutWhisker(lo: number, hi: number, [d0, d1]: readonly [number, number]) {
  const clamp = (v: number): number => Math.min(d1, Math.max(d0, v))
  return { wlo: clamp(lo), whi: clamp(hi), cutLo: lo < d0, cutHi: hi > d1 }
}

/** What the cut marks mean, told once in the subtitle ('' when no whisker is cut). */
function cutNote(rows: readonly { cutLo: boolean; cutHi: boolean }[]): string {
  const marks = [rows.some((r) => r.cutLo) && '◂', rows.some((r) => r.cutHi) && '▸'].filter(Boolean)
  return marks.length ? `${marks.join(' ')} whisker cut: it runs on past the plot edge (its ends in the tooltip)` : ''
}

/** A triangle at each cut whisker end, pointing the way the whisker goes on. */
function cutMark(side: 'cutLo' | 'cutHi') {
  return {
    transform: [{ filter: `datum.${side}` }],
    mark: { type: 'point', shape: side === 'cutHi' ? 'triangle-right' : 'triangle-left', filled: true, size: 70 },
    encoding: {
      x: { field: side === 'cutHi' ? 'whi' : 'wlo', type: 'quantitative' },
      color: { value: '#333' },
      opacity: { value: 1 },
      tooltip: [{ field: 'cell' }, { field: 'lo', title: 'whisker from %' }, { field: 'hi', title: 'to %' }],
    },
  }
}

/**
 * Delta % per group of time cells with whiskers, coloured by what its cells say (faster, slower,
 * mixed, no significant change); full row labels; A, B, "N of M shown" and the whisker's meaning
 * in the subtitle. The x scale fits the bars (diffDomain); a whisker past it ends at the plot
 * edge in a triangle, its true ends in the data and the tooltip.
 */
export function diffChart(bars: readonly DiffBar[], ctx: ChartContext, names: DiffNames): TopLevelSpec {
  const rows = bars.map((b) => ({
    cell: b.label,
    pct: r4(b.delta * 100),
    lo: r4((b.lo ?? b.delta) * 100),
    hi: r4((b.hi ?? b.delta) * 100),
  }))
  const domain = diffDomain(rows)
  const values = rows.map((r, i) => {
    const b = bars[i] as DiffBar
    return { ...r, ...cutWhisker(r.lo, r.hi, domain), dir: VERDICTS[b.verdict][0], txt: pctText(b) }
  })
  const height = Math.max(120, Math.min(900, bars.length * 16))
  const title = chartTitle('Change of B vs A (delta % of the median)', ctx)
  const cut = cutNote(values)
  const subtitle = [
    `A = ${names.a}, B = ${names.b}`,
    `${bars.length} of ${names.total} groups of equal cells shown: the largest |delta|`,
    ...(names.whisker ? [names.whisker] : []),
    ...(cut ? [cut] : []),
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
            scale: { domain, nice: false },
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
        encoding: { x: { field: 'wlo', type: 'quantitative' }, x2: { field: 'whi' } },
      },
      ...(['cutLo', 'cutHi'] as const).filter((side) => values.some((v) => v[side])).map(cutMark),
      { mark: { type: 'rule', color: '#000' }, encoding: { x: { datum: 0 } } },
      // Each bar's change as a number right of the plot: a -13 % bar beside a +3,300 % one is a hairline.
      {
        mark: { type: 'text', align: 'left', baseline: 'middle', dx: 8, fontSize: 11 },
        encoding: { x: { value: WIDTH }, text: { field: 'txt' } },
      },
    ],
  } as TopLevelSpec
}
