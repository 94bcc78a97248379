/**
 * Low-level text helpers of the nccl-tests parsers: prefix stripping, whitespace
 * tokenizing and strict number checks, written as plain loops (no regex backtracking),
 * because a 200 MB log goes through them line by line.
 */

import { srunLabelEnd } from '../_text.ts'

const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]/g

/**
 * Removes ANSI escapes, an `srun --label` prefix (`3: `) and an `mpirun --tag-output` prefix
 * (`[1,0]<stdout>:`). Returns the text and whether a tag prefix was present.
 */
export function stripPrefix(line: string): { text: string; tagged: boolean } {
  let s = line
  if (s.indexOf('\x1b') !== -1) s = s.replace(ANSI, '')
  const label = srunLabelEnd(s)
  if (label > 0) s = s.slice(label)
  if (s.charCodeAt(0) !== 91 /* [ */) return { text: s, tagged: false }
  const end = tagPrefixEnd(s)
  return end < 0 ? { text: s, tagged: false } : { text: s.slice(end), tagged: true }
}

/** Index just after `[digits,digits]<stdout|stderr>:` at the start of `s`, or -1. */
function tagPrefixEnd(s: string): number {
  let i = 1
  const digits = (): boolean => {
    const start = i
    while (i < s.length && isDigit(s.charCodeAt(i))) i++
    return i > start
  }
  if (!digits() || s[i] !== ',') return -1
  i++
  if (!digits() || s[i] !== ']' || s[i + 1] !== '<') return -1
  const rest = s.startsWith('stdout>:', i + 2) || s.startsWith('stderr>:', i + 2)
  return rest ? i + 10 : -1
}

/** True for the char codes of 0-9. */
export const isDigit = (c: number): boolean => c >= 48 && c <= 57

/** Space, tab or a stray CR (a CRLF line handed over with its CR). */
const blank = (c: number): boolean => c === 32 || c === 9 || c === 13

/** Splits on spaces, tabs and CRs into `out` (cleared first); returns `out`. */
export function tokenize(s: string, out: string[]): string[] {
  out.length = 0
  const n = s.length
  let i = 0
  while (i < n) {
    let c = s.charCodeAt(i)
    while (blank(c)) {
      if (++i >= n) return out
      c = s.charCodeAt(i)
    }
    const start = i
    while (i < n && !blank(c)) c = s.charCodeAt(++i)
    out.push(s.slice(start, i))
  }
  return out
}

/** Index of the first char that is not a space, tab or CR, or -1. */
export function firstNonBlank(s: string): number {
  for (let i = 0; i < s.length; i++) if (!blank(s.charCodeAt(i))) return i
  return -1
}

/** A non-negative decimal integer token (digits only). */
export function isUInt(t: string): boolean {
  if (t.length === 0 || t.length > 20) return false
  for (let i = 0; i < t.length; i++) if (!isDigit(t.charCodeAt(i))) return false
  return true
}

/** A decimal integer token, possibly negative. */
export const isInt = (t: string): boolean => (t.charCodeAt(0) === 45 ? t.length > 1 && isUInt(t.slice(1)) : isUInt(t))

/**
 * Parses a printf-style number (`40.12`, `16330`, `1.2e+06`, `-1`); NaN for anything
 * else, including `N/A`, `nan`, `inf`, hex and empty strings.
 */
export function num(t: string): number {
  const n = t.length
  if (n === 0 || n > 40) return NaN
  let digits = 0
  for (let i = 0; i < n; i++) {
    const c = t.charCodeAt(i)
    if (isDigit(c)) digits++
    else if (c !== 46 && c !== 101 && c !== 69 && c !== 43 && c !== 45) return NaN
  }
  if (digits === 0) return NaN
  const v = Number(t)
  return Number.isFinite(v) ? v : NaN
}

/** Exact powers of ten (10^0 … 10^22 are exactly representable as doubles). */
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i)

/**
 * `tok × 10^exp` for a printed decimal, correctly rounded (the same double as
 * `Number(tok + 'e' + exp)`, e.g. 40.12 µs → 4.012e-5 s): the digits form an exact integer
 * and one multiplication or division by an exact power of ten rounds once (Clinger's fast
 * path). Exponent forms and long tokens take the slow path. NaN when `tok` is no number.
 */
export function scaledDecimal(tok: string, exp: number): number {
  const n = tok.length
  let m = 0
  let digits = 0
  let decimals = -1
  let i = tok.charCodeAt(0) === 45 ? 1 : 0
  for (; i < n; i++) {
    const c = tok.charCodeAt(i)
    if (c >= 48 && c <= 57) {
      m = m * 10 + (c - 48)
      digits++
      if (decimals >= 0) decimals++
    } else if (c === 46 && decimals < 0) decimals = 0
    else return slowScaled(tok, exp)
  }
  if (digits === 0 || digits > 15) return slowScaled(tok, exp)
  if (tok.charCodeAt(0) === 45) m = -m
  const k = exp - Math.max(decimals, 0)
  if (k >= 0) return k <= 22 ? m * (POW10[k] as number) : slowScaled(tok, exp)
  return -k <= 22 ? m / (POW10[-k] as number) : slowScaled(tok, exp)
}

function slowScaled(tok: string, exp: number): number {
  const v = num(tok)
  if (Number.isNaN(v)) return NaN
  const r = tok.indexOf('e') === -1 && tok.indexOf('E') === -1 ? Number(`${tok}e${exp}`) : v * 10 ** exp
  return Number.isFinite(r) ? r : NaN
}

/** Cheap shape check of a result cell: `N/A`, or digits with `.`/exponent/sign chars. */
export function isCellShaped(t: string): boolean {
  const n = t.length
  if (n === 0 || n > 40) return false
  if (t === 'N/A') return true
  let digits = false
  for (let i = 0; i < n; i++) {
    const c = t.charCodeAt(i)
    if (c >= 48 && c <= 57) digits = true
    else if (c !== 46 && c !== 101 && c !== 69 && c !== 43 && c !== 45) return false
  }
  return digits
}

/** Half a unit in the last printed place of a decimal token (`0.57` → 0.005, `16330` → 0.5). */
export function halfUlp(t: string): number {
  if (t.indexOf('e') !== -1 || t.indexOf('E') !== -1) return Math.abs(num(t)) * 0.05
  const dot = t.indexOf('.')
  return dot < 0 ? 0.5 : 0.5 * 10 ** -(t.length - dot - 1)
}

/** True when `t` starts with an ASCII letter and holds only letters, digits and `_`. */
export function isWord(t: string): boolean {
  if (t.length === 0 || t.length > 24) return false
  const c0 = t.charCodeAt(0) | 32
  if (c0 < 97 || c0 > 122) return false
  for (let i = 1; i < t.length; i++) {
    const c = t.charCodeAt(i)
    const l = c | 32
    if (!(isDigit(c) || (l >= 97 && l <= 122) || c === 95)) return false
  }
  return true
}

/**
 * The collective a program name such as `./build/all_reduce_perf_mpi` names, by finding
 * `_perf` and reading the identifier before it; undefined when there is none.
 */
export function collectiveInText(s: string, known: ReadonlySet<string>): string | undefined {
  let from = 0
  for (;;) {
    const at = s.indexOf('_perf', from)
    if (at < 0) return undefined
    let start = at
    while (start > 0) {
      const c = s.charCodeAt(start - 1)
      if (!((c >= 97 && c <= 122) || c === 95)) break
      start--
    }
    const name = s.slice(start, at)
    if (known.has(name)) return name
    from = at + 5
  }
}
