/**
 * A short piece of a real nccl-tests log for the text parser's tests (the a100 fixture's
 * command, banner, rank lines, header, first three rows and footer), and a parse that gives
 * the diagnostics as `line severity code`.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Row } from '../src/model/index.ts'
import { ncclTestsText } from '../src/parsers/nccl-tests/nccl-tests-text.ts'
import type { Origin } from '../src/parsers/types.ts'
import { FIXTURES } from './helpers.ts'

export const A100 = readFileSync(
  join(FIXTURES, 'nccl-tests', 'a100-sxm4-8gpu-single-process-g8-v2.13.txt'),
  'utf8',
).split('\n')
/** Command line, banner, rank lines and header (lines 1–16), three rows (8, 16, 32 B), footer. */
export const HEAD = A100.slice(0, 16)
export const ROWS = A100.slice(16, 19)
export const FOOT = ['# Out of bounds values : 0 OK', '# Avg bus bandwidth    : 66.2058 ', '#']
export const BASE = [...HEAD, ...ROWS, ...FOOT]

export interface Parsed {
  rows: Row[]
  meta: Record<string, any>
  diags: string[]
  /** The diagnostics' messages, in the same order. */
  messages: string[]
}

/** Parses lines (1-based); diagnostics as `line severity code`. */
export function parse(lines: readonly string[], origin: Origin = { file: 'x.txt' }): Parsed {
  const rows: Row[] = []
  const lp = ncclTestsText.open(origin, (r) => rows.push(r))
  lines.forEach((l, i) => lp.line(l, i + 1))
  const end = lp.end()
  const diags = end.diagnostics.map((d) => `${d.line} ${d.severity} ${d.code}`)
  return { rows, meta: end.meta, diags, messages: end.diagnostics.map((d) => d.message) }
}

/** Each row line once, with its bench and ranks. */
export const summary = (o: Parsed): string[] => [
  ...new Set(o.rows.map((r) => `${r.source.line} ${r.bench} ${r.ranks}`)),
]
