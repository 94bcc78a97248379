/**
 * Hostile inputs that once made a parser quadratic in time or memory (issue: hardening):
 * a p2pBandwidthLatencyTest header grown to thousands of columns, long blank runs before a
 * stray character in nvbandwidth device lines, lspci trees and nvbandwidth JSON. Each must
 * parse in time and memory proportional to its size.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { test } from 'node:test'
import type { Parser } from '../../src/parsers/index.ts'
import { parserById, parseText } from '../../src/parsers/index.ts'
import { FIXTURES } from '../helpers.ts'

const P2P = join(FIXTURES, 'p2pBandwidthLatencyTest', 'puget-wrx90-2x-rtx6000ada-p2p-enabled.txt')
const parser = (id: string): Parser => parserById(id) as Parser
/** Linear parses of these ~100 KB inputs take a few ms; the quadratic ones took 1.2 to 56 s. */
const LIMIT_MS = 600

/**
 * Parses `text` with `id` (detect included); returns the best of three times (a busy machine
 * slows one run, a quadratic parse is slow every time) and the meta's JSON length.
 */
function cost(id: string, text: string): { ms: number; metaChars: number } {
  let ms = Infinity
  let metaChars = 0
  for (let i = 0; i < 3 && ms >= LIMIT_MS; i++) {
    const t0 = performance.now()
    const p = parser(id)
    p.detect(text.slice(0, 65536))
    const out = parseText(p, text, { file: 'hostile.txt' })
    ms = Math.min(ms, performance.now() - t0)
    metaChars = JSON.stringify(out.meta).length
  }
  return { ms, metaChars }
}

test('p2pBandwidthLatencyTest: a header line grown by 8,000 columns keeps the meta small (was 20 MB for 46 KB)', () => {
  const grown = readFileSync(P2P, 'utf8')
    .split('\n')
    .map((l) => (l.trim().startsWith('D\\D') ? l + Array.from({ length: 8000 }, (_, i) => ` ${i + 2}`).join('') : l))
    .join('\n')
  const c = cost('p2pBandwidthLatencyTest', grown)
  assert.ok(c.metaChars < 64 * 1024, `meta of ${c.metaChars} characters for ${grown.length} bytes`)
  // The real matrices still parse: the rows of the 2-GPU run are all there.
  const rows = parseText(parser('p2pBandwidthLatencyTest'), grown, { file: 'x' }).rows
  assert.ok(rows.some((r) => r.bench === 'p2p.latency' && r.src === 0 && r.dst === 1))
})

test('p2pBandwidthLatencyTest: a 100 KB line repeating "cuda" parses in well under a second', () => {
  const c = cost('p2pBandwidthLatencyTest', 'cuda-runtime: 13000 '.repeat(5_000))
  assert.ok(c.ms < LIMIT_MS, `${c.ms.toFixed(0)} ms`)
})

test('nvbandwidth: a Device line with 100 KB of blanks before a stray character parses in well under a second (was 10.9 s)', () => {
  for (const text of [`Device 0: ${' '.repeat(1e5)}x`, `Device 0: NVIDIA H100${' '.repeat(1e5)}(x`]) {
    const c = cost('nvbandwidth', text)
    assert.ok(c.ms < LIMIT_MS, `${c.ms.toFixed(0)} ms`)
  }
})

test('nvbandwidth JSON: 60 KB of blank lines and a device entry full of ": (" parse in well under a second', () => {
  const devices = `{"nvbandwidth": {"GPU Device list": ["0: A${': (x'.repeat(25_000)}"]}}`
  for (const text of [`\n${' \n'.repeat(3e4)}x`, devices]) {
    const c = cost('nvbandwidth-json', text)
    assert.ok(c.ms < LIMIT_MS, `${c.ms.toFixed(0)} ms`)
  }
})

test('lspci -tv: a 200 KB run of blanks and bars parses in well under a second', () => {
  for (const text of [`${' |'.repeat(1e5)}x`, `${' +-'.repeat(6e4)}x`]) {
    const c = cost('lspci-tv', text)
    assert.ok(c.ms < LIMIT_MS, `${c.ms.toFixed(0)} ms`)
  }
})
