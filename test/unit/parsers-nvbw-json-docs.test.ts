/**
 * The nvbandwidth -j parser over a whole file (issue 18, mutation testing of scope
 * parsers-nvbw): several documents and their trials, the first header value kept, log lines
 * around the documents, documents that are not nvbandwidth's, do not parse or never close, an
 * empty file, the caps on meta, and detection. Generated documents with the
 * field names of nvbandwidth's json_output.cpp (made-up numbers).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { SIM_MARKER } from '../../src/model/index.ts'
import { parseText } from '../../src/parsers/_text.ts'
import { nvbandwidthJsonParser as P } from '../../src/parsers/nvbandwidth/nvbandwidth-json.ts'
import type { ParseOutput } from '../../src/parsers/types.ts'

const parse = (lines: string[], trial?: number): ParseOutput =>
  parseText(P, lines.join('\n'), { file: 'j.json', ...(trial === undefined ? {} : { trial }) })
const diag = (o: ParseOutput): (string | number)[][] =>
  o.diagnostics.map((d) => [d.line, d.severity, d.code, d.message])
const meta = (o: ParseOutput): Record<string, unknown> => o.meta
/** A one-line document with one testcase holding a 1 × 1 matrix. */
const doc = (head: string, value: string): string =>
  `{"nvbandwidth": {${head}"testcases": [{"name": "device_local_copy", "status": "passed", "bandwidth_matrix": [["${value}"]]}]}}`

test('several documents: trials count up from the origin, the first header values are kept, log lines are skipped', () => {
  const o = parse(
    [
      'log line',
      `${SIM_MARKER} nvbandwidth`,
      '$ nvbandwidth -j',
      doc(
        '"version": "v0.8", "git_version": "a", "CUDA Runtime Version": 1, "Driver Version": "d1", "error": "e1", ',
        '1',
      ),
      'between',
      `   ${doc('"version": "v0.9", "git_version": "b", "CUDA Runtime Version": 2, "Driver Version": "d2", "error": "e2", ', '2')}`,
      `\t${doc('"CUDA Runtime Version": "3", ', '3')}`,
    ],
    2,
  )
  assert.deepEqual(
    o.rows.map((r) => [r.value, r.trial, r.source.line]),
    [
      [1e9, 2, 4],
      [2e9, 3, 6],
      [3e9, 4, 7],
    ],
  )
  const m = meta(o)
  assert.deepEqual(
    [m.version, m.gitVersion, m.cudaRuntimeVersion, m.driverVersion, m.error, m.runs, m.simulated, m.commandLine],
    ['v0.8', 'a', 1, 'd1', 'e1', 3, true, '$ nvbandwidth -j'],
  )
  assert.deepEqual(
    o.diagnostics.filter((d) => d.code === 'corrupt-run').map((d) => [d.line, d.message]),
    [
      [4, 'nvbandwidth error, the run is corrupt: e1'],
      [6, 'nvbandwidth error, the run is corrupt: e2'],
    ],
  )
  // No trial given: 0 for the first document.
  assert.deepEqual(
    parse([doc('', '1'), doc('', '2')]).rows.map((r) => r.trial),
    [0, 1],
  )
  // A CUDA version that is not a number is not kept; a later number is.
  assert.equal(meta(parse([doc('"CUDA Runtime Version": "12080", ', '1')])).cudaRuntimeVersion, null)
  assert.equal(
    meta(parse([doc('"CUDA Runtime Version": "1", ', '1'), doc('"CUDA Runtime Version": 5, ', '1')]))
      .cudaRuntimeVersion,
    5,
  )
})

test('documents that are not nvbandwidth, do not parse or never close; no document at all', () => {
  const o = parse(['{"x": 1}', '{"nvbandwidth": [1]}', '{"nvbandwidth": null}', '{"nvbandwidth": 5}', '[1, 2]'])
  assert.deepEqual(diag(o), [
    [1, 'warn', 'not-nvbandwidth', 'JSON document from line 1 has no "nvbandwidth" object'],
    [2, 'warn', 'not-nvbandwidth', 'JSON document from line 2 has no "nvbandwidth" object'],
    [3, 'warn', 'not-nvbandwidth', 'JSON document from line 3 has no "nvbandwidth" object'],
    [4, 'warn', 'not-nvbandwidth', 'JSON document from line 4 has no "nvbandwidth" object'],
  ])
  assert.deepEqual([meta(o).runs, meta(o).complete], [0, false])
  const bad = parse(['x', '{', ' "nvbandwidth": {,', '}}', doc('', '7')])
  assert.deepEqual(
    diag(bad).map((d) => d.slice(0, 3)),
    [[2, 'error', 'bad-json']],
  )
  assert.match(String(diag(bad)[0]?.[3]), /^JSON document on lines 2-4 does not parse: /)
  assert.deepEqual(
    bad.rows.map((r) => [r.value, r.source.line]),
    [[7e9, 5]],
  )
  const cut = parse(['x', '{"nvbandwidth": {', '"testcases": ['])
  assert.deepEqual(diag(cut), [[2, 'error', 'incomplete', 'JSON document from line 2 never closes (cut short?)']])
  assert.deepEqual(diag(parse([])), [[1, 'warn', 'no-data', 'no nvbandwidth JSON document found']])
  assert.deepEqual(diag(parse(['a', 'b', '[1]'])), [[3, 'warn', 'no-data', 'no nvbandwidth JSON document found']])
  assert.deepEqual(meta(parse([])).bufferSize, { bytes: null, source: 'unknown' })
  assert.deepEqual(meta(parse([doc('"version": "v0.7", ', '1')])).bufferSize, {
    bytes: 512 * 2 ** 20,
    source: 'version-default',
  })
})

test('testcase lines: a name that is not a string or is escaped keeps the last line found; statuses must be exact', () => {
  const o = parse([
    '{"nvbandwidth": {"testcases": [',
    '{"name": "a", "status": "passed"},',
    '{"name": 5, "status": "passed"},',
    '{"name": "x\\u005fce", "status": "passed"},',
    '{"name": "w", "status": "Waived2"},',
    '{"name": "v", "status": "unwaived"},',
    '{"name": "p", "status": "Passed2"},',
    '{"name": "q", "status": "unpassed"},',
    '{"name": "n", "status": "passed"},',
    '{"name": "k", "status": "passed", "bandwidth_matrix": [["2"]]},',
    '{"name": "m", "status": "passed", "bandwidth\\u005fmatrix": [["1"]]}',
    ']}}',
  ])
  const tcs = meta(o).testcases as { name: string; line: number }[]
  assert.deepEqual(
    tcs.map((t) => [t.name, t.line]),
    [
      ['a', 2],
      ['unknown', 2],
      ['x_ce', 2],
      ['w', 5],
      ['v', 6],
      ['p', 7],
      ['q', 8],
      ['n', 9],
      ['k', 10],
      ['m', 11],
    ],
  )
  assert.deepEqual(diag(o), [
    [5, 'warn', 'testcase-error', 'nvbandwidth w: status Waived2'],
    [6, 'warn', 'testcase-error', 'nvbandwidth v: status unwaived'],
    [7, 'warn', 'testcase-error', 'nvbandwidth p: status Passed2'],
    [8, 'warn', 'testcase-error', 'nvbandwidth q: status unpassed'],
  ])
  // A matrix key written with an escape is not found by the line scan: its row cites the document's first line.
  assert.deepEqual(
    o.rows.map((r) => [r.bench, r.value, r.source.line]),
    [
      ['nvbw.k', 2e9, 10],
      ['nvbw.m', 1e9, 1],
    ],
  )
})

test('a document over 64 MiB is given up at the line that passes the limit; the next one is read', () => {
  const lp = P.open({ file: 'big.json' }, () => {})
  const rows: number[] = []
  const lp2 = P.open({ file: 'big.json' }, (r) => rows.push(r.source.line))
  const mib = 'y'.repeat(2 ** 20)
  for (const p of [lp, lp2]) {
    p.line('{"nvbandwidth": {"x": "', 1)
    for (let i = 2; i <= 65; i++) p.line(mib, i)
  }
  lp2.line('"}}', 66)
  lp2.line(doc('', '4'), 67)
  const msg = 'JSON document from line 1 exceeds 67108864 characters; skipped'
  assert.deepEqual(
    lp.end().diagnostics.map((d) => [d.line, d.severity, d.code, d.message]),
    [[1, 'error', 'json-too-large', msg]],
  )
  assert.deepEqual(
    lp2.end().diagnostics.map((d) => d.code),
    ['json-too-large'],
  )
  assert.deepEqual(rows, [67])
})

test('meta keeps at most 1024 devices and testcases', () => {
  const devices = Array.from({ length: 1030 }, (_, i) => JSON.stringify(`${i}: G`)).join(',')
  const tcs = Array.from({ length: 1030 }, (_, i) => `{"name": "t${i}", "status": "passed"}`).join(',\n')
  const o = parse(['{"nvbandwidth": {', `"GPU Device list": [${devices}],`, `"testcases": [${tcs}]`, '}}'])
  assert.equal((meta(o).devices as unknown[]).length, 1024)
  assert.equal((meta(o).testcases as unknown[]).length, 1024)
  assert.equal(meta(o).hostname, undefined)
})

test('detect: an opening brace at the start of a line and an "nvbandwidth" key', () => {
  assert.equal(P.detect('{"nvbandwidth": {}}'), 0.95)
  assert.equal(P.detect('log\n  \t{\n "nvbandwidth"  : {'), 0.95)
  assert.equal(P.detect('x {"nvbandwidth": {}}'), 0)
  assert.equal(P.detect('{"nvbandwidth" {}}'), 0)
  assert.equal(P.detect('{nvbandwidth: {}}'), 0)
  assert.equal(P.detect('"nvbandwidth": {}'), 0)
})
