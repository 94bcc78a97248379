import type { Row } from '../model/index.ts'
import type { Origin, ParseOutput, Parser } from './types.ts'

/** Splits text into lines, dropping the CR of CRLF; a final empty piece is not a line. */
export function splitLines(text: string): string[] {
  const lines = text.split('\n')
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop()
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l))
}

/** Parses a whole text with a parser (the pure, in-memory form of `open`). */
export function parseText(parser: Parser, text: string, origin: Origin): ParseOutput {
  const rows: Row[] = []
  const lp = parser.open(origin, (r) => rows.push(r))
  const lines = splitLines(text)
  for (let i = 0; i < lines.length; i++) lp.line(lines[i] as string, i + 1)
  const { meta, diagnostics } = lp.end()
  return { rows, meta, diagnostics }
}

/** An `srun --label` prefix as a regular-expression source (for format detection over whole heads). */
export const SRUN_LABEL = String.raw`(?:P\d+ )? *\d{1,7}(?:: |:$)`

/**
 * Length of an `srun --label` prefix at the start of `s`, or 0 when there is none. Slurm
 * writes `%*d: ` (the task id right-aligned to the width of the largest) before every line,
 * or `P<offset> %*d: ` in a heterogeneous job; a blank line keeps only the label.
 */
export function srunLabelEnd(s: string): number {
  // Cheap reject first: the colon of a label is within its first 18 characters.
  const colon = s.indexOf(':')
  if (colon < 1 || colon > 18) return 0
  let i = 0
  if (s.charCodeAt(0) === 80 /* P */) {
    i = 1
    while (isDigitAt(s, i)) i++
    if (i === 1 || s.charCodeAt(i) !== 32) return 0
    i++
  }
  while (s.charCodeAt(i) === 32) i++
  const start = i
  while (isDigitAt(s, i)) i++
  if (i === start || i - start > 7 || i !== colon) return 0
  if (i + 1 === s.length) return i + 1
  return s.charCodeAt(i + 1) === 32 ? i + 2 : 0
}

const isDigitAt = (s: string, i: number): boolean => {
  const c = s.charCodeAt(i)
  return c >= 48 && c <= 57
}
