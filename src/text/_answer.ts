/**
 * Answers first: the shape every command's default text takes. The question asked, the answer
 * in one or two sentences with its numbers, a short table of grouped cells (equal cells in one
 * row with the range of their values), then what was left out and the flag that shows it.
 * The commands build an `Answer` from their own results (diff, show, analyze); this module only
 * groups values into ranges and lays the parts out.
 */
import type { Unit } from '../model/index.ts'
import { formatValue } from '../units/index.ts'
import { renderTable } from './_table.ts'

/** The most rows a grouped table prints; the rest is counted in what was left out. */
export const ANSWER_ROWS = 40

/** One command's answer in text. */
export interface Answer {
  /** What was asked ("What changed from A to B?"), printed first. */
  question: string
  /** The answer: one or two sentences, numbers and mechanism included. */
  answer: string[]
  /** The grouped table: its title, header and rows (at most ANSWER_ROWS print). */
  table?: { title: string; header: string[]; rows: string[][] }
  /** Lines after the table (verdicts, caveats), printed as they are. */
  after?: string[]
  /** What was left out, each with the flag that shows it. */
  left: string[]
}

/** "13.6–13.9 µs", or one value when both ends print alike. */
export function rangeText(values: readonly number[], unit: Unit): string {
  if (values.length === 0) return '-'
  const lo = formatValue(Math.min(...values), unit)
  const hi = formatValue(Math.max(...values), unit)
  if (lo === hi) return lo
  const [ln, lu] = splitUnit(lo)
  const [hn, hu] = splitUnit(hi)
  return lu === hu ? `${ln}–${hn} ${hu}` : `${lo}–${hi}`
}

function splitUnit(s: string): [string, string] {
  const i = s.indexOf(' ')
  return i < 0 ? [s, ''] : [s.slice(0, i), s.slice(i + 1)]
}

/** A percentage with a sign and two significant digits ("−97 %", "+4.1 %", "0 %"). */
export function pctText(fraction: number): string {
  if (!Number.isFinite(fraction)) return fraction > 0 ? '+∞ %' : '−∞ %'
  const x = fraction * 100
  const a = Math.abs(x)
  const digits = a >= 10 ? a.toFixed(0) : a >= 1 ? a.toFixed(1) : a.toFixed(2)
  if (Number(digits) === 0) return '0 %'
  return `${x < 0 ? '−' : '+'}${digits} %`
}

/** "−97 %", or "−97 to −96 %" when the fractions print apart. */
export function pctRange(fractions: readonly number[]): string {
  if (fractions.length === 0) return '-'
  const lo = pctText(Math.min(...fractions))
  const hi = pctText(Math.max(...fractions))
  return lo === hi ? lo : `${lo.replace(' %', '')} to ${hi}`
}

/** "1 pair" / "56 pairs". */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`

/** The answer as text: question, answer, the grouped table (cut at `maxRows`), lines after it, then what was left out. */
export function renderAnswer(a: Answer, maxRows = ANSWER_ROWS): string {
  const out = [a.question, ...a.answer.map((s) => `  ${s}`)]
  const left = [...a.left]
  if (a.table && a.table.rows.length > 0) {
    const rows = a.table.rows.slice(0, maxRows)
    if (a.table.rows.length > rows.length)
      left.unshift(`${a.table.rows.length - rows.length} more grouped rows of this table (--all)`)
    out.push('', a.table.title, renderTable(a.table.header, rows).trimEnd())
  }
  if (a.after?.length) out.push('', ...a.after)
  if (left.length) out.push('', 'Left out:', ...left.map((l) => `- ${l}`))
  return `${out.join('\n')}\n`
}
