/**
 * The parser fuzz engine shared by test/unit/parsers-fuzz.test.ts (a small count per parser)
 * and bench/fuzz.bench.ts (≥ 100,000 per parser): seeded mutations of every fixture (line
 * deletions, duplications and swaps, byte flips, truncation, garbage lines, hostile numbers,
 * CRLF, a line grown to thousands of columns, a line made very long), each parsed by one
 * parser, with what a hostile input must never cause checked on every case: a throw out of
 * the parser, an invalid row, a meta whose JSON is not bounded by the input's size.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { performance } from 'node:perf_hooks'
import { rowProblem } from '../src/model/index.ts'
import type { Parser } from '../src/parsers/index.ts'
import { mulberry32 } from '../src/random/index.ts'
import { FIXTURES } from './helpers.ts'

/** Meta JSON may hold at most this many characters plus META_PER_BYTE per input byte. */
export const META_BASE = 256 * 1024
export const META_PER_BYTE = 8

function fixtureFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e)
    if (statSync(p).isDirectory()) return fixtureFiles(p)
    return e.endsWith('.source.txt') ? [] : [p]
  })
}

/** Every fixture, split in lines. */
export const FILES = fixtureFiles(FIXTURES)
  .sort()
  .map((p) => ({ name: relative(FIXTURES, p), lines: readFileSync(p, 'utf8').split('\n') }))

const GARBAGE = [
  '',
  '#',
  '# nThread',
  '#  Rank',
  'N/A N/A N/A',
  '{',
  '}',
  '[',
  '"results": [',
  '\u0000\u0001',
  '\x1b[4mGPU0\x1b[0m',
  'Device: 0, X, pciBusID: zz',
  '   D\\D     0     1',
  'nan inf -inf 1e309',
  ' 8 2 float sum -1 1 2 3 4 5 6 7 8',
  'GPU0\tX\tOK\t',
  '-+-[0000:00]-+-00.0',
  `   ${'9'.repeat(400)}`,
  'é∂ƒ©˙∆˚¬…æ',
  'SUM device_to_device_memcpy_read_ce 1e+308',
]
const NUMBERS = [
  'NaN',
  'nan',
  '-1',
  '-0',
  '1e308',
  '1e-320',
  '99999999999999999999999',
  'Infinity',
  '0x1F',
  '',
  '-',
  '1.2.3',
  '1e',
  '4294967296',
]

/** How big the grown inputs may get: columns added to a line, characters of a long line. */
export interface FuzzScale {
  maxColumns: number
  maxLineChars: number
}

/** A line with `n` more columns, continuing its own last tokens (or counting up). */
function manyColumns(line: string, n: number, rnd: () => number): string {
  const tk = line.trim().split(/[ \t]+/)
  const sep = line.includes('\t') ? '\t' : ' '
  const counting = rnd() < 0.5
  const parts: string[] = []
  for (let k = 0; k < n; k++) parts.push(counting ? String(tk.length + k) : (tk[k % tk.length] as string).slice(0, 12))
  return line + sep + parts.join(sep)
}

/** A line made `n` characters long: a run of blanks then a stray character, or the line repeated. */
function longLine(line: string, n: number, rnd: () => number): string {
  const r = rnd()
  if (r < 0.4) {
    const cut = Math.floor(rnd() * (line.length + 1))
    return `${line.slice(0, cut)}${(rnd() < 0.5 ? ' ' : '\t').repeat(n)}${'x(:=,'[Math.floor(rnd() * 5)]}${line.slice(cut)}`
  }
  if (r < 0.7) return line.repeat(Math.ceil(n / Math.max(1, line.length))).slice(0, n)
  return `${line}${'9'.repeat(n)}`
}

/** One to three mutations of `lines`. */
export function mutate(lines: string[], rnd: () => number, scale: FuzzScale): string[] {
  const pick = (n: number): number => Math.floor(rnd() * n)
  const out = lines.slice()
  const ops = 1 + pick(3)
  for (let k = 0; k < ops && out.length > 0; k++) {
    const i = pick(out.length)
    const line = out[i] as string
    switch (pick(11)) {
      case 0:
        out.splice(i, 1)
        break
      case 1:
        out.splice(i, 0, line)
        break
      case 2: {
        const j = pick(out.length)
        out[i] = out[j] as string
        out[j] = line
        break
      }
      case 3: {
        const p = pick(line.length + 1)
        out[i] = line.slice(0, p) + String.fromCharCode(pick(256)) + line.slice(p + 1)
        break
      }
      case 4:
        out.length = i + 1
        out[i] = line.slice(0, pick(line.length + 1))
        break
      case 5:
        out.splice(i, 0, GARBAGE[pick(GARBAGE.length)] as string)
        break
      case 6:
        out[i] = line.replace(/-?\d+(?:\.\d+)?(?:e[-+]?\d+)?/g, (m) =>
          rnd() < 0.3 ? (NUMBERS[pick(NUMBERS.length)] as string) : m,
        )
        break
      case 7:
        for (let j = 0; j < out.length; j++) out[j] = `${out[j]}\r`
        break
      case 8:
        // Rare and large: every 8th draw of this case grows a line to many columns.
        if (pick(8) === 0) out[i] = manyColumns(line, 1 + pick(scale.maxColumns), rnd)
        else out[i] = manyColumns(line, 1 + pick(64), rnd)
        break
      case 9:
        if (pick(8) === 0) out[i] = longLine(line, 1 + pick(scale.maxLineChars), rnd)
        else out[i] = longLine(line, 1 + pick(4096), rnd)
        break
      default:
        out[i] = line.split(/(\s+)/).reverse().join('')
        break
    }
  }
  return out
}

/** What one parse cost. */
export interface CaseCost {
  ms: number
  bytes: number
  metaChars: number
}

/** Parses `lines` with `p`, checking rows and meta; throws with what went wrong. */
export function runCase(p: Parser, lines: readonly string[], trial: number): CaseCost {
  const t0 = performance.now()
  p.detect(lines.join('\n').slice(0, 65536))
  const rows: unknown[] = []
  const lp = p.open({ file: 'fuzz.txt', trial }, (r) => rows.push(r))
  let bytes = 0
  for (let i = 0; i < lines.length; i++) {
    lp.line(lines[i] as string, i + 1)
    bytes += (lines[i] as string).length + 1
  }
  const { meta, diagnostics } = lp.end()
  const metaChars = JSON.stringify(meta).length
  const ms = performance.now() - t0
  for (const r of rows) {
    const problem = rowProblem(r)
    if (problem) throw new Error(`invalid row (${problem}): ${JSON.stringify(r).slice(0, 300)}`)
  }
  if (!Array.isArray(diagnostics) || typeof meta !== 'object' || meta === null)
    throw new Error('end() returned no meta/diagnostics')
  if (metaChars > META_BASE + META_PER_BYTE * bytes)
    throw new Error(`meta of ${metaChars} characters for ${bytes} bytes of input`)
  return { ms, bytes, metaChars }
}

/** One generated case: its seed, the fixture it came from, and the mutated lines. */
export interface FuzzCase {
  seed: number
  name: string
  lines: string[]
  trial: number
}

/** Case `c` of parser number `pi`: a slice of a fixture (now and then all of it), mutated. */
export function makeCase(pi: number, c: number, scale: FuzzScale): FuzzCase {
  const seed = pi * 1_000_003 + c
  const rnd = mulberry32(seed)
  const file = FILES[c % FILES.length] as (typeof FILES)[number]
  const whole = c % 50 === 0
  const start = whole ? 0 : Math.floor(rnd() * file.lines.length)
  const slice = whole ? file.lines : file.lines.slice(start, start + 4 + Math.floor(rnd() * 36))
  return { seed, name: file.name, lines: mutate(slice, rnd, scale), trial: c % 7 }
}
