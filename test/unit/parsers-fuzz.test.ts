/**
 * Seeded mutation test over EVERY parser in the registry and every fixture of every tool:
 * no parser may throw, every row it emits must be a valid Row, and each case must finish
 * under 50 ms. Cases are small slices of the fixtures (whole files now and then), mutated
 * by line deletions/duplications/swaps, byte flips, truncation, garbage lines, hostile
 * numbers and CRLF, so 10,000 cases per parser stay cheap.
 */

import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { performance } from 'node:perf_hooks'
import { test } from 'node:test'
import { rowProblem } from '../../src/model/index.ts'
import type { Parser } from '../../src/parsers/index.ts'
import { PARSERS } from '../../src/parsers/index.ts'
import { mulberry32 } from '../../src/random/index.ts'
import { FIXTURES } from '../helpers.ts'

const CASES = 10_000
const LIMIT_MS = 50

function fixtureFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e)
    if (statSync(p).isDirectory()) return fixtureFiles(p)
    return e.endsWith('.source.txt') ? [] : [p]
  })
}
const FILES = fixtureFiles(FIXTURES)
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

function mutate(lines: string[], rnd: () => number): string[] {
  const pick = (n: number): number => Math.floor(rnd() * n)
  const out = lines.slice()
  const ops = 1 + pick(3)
  for (let k = 0; k < ops && out.length > 0; k++) {
    const i = pick(out.length)
    const line = out[i] as string
    switch (pick(9)) {
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
      default:
        out[i] = line.split(/(\s+)/).reverse().join('')
        break
    }
  }
  return out
}

/** Runs one parse; returns the time it took, or throws with what went wrong. */
function runCase(p: Parser, lines: string[], trial: number): number {
  const t0 = performance.now()
  p.detect(lines.join('\n').slice(0, 65536))
  const rows: unknown[] = []
  const lp = p.open({ file: 'fuzz.txt', trial }, (r) => rows.push(r))
  for (let i = 0; i < lines.length; i++) lp.line(lines[i] as string, i + 1)
  const { meta, diagnostics } = lp.end()
  const ms = performance.now() - t0
  for (const r of rows) {
    const problem = rowProblem(r)
    if (problem) throw new Error(`invalid row (${problem}): ${JSON.stringify(r)}`)
  }
  if (!Array.isArray(diagnostics) || typeof meta !== 'object' || meta === null)
    throw new Error('end() returned no meta/diagnostics')
  JSON.stringify(meta)
  return ms
}

/** runCase, failing the test with the seed and fixture when the parser throws or emits a bad row. */
function guarded(p: Parser, lines: string[], trial: number, seed: number, name: string): number {
  try {
    return runCase(p, lines, trial)
  } catch (e) {
    return assert.fail(`${p.id}: seed ${seed} (${name}): ${(e as Error).stack}`)
  }
}

for (const [pi, parser] of PARSERS.entries()) {
  test(`fuzz: ${parser.id} survives ${CASES} mutated inputs (valid rows, < ${LIMIT_MS} ms each)`, () => {
    assert.ok(FILES.length > 20)
    let slowest = 0
    const slow: { seed: number; name: string; lines: string[]; trial: number }[] = []
    for (let c = 0; c < CASES; c++) {
      const seed = pi * 1_000_003 + c
      const rnd = mulberry32(seed)
      const file = FILES[c % FILES.length] as (typeof FILES)[number]
      const whole = c % 50 === 0
      const start = whole ? 0 : Math.floor(rnd() * file.lines.length)
      const slice = whole ? file.lines : file.lines.slice(start, start + 4 + Math.floor(rnd() * 36))
      const lines = mutate(slice, rnd)
      const ms = guarded(parser, lines, c % 7, seed, file.name)
      if (ms >= LIMIT_MS) slow.push({ seed, name: file.name, lines, trial: c % 7 })
      else slowest = Math.max(slowest, ms)
    }
    // A slow case is timed again later, after a pause: the limit is on the parse, not on a
    // GC pause or a busy machine; a parse that is really slow stays slow every time.
    for (const k of slow) {
      let best = Infinity
      for (let i = 0; i < 5 && best >= LIMIT_MS; i++) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25)
        best = Math.min(best, guarded(parser, k.lines, k.trial, k.seed, k.name))
      }
      assert.ok(best < LIMIT_MS, `${parser.id}: seed ${k.seed} (${k.name}) took ${best.toFixed(1)} ms`)
      slowest = Math.max(slowest, best)
    }
    console.log(`# ${parser.id}: ${CASES} cases, slowest ${slowest.toFixed(2)} ms`)
  })
}
