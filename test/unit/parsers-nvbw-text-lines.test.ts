/**
 * The nvbandwidth text parser on lines that only look like its own (issue 18, mutation testing
 * of scope parsers-nvbw): banner, status, summary and error lines that do not start the line,
 * blanks where the format prints one or none, indented lines, matrices without rows or without
 * a Running line, and lines that are no hostname. Generated lines with the shapes of nvbandwidth's output.cpp.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { parseText } from '../../src/parsers/_text.ts'
import { nvbandwidthParser as P } from '../../src/parsers/nvbandwidth/nvbandwidth.ts'
import type { ParseOutput } from '../../src/parsers/types.ts'

const parse = (lines: string[]): ParseOutput => parseText(P, lines.join('\n'), { file: 't.txt' })
const diag = (o: ParseOutput): (string | number)[][] =>
  o.diagnostics.map((d) => [d.line, d.severity, d.code, d.message])
const meta = (o: ParseOutput): Record<string, unknown> => o.meta
const W = 'memcpy CE GPU(row) <- GPU(column) bandwidth (GB/s)'

test('a banner, status, summary or error line that does not start the line is just a line', () => {
  const o = parse([
    'echo nvbandwidth Version: v0.1',
    'x Built from Git version: g0',
    'x MPI version: m0',
    'x CUDA Runtime Version: 1',
    'x CUDA Driver Version: 2',
    'x Driver Version: 3',
    'x Running foo.',
    'x Waived: ',
    'x ERROR: y',
    'x Invalid value when checking the pattern',
    'x SUM k 1',
    'x &&&& PERF k 1',
    '&&&& PERF k 1 u extra',
  ])
  const m = meta(o)
  assert.deepEqual(
    [m.version, m.gitVersion, m.mpiVersion, m.cudaRuntimeVersion, m.cudaDriverVersion, m.driverVersion, m.runs],
    [null, null, undefined, null, null, null, 0],
  )
  assert.deepEqual([m.testcases, m.summaries, m.commandLine], [[], [], 'echo nvbandwidth Version: v0.1'])
  assert.deepEqual(diag(o), [[13, 'warn', 'no-data', 'no nvbandwidth output found']])
})

test('blanks: more than one where the format prints one, none after a colon; indented lines', () => {
  const o = parse([
    'nvbandwidth Version:  v0.9',
    'Built from Git version:  g1',
    'MPI version:  m1',
    'CUDA Runtime Version:12080',
    'CUDA Driver Version (API):13000',
    'Driver Version:  580',
    'SUM  a  1',
    '&&&& PERF  b  2  u',
  ])
  const m = meta(o)
  assert.deepEqual(
    [m.version, m.gitVersion, m.mpiVersion, m.cudaRuntimeVersion, m.cudaDriverVersion, m.driverVersion, m.commandLine],
    ['v0.9', 'g1', 'm1', 12080, 13000, '580', null],
  )
  assert.deepEqual(m.summaries, [
    { kind: 'SUM', key: 'a', value: 1, line: 7 },
    { kind: 'PERF', key: 'b', value: 2, unit: 'u', line: 8 },
  ])
  assert.equal(meta(parse(['CUDA Driver Version: 12080'])).cudaDriverVersion, 12080)
  // Indented lines read as if they were not; a line of blanks ends a matrix like an empty one.
  const i = parse([
    '   nvbandwidth Version: v0.8',
    '  Running device_local_copy.',
    W,
    ' 0 1',
    ' 0 1.0 2.0',
    '   ',
    ' 1 3.0 4.0',
  ])
  assert.equal(meta(i).version, 'v0.8')
  assert.deepEqual(
    i.rows.map((r) => [r.bench, r.value, r.source.line]),
    [
      ['nvbw.device_local_copy', 1e9, 5],
      ['nvbw.device_local_copy', 2e9, 5],
    ],
  )
})

test('matrices: none without rows, the testcase status an error keeps, no Running line at all; cell shapes', () => {
  const empty = parse(['Running x_ce.', W, '  0  1', 'SUM x_ce 1'])
  const tc = (o: ParseOutput): unknown[] =>
    (meta(o).testcases as { name: string; status: string; matrices: unknown[] }[]).map((t) => [
      t.name,
      t.status,
      t.matrices.length,
    ])
  assert.deepEqual(tc(empty), [['x_ce', 'running', 0]])
  assert.deepEqual(
    empty.diagnostics.map((d) => d.code),
    ['incomplete'],
  )
  const err = parse(['Running x_ce.', 'ERROR: y', W, '0 1', '0 N/A 1.0'])
  assert.deepEqual(tc(err), [['x_ce', 'error', 1]])
  assert.equal(err.rows.length, 1)
  const bare = parse(['x (column) (ns)', '0', '0 5'])
  assert.deepEqual(diag(bare), [[3, 'warn', 'no-data', 'no nvbandwidth output found']])
  assert.equal(bare.rows.length, 1)
  // The testcase a SUM line names loses only a part suffix at the end of the key.
  assert.deepEqual(tc(parse(['x (row) (GB/s)', '0', '0 1', 'SUM ab_total_x 1'])), [['ab_total_x', 'passed', 1]])
  assert.deepEqual(meta(parse(['Waived:'])).testcases, [{ name: null, status: 'waived', line: 1, matrices: [] }])
  // Multi-digit cells, exponents of two digits; a row label that is not a number is no row.
  const c = parse(['Running device_local_copy.', W, '0 1', '0 12.5 1e10', 'x 1.0 2.0', '1 2E+12 .5'])
  assert.deepEqual(
    c.rows.map((r) => [r.src, r.value]),
    [
      [0, 12.5e9],
      [1, 1e19],
      [0, 2e21],
      [1, 0.5e9],
    ],
  )
})

test('lines that are no hostname: a matrix header, an error, an abort just before device 0', () => {
  const host = (lines: string[]): unknown => meta(parse(lines)).hostname
  assert.equal(host(['Running x.', W, '0', 'Device 0: G']), undefined)
  assert.equal(host(['Aborted', 'Device 0: G']), undefined)
  assert.equal(host(['ERROR', 'Device 0: G']), undefined)
  assert.equal(host(['gpubox', 'Device 0: G']), 'gpubox')
})

test('detect: the Running line ends with its dot', () => {
  assert.equal(P.detect(['Running foo.x', W, 'SUM foo 1'].join('\n')), 0)
  assert.equal(P.detect(['Running foo.', W, 'SUM foo 1'].join('\n')), 0.8)
})
