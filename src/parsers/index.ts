/** Parsers of upstream and native tool outputs: one file per format, one registry. */
import type { Diagnostic } from '../model/index.ts'
import { PARSERS } from './registry.ts'
import type { Parser } from './types.ts'

export { parseText, splitLines } from './_text.ts'
export { PARSERS } from './registry.ts'
export { normalizeBdf } from './system/_pci-chain.ts'
export type * from './system/_topology-types.ts'
export type { LineParser, Origin, ParseOutput, Parser } from './types.ts'

/** Bytes of a file's beginning that detection looks at. */
export const DETECT_BYTES = 64 * 1024

/** Where detectParser reports a detector that threw, as an error diagnostic on `file`. */
export interface DetectSink {
  file: string
  diagnostics: Diagnostic[]
}

/**
 * The parser most confident that `head` is its format (confidence ≥ 0.5), or undefined.
 * A detector that throws is a bug in that parser, not "not this format": with a `sink` it
 * becomes an error diagnostic there (and the other parsers still compete); without one the
 * error propagates, naming the parser.
 */
export function detectParser(head: string, kinds?: readonly Parser['kind'][], sink?: DetectSink): Parser | undefined {
  let best: Parser | undefined
  let bestScore = 0.5 - Number.EPSILON
  for (const p of PARSERS) {
    if (kinds && !kinds.includes(p.kind)) continue
    let score: number
    try {
      score = p.detect(head)
    } catch (e) {
      const message = `the ${p.id} parser's format detection failed: ${e instanceof Error ? e.message : String(e)}`
      if (!sink) throw new Error(message, { cause: e })
      sink.diagnostics.push({ file: sink.file, line: 1, severity: 'error', code: 'detect-failed', message })
      continue
    }
    if (score > bestScore) {
      best = p
      bestScore = score
    }
  }
  return best
}

/** The parser with this id, or undefined. */
export const parserById = (id: string): Parser | undefined => PARSERS.find((p) => p.id === id)
