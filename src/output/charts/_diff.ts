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
  const text = `${signedPct(b.delta * 100)} %`
  if (b.verdict === 'same') return `~ ${text}`
  return b.verdict === 'mixed' ? `${text} (${b.significant}/${b.cells} significant)` : text
}

/** A change in % with its sign and 0-2 decimals by size: "−97.0", "+3,330", "+1.50". */
function signedPct(pct: number): string {
  const digits = Math.abs(pct) >= 100 ? 0 : Math.abs(pct) >= 10 ? 1 : 2
  const num = Math.abs(pct).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
  return `${pct < 0 ? '−' : '+'}${num}`
}

/** A cut whisker's true ends, printed after its bar's change (a PNG has no tooltip): " (whisker to +6,140 %)". */
function cutEnds(r: { lo: number; hi: number; cutLo: boolean; cutHi: boolean }): string {
  if (r.cutLo && r.cutHi) return ` (whisker ${signedPct(r.lo)} to ${signedPct(r.hi)} %)`
  if (r.cutHi) return ` (whisker to ${signedPct(r.hi)} %)`
  return r.cutLo ? ` (whisker from ${signedPct(r.lo)} %)` : ''
}

/** Plot width of the diff chart; the value column is drawn just right of it. */
const WIDTH = 560

/** A whisker end further from 0 than this many times the chart's typical extent is cut. */
const CUT_FACTOR = 3

/**
 * How far from 0 (%) a whisker end may lie and still be drawn whole: CUT_FACTOR times the larger
 * of the largest bar and the typical row's extent (the lower median of each row's largest |end|).
 * Two launches can give a CI to +16,000 % beside bars of ±30 %: drawn whole it would squeeze every
 * bar against the axis. Where every whisker is wide (two runs of one setup: small bars, ±30 %
 * CIs), the typical extent is wide too and none is cut.
 */
function whiskerLimit(rows: readonly { pct: number; lo: number; hi: number }[]): number {
  const ext = rows.map((r) => Math.max(Math.abs(r.pct), Math.abs(r.lo), Math.abs(r.hi))).sort((a, b) => a - b)
  const typical = ext[Math.floor((ext.length - 1) / 2)] ?? 0
  return CUT_FACTOR * Math.max(typical, ...rows.map((r) => Math.abs(r.pct)))
}

/** The x domain (%): 0, every bar and every whisker end within `limit`, plus 3 % of the span each side. */
function diffDomain(rows: readonly { pct: number; lo: number; hi: number }[], limit: number): [number, number] {
  const ends = rows.flatMap((r) => [r.pct, ...[r.lo, r.hi].filter((v) => Math.abs(v) <= limit)])
  const lo = Math.min(0, ...ends)
  const hi = Math.max(0, ...ends)
  const pad = 0.03 * (hi > lo ? hi - lo : 1)
  return [r4(lo - pad), r4(hi + pad)]
}

/** A whisker's drawn ends, kept inside `domain`, and which ends were cut there. */
function cutWhisker(lo: number, hi: number, [d0, d1]: readonly [number, number]) {
  const clamp = (v: number): number => Math.min(d1, Math.max(d0, v))
  return { wlo: clamp(lo), whi: clamp(hi), cutLo: lo < d0, cutHi: hi > d1 }
}

/** What the cut marks mean, told once in the subtitle ('' when no whisker is cut). */
function cutNote(rows: readonly { cutLo: boolean; cutHi: boolean }[]): string {
  const marks = [rows.some((r) => r.cutLo) && '◂', rows.some((r) => r.cutHi) && '▸'].filter(Boolean)
  return marks.length
    ? `${marks.join(' ')} whisker cut: it runs on past the plot edge (its ends printed beside the bar)`
    : ''
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
 * in the subtitle. The x scale fits the bars and their whiskers but for the far outliers
 * (whiskerLimit); such a whisker ends at the plot edge in a triangle, its true ends printed
 * beside the bar and kept in the data and the tooltip.
 */
export function diffChart(bars: readonly DiffBar[], ctx: ChartContext, names: DiffNames): TopLevelSpec {
  const rows = bars.map((b) => ({
    cell: b.label,
    pct: r4(b.delta * 100),
    lo: r4((b.lo ?? b.delta) * 100),
    hi: r4((b.hi ?? b.delta) * 100),
  }))
  const domain = diffDomain(rows, whiskerLimit(rows))
  const values = rows.map((r, i) => {
    const b = bars[i] as DiffBar
    const w = cutWhisker(r.lo, r.hi, domain)
    return { ...r, ...w, dir: VERDICTS[b.verdict][0], txt: pctText(b) + cutEnds({ ...r, ...w }) }
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
