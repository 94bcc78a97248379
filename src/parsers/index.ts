/** Parsers of upstream and native tool outputs: one file per format, one registry. */
import { PARSERS } from './registry.ts'
import type { Parser } from './types.ts'

export { parseText, splitLines } from './_text.ts'
export type * from './_topology-types.ts'
export { PARSERS } from './registry.ts'
export type { LineParser, Origin, ParseOutput, Parser } from './types.ts'

/** Bytes of a file's beginning that detection looks at. */
export const DETECT_BYTES = 64 * 1024

/** The parser most confident that `head` is its format (confidence ≥ 0.5), or undefined. */
export function detectParser(head: string, kinds?: readonly Parser['kind'][]): Parser | undefined {
  let best: Parser | undefined
  let bestScore = 0.5 - Number.EPSILON
  for (const p of PARSERS) {
    if (kinds && !kinds.includes(p.kind)) continue
    let score = 0
    try {
      score = p.detect(head)
    } catch {
      score = 0
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
