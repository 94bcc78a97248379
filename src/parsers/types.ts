import type { Diagnostic, Row } from '../model/index.ts'

/** Where the text being parsed lives; `file` is what rows cite in `source.file`. */
export interface Origin {
  file: string
  /** Trial number stamped on every row (sweeps launch a point several times). */
  trial?: number
  /** The collective a text that does not name its own measured (`import --collective`). */
  collective?: string
}

/** What a parser returns for a whole text. */
export interface ParseOutput {
  rows: Row[]
  /** Facts the text states about itself: versions, banner parameters, devices, topology … */
  meta: Record<string, unknown>
  diagnostics: Diagnostic[]
}

/** An incremental parser over one file, fed line by line (streaming import). */
export interface LineParser {
  /** One line without its line terminator (CR of CRLF already removed); lineNo is 1-based. */
  line(text: string, lineNo: number): void
  /** Called once after the last line; returns what is known about the file. */
  end(): Pick<ParseOutput, 'meta' | 'diagnostics'>
}

/**
 * A format plug-in. Pure: no IO, never throws on any input (bad lines become diagnostics).
 * `kind` says whether it yields measurement rows or topology facts (in `meta`).
 */
export interface Parser {
  readonly id: string
  readonly description: string
  readonly kind: 'measurement' | 'topology'
  /** Confidence in [0, 1] that `head` (the first 64 KiB of a file) is in this format. */
  detect(head: string): number
  /** Starts parsing one file; rows are passed to `emit` as soon as they are complete. */
  open(origin: Origin, emit: (row: Row) => void): LineParser
}
