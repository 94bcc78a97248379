/**
 * The shared pieces of the matrix parsers (src/parsers/_matrix-common.ts) at their edges, on
 * hand-written tokens and GENERATED lines: `--tag-output` prefixes with multi-digit ranks or not at
 * the line start, numbers whose exact decimal scaling differs from a float product (12.5 µs is
 * 1.25e-5 s, not 12.5 × 1e-6), exponent forms, blanks around a token, the severity of an overflow
 * summary, and a row sink that throws while a line is read or at the end (one parser-error diagnostic).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Row } from '../../src/model/index.ts'
import { cleanLine, DiagSink, scaled } from '../../src/parsers/_matrix-common.ts'
import type { Parser } from '../../src/parsers/index.ts'
import { parserById } from '../../src/parsers/index.ts'

test('cleanLine: --tag-output prefixes with ranks of several digits; a tag not at the line start stays', () => {
  assert.equal(cleanLine('[10,1]<stdout>: 0 1.00'), '0 1.00')
  assert.equal(cleanLine('[1,10]<stderr>:  0 1.00'), ' 0 1.00')
  assert.equal(cleanLine('[x] [1,0]<stdout>: y'), '[x] [1,0]<stdout>: y')
})

test('scaled: a decimal is scaled as written, never through a float product', () => {
  // Float products of these are off by an ulp: 12.5 × 1e-6 = 1.2499999999999999e-5, 5 × 1e-6 = 4.9999999999999996e-6.
  assert.equal(scaled('12.5', -6), 1.25e-5)
  assert.equal(scaled('+12.5', -6), 1.25e-5)
  assert.equal(scaled('5', -6), 5e-6)
  assert.equal(scaled('.57', -6), 5.7e-7)
  assert.equal(scaled('-.57', -6), -5.7e-7)
})

test('scaled: exponent forms with a sign, several digits or a leading point; blanks and junk are no number', () => {
  assert.equal(scaled('+1e5', 0), 1e5)
  assert.equal(scaled('12e3', 0), 12e3)
  assert.equal(scaled('.5e3', 0), 500)
  assert.equal(scaled('12.5e3', 0), 12500)
  assert.equal(scaled('.25e3', 0), 250)
  assert.equal(scaled('1e10', 0), 1e10)
  assert.equal(scaled('2.5E-3', 3), 2.5)
  for (const bad of [' 1e5', '1e5 ', 'x1e5', '1e5x', '1e', 'e5', '.e5', '1.2.3e1'])
    assert.equal(scaled(bad, 0), undefined, bad)
})

test('DiagSink: an overflow summary takes the severity of its own code, not of the first diagnostic kept', () => {
  const sink = new DiagSink('g.txt')
  sink.add(1, 'info', 'a', 'first')
  for (let i = 0; i < 51; i++) sink.add(2 + i, 'warn', 'b', 'x')
  assert.deepEqual(sink.finish().at(-1), {
    file: 'g.txt',
    line: 52,
    severity: 'warn',
    code: 'b',
    message: '1 more "b" diagnostics not listed (51 in all)',
  })
})

/** Feeds `lines` to parser `id` with row sink `emit`; what its end() returns. */
function feed(id: string, emit: (r: Row) => void, lines: string[]) {
  const lp = (parserById(id) as Parser).open({ file: 'g.txt' }, emit)
  lines.forEach((l, i) => lp.line(l, i + 1))
  return lp.end()
}

test('a row sink that throws: one parser-error diagnostic for that line, and the lines after are still read', () => {
  const rows: Row[] = []
  const out = feed(
    'p2pBandwidthLatencyTest',
    (r) => {
      if (r.src === 0) throw new Error('sink full')
      rows.push(r)
    },
    ['P2P=Enabled Latency Matrix (us)', '   GPU     0      1', '     0   1.00   2.00', '     1   3.00   4.00'],
  )
  assert.deepEqual(
    rows.map((r) => [r.src, r.dst]),
    [
      [1, 0],
      [1, 1],
    ],
  )
  assert.deepEqual(
    out.diagnostics.filter((d) => d.code === 'parser-error').map((d) => [d.line, d.severity, d.message]),
    [[3, 'error', 'p2pBandwidthLatencyTest parser failed on this line: Error: sink full']],
  )
})

test('a row sink that throws while the last matrix is flushed: one parser-error at the last line, "at the end"', () => {
  const lines = [
    'Running host_to_device_memcpy_ce.',
    'memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)',
    '           0         1',
    ' 0     26.00     26.00',
  ]
  const out = feed(
    'nvbandwidth',
    () => {
      throw new Error('sink full')
    },
    lines,
  )
  assert.deepEqual(
    out.diagnostics.map((d) => [d.line, d.severity, d.code, d.message]),
    [[4, 'error', 'parser-error', 'nvbandwidth parser failed at the end: Error: sink full']],
  )
})
