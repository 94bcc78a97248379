/**
 * Seeded mutation test over EVERY parser in the registry and every fixture of every tool
 * (engine: test/fuzz.ts): no parser may throw, every row it emits must be a valid Row, its meta
 * stays bounded by the input's size, and each case finishes under 50 ms plus 1 s per MB (lines
 * grown to thousands of columns or 64 KB included). `npm run bench` runs 100,000 per parser.
 */

import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Parser } from '../../src/parsers/index.ts'
import { PARSERS } from '../../src/parsers/index.ts'
import type { CaseCost, FuzzCase } from '../fuzz.ts'
import { FILES, makeCase, runCase } from '../fuzz.ts'

const CASES = 10_000
const SCALE = { maxColumns: 8_000, maxLineChars: 64 * 1024 }
const limitMs = (bytes: number): number => 50 + (1000 * bytes) / 1e6

/** runCase, failing the test with the seed and fixture when the parser throws or emits a bad row. */
function guarded(p: Parser, k: FuzzCase): CaseCost {
  try {
    return runCase(p, k.lines, k.trial)
  } catch (e) {
    return assert.fail(`${p.id}: seed ${k.seed} (${k.name}): ${(e as Error).stack}`)
  }
}

for (const [pi, parser] of PARSERS.entries()) {
  test(`fuzz: ${parser.id} survives ${CASES} mutated inputs (valid rows, bounded meta, < 50 ms + 1 s/MB each)`, () => {
    assert.ok(FILES.length > 20)
    let slowest = 0
    const slow: FuzzCase[] = []
    for (let c = 0; c < CASES; c++) {
      const k = makeCase(pi, c, SCALE)
      const cost = guarded(parser, k)
      if (cost.ms >= limitMs(cost.bytes)) slow.push(k)
      else slowest = Math.max(slowest, cost.ms)
    }
    // A slow case is timed again later, after a pause: the limit is on the parse, not on a
    // GC pause or a busy machine; a parse that is really slow stays slow every time.
    for (const k of slow) {
      let best = Infinity
      let bytes = 0
      for (let i = 0; i < 5 && best >= limitMs(bytes); i++) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25)
        const cost = guarded(parser, k)
        best = Math.min(best, cost.ms)
        bytes = cost.bytes
      }
      assert.ok(best < limitMs(bytes), `${parser.id}: seed ${k.seed} (${k.name}) took ${best.toFixed(1)} ms`)
      slowest = Math.max(slowest, best)
    }
    console.log(`# ${parser.id}: ${CASES} cases, slowest ${slowest.toFixed(2)} ms`)
  })
}
