/**
 * Small pieces shared by the matrix-printing parsers (p2pBandwidthLatencyTest, nvbandwidth):
 * line cleaning, whitespace tokens, exact decimal scaling, a bounded diagnostics sink and the
 * guarded frame of a line parser.
 */
import type { Diagnostic, Row } from '../model/index.ts'
import { srunLabelEnd } from './_text.ts'
import type { LineParser, Origin } from './types.ts'

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g
const TAG_OUTPUT = /^\[\d+,\d+\]<(?:stdout|stderr)>:\s?/

/** Removes ANSI escapes, an `srun --label` or `mpirun --tag-output` prefix, a stray CR and trailing blanks. */
export function cleanLine(raw: string): string {
  let s = raw
  if (s.includes('\x1b')) s = s.replace(ANSI, '')
  const label = srunLabelEnd(s)
  if (label > 0) s = s.slice(label)
  if (s.charCodeAt(0) === 91 /* [ */ && s.includes('>:')) s = s.replace(TAG_OUTPUT, '')
  return s.trimEnd()
}

/** Splits on runs of spaces and tabs; no empty tokens. */
export function tokens(s: string): string[] {
  const t = s.trim()
  return t === '' ? [] : t.split(/[ \t]+/)
}

// Each digit can be matched one way only (`\d+(?:\.\d*)?`, not `\d+\.?\d*`, which splits a run
// of digits between its two `\d` in n ways and so is quadratic in a long run that fails).
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/
const FLOAT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/

/**
 * Parses a printed number and scales it by 10^exp exactly as the decimal text says
 * ("370.90" with exp 9 gives 370900000000, not 370.9 * 1e9 with its rounding error).
 * Returns undefined for anything that is not a finite number ("N/A", "-nan", "inf", "12x").
 */
export function scaled(text: string, exp: number): number | undefined {
  let v: number
  if (DECIMAL.test(text)) v = Number(`${text}e${exp}`)
  else if (FLOAT.test(text)) v = Number(text) * 10 ** exp
  else return undefined
  return Number.isFinite(v) ? v : undefined
}

/** A non-negative integer token ("0", "15"), or undefined. */
export function intToken(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d{1,9}$/.test(text)) return undefined
  return Number(text)
}

/** Most diagnostics kept per code; the rest are counted and summarized once at the end. */
const PER_CODE = 50

/** Collects diagnostics for one file, keeping at most PER_CODE per code so garbage input stays cheap. */
export class DiagSink {
  readonly list: Diagnostic[] = []
  private readonly counts = new Map<string, number>()
  private readonly lastLine = new Map<string, number>()
  constructor(private readonly file: string) {}

  /** Records a diagnostic (or only counts it once its code has PER_CODE entries). */
  add(line: number, severity: Diagnostic['severity'], code: string, message: string): void {
    const n = (this.counts.get(code) ?? 0) + 1
    this.counts.set(code, n)
    this.lastLine.set(code, line)
    if (n <= PER_CODE) this.list.push({ file: this.file, line, severity, code, message })
  }

  /** How many diagnostics of `code` were recorded (kept or not). */
  count(code: string): number {
    return this.counts.get(code) ?? 0
  }

  /** The kept diagnostics plus one summary per code that overflowed. */
  finish(): Diagnostic[] {
    const out = [...this.list]
    for (const [code, n] of this.counts) {
      if (n > PER_CODE) {
        const sev = this.list.find((d) => d.code === code)?.severity ?? 'info'
        out.push({
          file: this.file,
          line: this.lastLine.get(code) ?? 0,
          severity: sev,
          code,
          message: `${n - PER_CODE} more "${code}" diagnostics not listed (${n} in all)`,
        })
      }
    }
    return out
  }
}

/** Reads `--name=value` / `--name value` / `-n value` options off a command line seen in the text. */
export function optionValue(line: string, names: readonly string[]): string | undefined {
  const t = tokens(line)
  for (let i = 0; i < t.length; i++) {
    const tok = t[i] as string
    for (const name of names) {
      if (tok === name) return t[i + 1]
      if (tok.startsWith(`${name}=`)) return tok.slice(name.length + 1)
    }
  }
  return undefined
}

/**
 * The frame of a line parser that must never throw: its diagnostics, the last line seen, and
 * guards that turn a throw while reading a line (or while finishing) into one `parser-error`
 * diagnostic naming the tool, after which parsing goes on.
 */
export abstract class GuardedLineParser implements LineParser {
  protected readonly diags: DiagSink
  protected lastLine = 0

  constructor(
    protected readonly origin: Origin,
    protected readonly emit: (row: Row) => void,
    private readonly tool: string,
  ) {
    this.diags = new DiagSink(origin.file)
  }

  line(raw: string, no: number): void {
    this.lastLine = no
    try {
      this.read(raw, no)
    } catch (e) {
      this.diags.add(no, 'error', 'parser-error', `${this.tool} parser failed on this line: ${String(e)}`)
    }
  }

  end(): { meta: Record<string, unknown>; diagnostics: Diagnostic[] } {
    try {
      this.finish()
    } catch (e) {
      this.diags.add(this.lastLine, 'error', 'parser-error', `${this.tool} parser failed at the end: ${String(e)}`)
    }
    return { meta: this.fileMeta(), diagnostics: this.diags.finish() }
  }

  /** Reads one raw line (`no` is 1-based). */
  protected abstract read(raw: string, no: number): void
  /** Closes what is still open and adds the end-of-file diagnostics. */
  protected abstract finish(): void
  /** What the file says about itself, for the parse output's meta. */
  protected abstract fileMeta(): Record<string, unknown>
}
