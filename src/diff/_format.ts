/**
 * Formatters of a `DiffResult`: text (benchstat-like, one table per metric with a geomean
 * row), Markdown, CSV (one line per cell, base units) and JSON (the `DiffResult` itself).
 */
import { stringify } from 'csv-stringify/sync'
import { renderTable } from '../present/index.ts'
import type { Summary } from '../stats/index.ts'
import { formatBytes, formatValue } from '../units/index.ts'
import { changeText } from './_observed.ts'
import type { DiffCell, DiffGeomean, DiffResult, DiffSide } from './_types.ts'

/** Output formats of `gpucomm diff`. */
export type DiffFormat = 'text' | 'md' | 'csv' | 'json'

/** How many only-in-one-set keys the text and Markdown list before "… and N more". */
const ONLY_LIST = 10

/** "24.5 µs ±2%": the median and the CI's larger half-width relative to it; ±∞ when unbounded. */
export function medianPm(s: Summary, unit: DiffCell['unit']): string {
  const [lo, hi] = s.ci
  const half = Math.max(s.median - lo, hi - s.median)
  let pm: string
  if (!Number.isFinite(half)) pm = '±∞'
  else if (half === 0) pm = '±0%'
  else if (s.median === 0) pm = `±${formatValue(half, unit)}`
  else pm = `±${fmtPm((half / Math.abs(s.median)) * 100)}`
  return `${formatValue(s.median, unit)} ${pm}`
}

/** A CI half-width in percent: two significant digits are plenty for "how sure". */
function fmtPm(x: number): string {
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

/** The row label: the key without bench/metric, sizes in binary units (`size=1MiB`). */
function label(c: DiffCell): string {
  const l =
    c.config.sizeBytes === null
      ? c.label
      : c.label.replace(/\bsize=\d+/, `size=${formatBytes(c.config.sizeBytes).replace(' ', '')}`)
  const changed = c.changed?.length ? ` (${changeText(c.changed)})` : ''
  return `${c.bench} ${l === '-' ? '' : l}`.trim() + changed
}

interface Section {
  metric: string
  rows: string[][]
}

function sections(r: DiffResult): Section[] {
  const by = new Map<string, Section>()
  for (const c of r.cells) {
    let s = by.get(c.metric)
    if (!s) by.set(c.metric, (s = { metric: c.metric, rows: [] }))
    s.rows.push([label(c), medianPm(c.a, c.unit), medianPm(c.b, c.unit), deltaCell(c), pCell(c)])
  }
  for (const g of r.geomeans) by.get(g.metric)?.rows.push(geoRow(g))
  return [...by.values()]
}

/** The delta column: the change when significant, `~` when tested and not, `(±x%)` when not testable. */
function deltaCell(c: DiffCell): string {
  if (c.errors.length > 0) return 'ERROR'
  if (!c.tested || !c.reachable) return `(${signedPct(c.delta)})`
  return c.significant ? signedPct(c.delta) : '~'
}

/** The p column: p and the false-discovery-rate q of tested cells, and the sample sizes. */
function pCell(c: DiffCell): string {
  const n = `n=${c.a.n}+${c.b.n}`
  if (!c.tested || !c.reachable) return n
  return `p=${c.p.toFixed(3)} q=${c.q.toFixed(3)} ${n}`
}

function geoRow(g: DiffGeomean): string[] {
  return ['geomean', formatValue(g.a, g.unit), formatValue(g.b, g.unit), signedPct(g.delta), `${g.cells} cells`]
}

const sideLine = (name: string, s: DiffSide): string =>
  `${name}: ${s.dir}${s.simulated ? ' (SIMULATED)' : ''}: ${s.origin} ${s.id}, ${s.rows} rows, ${s.cells} cells`

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
    `delta = B vs A; ~ = not significant (Mann-Whitney U, exact below 50 values, ties included; p > ${r.alpha}, or within the printed resolution); ± = ${r.level * 100}% CI of the median`,
    `tested: ${t.metrics.join(', ')}${shown.length ? `; shown, not tested: ${shown.join(', ')} (derived from time; --metric tests others)` : ''}`,
  ]
  if (t.expectedFalsePositives > 0)
    out.push(
      `${t.cells} cell${t.cells === 1 ? '' : 's'} tested at alpha ${r.alpha}: about ${fmtCount(t.expectedFalsePositives)} would show p ≤ ${r.alpha} by chance alone if nothing changed; --fail-on-regression counts only cells that pass the Benjamini–Hochberg false-discovery-rate control (q ≤ ${r.alpha})`,
    )
  for (const u of t.unreachable)
    out.push(
      `n = ${u.sizes} (${u.cells} cell${u.cells === 1 ? '' : 's'}) cannot reach p ≤ ${r.alpha}: the smallest possible p is ${u.minP.toPrecision(3)}; deltas in ( ) are untested; ${t.minSamples} trials on each side can reach it`,
    )
  for (const e of r.errors) out.push(`ERROR ${e}`)
  return out
}

const fmtCount = (x: number): string => (x >= 10 ? x.toFixed(0) : x.toFixed(1))

/** The benchstat-like text report. */
export function diffText(r: DiffResult): string {
  const out: string[] = []
  if (r.simulated) out.push('SIMULATED data: these numbers come from gpucomm sim, not from hardware.')
  out.push(sideLine('A', r.a), sideLine('B', r.b), ...testingLines(r), '')
  for (const s of sections(r)) {
    out.push(renderTable([s.metric, 'A', 'B', 'delta', 'p'], s.rows))
  }
  out.push(...onlyLines('A', r.onlyA), ...onlyLines('B', r.onlyB))
  for (const w of r.warnings) out.push(`note: ${w}`)
  return out.join('\n').replace(/\n*$/, '\n')
}

const mdCell = (s: string): string => s.replace(/\|/g, '\\|')

/** The report as Markdown: one table per metric. */
export function diffMarkdown(r: DiffResult): string {
  const out: string[] = []
  if (r.simulated) out.push('**SIMULATED data**: these numbers come from gpucomm sim, not from hardware.', '')
  out.push(
    `- A: \`${r.a.dir}\`${r.a.simulated ? ' (SIMULATED)' : ''}, ${r.a.rows} rows`,
    `- B: \`${r.b.dir}\`${r.b.simulated ? ' (SIMULATED)' : ''}, ${r.b.rows} rows`,
    ...testingLines(r).map((l) => `- ${mdCell(l)}`),
    '',
  )
  for (const s of sections(r)) {
    out.push(`### ${s.metric}`, '', '| cell | A | B | delta | p |', '|---|---:|---:|---:|---|')
    for (const row of s.rows) out.push(`| ${row.map(mdCell).join(' | ')} |`)
    out.push('')
  }
  for (const [name, keys] of [
    ['A', r.onlyA],
    ['B', r.onlyB],
  ] as const) {
    const lines = onlyLines(name, keys)
    if (lines.length) out.push(`**${lines[0]}**`, '', ...lines.slice(1).map((l) => `- \`${l.trim()}\``), '')
  }
  for (const w of r.warnings) out.push(`> note: ${mdCell(w)}`)
  return out.join('\n').replace(/\n*$/, '\n')
}

const num = (x: number): string | number =>
  Number.isFinite(x) ? Number(x.toPrecision(12)) : Number.isNaN(x) ? '' : x > 0 ? 'inf' : '-inf'

/** The cells as CSV in base units (seconds, bytes/second); geomeans and only-in-one lists are left to text/JSON. */
export function diffCsv(r: DiffResult): string {
  const header = [
    'key',
    'bench',
    'metric',
    'unit',
    'a_n',
    'a_median',
    'a_ci_lo',
    'a_ci_hi',
    'b_n',
    'b_median',
    'b_ci_lo',
    'b_ci_hi',
    'delta',
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
    c.a.n,
    num(c.a.median),
    num(c.a.ci[0]),
    num(c.a.ci[1]),
    c.b.n,
    num(c.b.median),
    num(c.b.ci[0]),
    num(c.b.ci[1]),
    num(c.delta),
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
export function formatDiff(r: DiffResult, format: DiffFormat): string {
  if (format === 'md') return diffMarkdown(r)
  if (format === 'csv') return diffCsv(r)
  if (format === 'json') return diffJson(r)
  return diffText(r)
}
