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
