/**
 * Formatters of a `DiffResult`: text (benchstat-like, one table per metric with a geomean
 * row), Markdown, CSV (one line per cell, base units) and JSON (the `DiffResult` itself).
 */
import { stringify } from 'csv-stringify/sync'
import { simLabel } from '../model/index.ts'
import type { Summary } from '../stats/index.ts'
import { mdCode, mdText, renderTable } from '../text/index.ts'
import { formatValue } from '../units/index.ts'
import type { CellText } from './_layout.ts'
import { heading, ONE_LAUNCH, sideText, tableLines } from './_layout.ts'
import { changeText } from './_observed.ts'
import type { TableProjection } from './_project.ts'
import { projectTables } from './_project.ts'
import type { DiffCell, DiffResult, DiffSide } from './_types.ts'

/** Output formats of `gpucomm diff`. */
export type DiffFormat = 'text' | 'md' | 'csv' | 'json'

/** How many only-in-one-set keys the text and Markdown list before "… and N more". */
const ONLY_LIST = 10

/**
 * "24.5 µs ±2.0%" when the CI of the median is symmetric as printed, "24.5 µs [−1.6%, +3.3%]"
 * (its bounds relative to the median) when not; "(one launch: no interval)" from a single
 * launch, never a zero-width interval; ±∞ when the launches are too few for a bounded CI.
 */
export function medianPm(s: Summary, unit: DiffCell['unit']): string {
  const v = formatValue(s.median, unit)
  if (s.n === 1) return `${v}${ONE_LAUNCH}`
  const [lo, hi] = s.ci
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return `${v} ±∞`
  if (s.median === 0) return `${v} [${formatValue(lo, unit)}, ${formatValue(hi, unit)}]`
  return `${v} ${relInterval((lo - s.median) / Math.abs(s.median), (hi - s.median) / Math.abs(s.median))}`
}

/** "±2.0%" when both bounds print alike, else "[-1.6%, +3.3%]" (fractions of the centre, two digits). */
export function relInterval(lo: number, hi: number): string {
  const down = fmtPm(Math.abs(lo) * 100)
  const up = fmtPm(Math.abs(hi) * 100)
  if (lo <= 0 && hi >= 0 && down === up) return `±${up}`
  const signed = (x: number, t: string): string => (x > 0 ? `+${t}` : x < 0 ? `-${t}` : t)
  return `[${signed(lo, down)}, ${signed(hi, up)}]`
}

/** A CI half-width in percent: two significant digits are plenty for "how sure". */
function fmtPm(pct: number): string {
  const x = Number(pct.toPrecision(2))
  return `${x >= 10 ? x.toFixed(0) : x >= 1 ? x.toFixed(1) : x.toFixed(2)}%`
}

function fmtPct(x: number): string {
  const a = Math.abs(x)
  return `${a >= 100 ? x.toFixed(0) : a >= 10 ? x.toFixed(1) : x.toFixed(2)}%`
}

/** "+2.04%" / "-13%" / "+∞%". */
export function signedPct(fraction: number): string {
  if (!Number.isFinite(fraction)) return fraction > 0 ? '+∞%' : '-∞%'
  const s = fmtPct(fraction * 100)
  return fraction > 0 ? `+${s}` : s
}

/**
 * The delta column: the change when significant, `~` when tested and not, each with the CI
 * of the change over launches ("+3.10% [+1.2%, +5.0%]"); `(±x%)` when the U test cannot
 * reach alpha (the CI still shows what the launches say), or the metric is not tested.
 */
function deltaCell(c: DiffCell): string {
  if (c.errors.length > 0) return 'ERROR'
  if (!c.tested) return `(${signedPct(c.delta)})`
  const ci = c.deltaCi ? ` [${signedPct(c.deltaCi[0])}, ${signedPct(c.deltaCi[1])}]` : ''
  if (!c.reachable) return `(${signedPct(c.delta)})${ci}`
  return `${c.significant ? signedPct(c.delta) : '~'}${ci}`
}

/** The p column: p and the false-discovery-rate q of tested cells, and the sample sizes. */
function pCell(c: DiffCell): string {
  const n = `n=${c.a.n}+${c.b.n} launches`
  if (!c.tested || !c.reachable) return n
  return `p=${c.p.toFixed(3)} q=${c.q.toFixed(3)} ${n}`
}

const CELL_TEXT: CellText = {
  side: (c, side) => sideText(c, side, medianPm),
  delta: deltaCell,
  p: pCell,
  pct: signedPct,
}

const sideLine = (name: string, s: DiffSide): string =>
  `${name}: ${s.dir}${s.simulated ? ` (${simLabel(s)})` : ''}: ${s.origin} ${s.id}, ${s.rows} rows, ${s.cells} cells`

function onlyLines(name: string, keys: readonly string[]): string[] {
  if (keys.length === 0) return []
  const shown = keys.slice(0, ONLY_LIST).map((k) => `  ${k}`)
  if (keys.length > ONLY_LIST) shown.push(`  … and ${keys.length - ONLY_LIST} more (see --format json)`)
  return [`only in ${name} (${keys.length} cell${keys.length === 1 ? '' : 's'}):`, ...shown]
}

/** The statement made once before any cell: what is tested, what chance alone would flag, what cannot be tested. */
export function testingLines(r: DiffResult): string[] {
  const t = r.testing
  const shown = [...new Set(r.cells.map((c) => c.metric))].filter((m) => !t.metrics.includes(m))
  const out = [
    `delta = B vs A over launches (the unit of replication: each launch is the median of its iterations; ` +
      `n counts launches); ~ = not significant (Mann-Whitney U, exact below 50 values, ties included; ` +
      `p > ${r.alpha}, or within the printed resolution); ± or [lo, hi] = ${r.level * 100}% CI of the median; ` +
      `[lo, hi] after delta = ${r.level * 100}% CI of the change (Welch t on log launch medians)`,
    `tested: ${t.metrics.join(', ')}` +
      `${shown.length ? `; shown, not tested: ${shown.join(', ')} (derived from time; --metric tests others)` : ''}`,
  ]
  if (t.expectedFalsePositives > 0)
    out.push(
      `${t.cells} cell${t.cells === 1 ? '' : 's'} tested at alpha ${r.alpha}: about ` +
        `${fmtCount(t.expectedFalsePositives)} would show p ≤ ` +
        `${r.alpha} by chance alone if nothing changed; --fail-on-regression PCT fails a cell only when ` +
        `its one-sided bound lies beyond PCT after the Benjamini–Hochberg false-discovery-rate control (q ≤ ${r.alpha})`,
    )
  for (const u of t.unreachable)
    out.push(
      `n = ${u.sizes} (${u.cells} cell${u.cells === 1 ? '' : 's'}) cannot reach p ≤ ` +
        `${r.alpha}: the smallest possible p is ` +
        `${u.minP.toPrecision(3)}; deltas in ( ) are untested; ` +
        `${t.minSamples} trials on each side can reach it`,
    )
  for (const e of r.errors) out.push(`ERROR ${e}`)
  return out
}

const fmtCount = (x: number): string => (x >= 10 ? x.toFixed(0) : x.toFixed(1))

/** The diff's tables in human units: a heading, the header and the lines of each (text, Markdown and the report use them). */
export function diffTables(
  r: DiffResult,
  p: TableProjection = {},
): { heading: string; header: string[]; lines: string[][]; footnote: string | null }[] {
  return projectTables(r, p).map((t) => ({ heading: heading(t), ...tableLines(t, CELL_TEXT) }))
}

/** The benchstat-like text report. */
export function diffText(r: DiffResult, p: TableProjection = {}): string {
  const out: string[] = []
  if (r.simulated) out.push('SIMULATED data: these numbers come from gpucomm sim, not from hardware.')
  out.push(sideLine('A', r.a), sideLine('B', r.b), ...testingLines(r), '')
  for (const t of diffTables(r, p)) {
    out.push(t.heading, renderTable(t.header, t.lines))
    if (t.footnote) out.push(t.footnote, '')
  }
  out.push(...onlyLines('A', r.onlyA), ...onlyLines('B', r.onlyB))
  for (const w of r.warnings) out.push(`note: ${w}`)
  return out.join('\n').replace(/\n*$/, '\n')
}

const mdCell = mdText

/** The report as Markdown: one table per metric. */
export function diffMarkdown(r: DiffResult, p: TableProjection = {}): string {
  const out: string[] = []
  if (r.simulated) out.push('**SIMULATED data**: these numbers come from gpucomm sim, not from hardware.', '')
  out.push(
    `- A: ${mdCode(r.a.dir)}${r.a.simulated ? ` (${simLabel(r.a)})` : ''}, ${r.a.rows} rows`,
    `- B: ${mdCode(r.b.dir)}${r.b.simulated ? ` (${simLabel(r.b)})` : ''}, ${r.b.rows} rows`,
    ...testingLines(r).map((l) => `- ${mdCell(l)}`),
    '',
  )
  for (const t of diffTables(r, p)) {
    const values = new Set(['A', 'B', 'delta', 'p'])
    const align = t.header.map((h) => (values.has(h) || h.includes('=') ? '---:' : '---'))
    out.push(`### ${mdCell(t.heading)}`, '', `| ${t.header.map(mdCell).join(' | ')} |`, `|${align.join('|')}|`)
    for (const row of t.lines) out.push(`| ${row.map(mdCell).join(' | ')} |`)
    out.push('')
    if (t.footnote) out.push(mdCell(t.footnote), '')
  }
  for (const [name, keys] of [
    ['A', r.onlyA],
    ['B', r.onlyB],
  ] as const) {
    const lines = onlyLines(name, keys)
    if (lines.length)
      out.push(`**${mdCell(lines[0] as string)}**`, '', ...lines.slice(1).map((l) => `- ${mdCode(l.trim())}`), '')
  }
  for (const w of r.warnings) out.push(`> note: ${mdCell(w)}`)
  return out.join('\n').replace(/\n*$/, '\n')
}

const num = (x: number): string | number =>
  Number.isFinite(x) ? Number(x.toPrecision(12)) : Number.isNaN(x) ? '' : x > 0 ? 'inf' : '-inf'

/** Condition columns of the CSV: the cell's requested configuration, one named column each (sizes in bytes). */
const CONFIG_COLUMNS = [
  ['src', 'src'],
  ['dst', 'dst'],
  ['group', 'group'],
  ['ranks', 'ranks'],
  ['grouping', 'grouping'],
  ['size_bytes', 'sizeBytes'],
  ['requested_bytes', 'requestedBytes'],
  ['placement', 'placement'],
  ['p2p', 'p2p'],
  ['copy', 'copy'],
  ['staging', 'staging'],
  ['direction', 'direction'],
  ['timer', 'timer'],
  ['dtype', 'dtype'],
  ['redop', 'redop'],
  ['root', 'root'],
] as const

/**
 * The cells as CSV in base units (seconds, bytes/second, bytes), the unit named in its own
 * column and each condition in a named column; geomeans and only-in-one lists are left to text/JSON.
 */
export function diffCsv(r: DiffResult): string {
  const header = [
    'key',
    'bench',
    'metric',
    'unit',
    ...CONFIG_COLUMNS.map(([name]) => name),
    'changed',
    'a_n',
    'a_median',
    'a_ci_lo',
    'a_ci_hi',
    'b_n',
    'b_median',
    'b_ci_lo',
    'b_ci_hi',
    'delta',
    'delta_ci_lo',
    'delta_ci_hi',
    'p',
    'q',
    'exact',
    'tested',
    'reachable',
    'resolution',
    'significant',
    'regression',
    'errors',
  ]
  const rows = r.cells.map((c) => [
    c.key,
    c.bench,
    c.metric,
    c.unit,
    ...CONFIG_COLUMNS.map(([, field]) => c.config[field] ?? ''),
    c.changed?.length ? changeText(c.changed) : '',
    c.a.n,
    num(c.a.median),
    num(c.a.ci[0]),
    num(c.a.ci[1]),
    c.b.n,
    num(c.b.median),
    num(c.b.ci[0]),
    num(c.b.ci[1]),
    num(c.delta),
    c.deltaCi ? num(c.deltaCi[0]) : '',
    c.deltaCi ? num(c.deltaCi[1]) : '',
    num(c.p),
    num(c.q),
    c.exact,
    c.tested,
    c.reachable,
    num(c.resolution),
    c.significant,
    c.regression,
    c.errors.join('; '),
  ])
  return stringify([header, ...rows])
}

/** The `DiffResult` as pretty JSON (non-finite numbers become null). */
export function diffJson(r: DiffResult): string {
  return `${JSON.stringify(r, null, 2)}\n`
}

/** Formats a diff in one of the four formats. */
export function formatDiff(r: DiffResult, format: DiffFormat, p: TableProjection = {}): string {
  if (format === 'md') return diffMarkdown(r, p)
  if (format === 'csv') return diffCsv(r)
  if (format === 'json') return diffJson(r)
  return diffText(r, p)
}
