/**
 * The nvbandwidth text parser line by line (issue 18, mutation testing of scope parsers-nvbw):
 * detection, matrices cut short or padded, blank lines, headers, the banner (versions, devices,
 * hostname), statuses (Running, Waived/Waiving, errors, the closing NOTE, a corrupt run),
 * summaries and the testcase a SUM line names, trials of joined runs, the small-buffer warning,
 * the end-of-file diagnostics and the meta caps. The texts are generated in the test with the
 * line shapes of nvbandwidth's output.cpp and the real fixtures (made-up numbers).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Row } from '../../src/model/index.ts'
import { parseText } from '../../src/parsers/_text.ts'
import { nvbandwidthParser as P } from '../../src/parsers/nvbandwidth/nvbandwidth.ts'
import type { ParseOutput } from '../../src/parsers/types.ts'

const parse = (lines: string[], trial?: number): ParseOutput =>
  parseText(P, lines.join('\n'), { file: 't.txt', ...(trial === undefined ? {} : { trial }) })
const cells = (o: ParseOutput): (string | number | null)[][] =>
  o.rows.map((r: Row) => [r.bench, r.src, r.dst, r.value, r.source.line])
const diag = (o: ParseOutput): (string | number)[][] =>
  o.diagnostics.map((d) => [d.line, d.severity, d.code, d.message])
type Tc = { name: string | null; status: string; line: number; error?: string; nameFrom?: string; matrices: unknown[] }
type Meta = Record<string, unknown> & { testcases: Tc[]; summaries: Record<string, unknown>[]; devices: unknown[] }
const meta = (o: ParseOutput): Meta => o.meta as Meta
const W = 'memcpy CE GPU(row) <- GPU(column) bandwidth (GB/s)'

test('detect: the version banner anywhere (srun labels too), else a Running line, a unit line and a SUM line together', () => {
  const d = (t: string[]): number => P.detect(t.join('\n'))
  assert.equal(d(['nvbandwidth Version: v0.8']), 0.95)
  assert.equal(d(['log', '0: nvbandwidth Version: v0.4']), 0.95)
  assert.equal(d(['x nvbandwidth Version: v0.8']), 0)
  const body = ['Running foo.', `${W}`, 'SUM foo 1']
  assert.equal(d(body), 0.8)
  assert.equal(d(['Running foo.  ', 'Latency GPU(row) -> GPU(column) (ns)  ', 'SUM foo 1']), 0.8)
  assert.equal(d(['1: Running foo.', `1: ${W}`, '1: SUM foo 1']), 0.8)
  assert.equal(d(['Running foo', W, 'SUM foo 1']), 0)
  assert.equal(d(['Running foo bar.', W, 'SUM foo 1']), 0)
  assert.equal(d(['x Running foo.', W, 'SUM foo 1']), 0)
  assert.equal(d(['Running foo.', 'bandwidth (MB/s)', 'SUM foo 1']), 0)
  assert.equal(d(['Running foo.', `${W} x`, 'SUM foo 1']), 0)
  assert.equal(d(['Running foo.', W, 'SUM foo']), 0)
  assert.equal(d(['Running foo.', W, 'x SUM foo 1']), 0)
  assert.equal(d(['Running foo.', W]), 0)
  assert.equal(d([W, 'SUM foo 1']), 0)
  assert.equal(d(['Running foo.', 'SUM foo 1']), 0)
})

test('rows: a short row loses its last (cut) cell, a long row keeps only the columns; both are said', () => {
  const o = parse([
    'Running device_to_device_memcpy_write_ce.',
    W,
    '           0         1         2',
    ' 0       N/A      1.50      2.50',
    ' 1      3.50       N/A',
    ' 2      5.50      6.50       N/A      9.99',
    '',
    'SUM device_to_device_memcpy_write_ce 19.5',
  ])
  const b = 'nvbw.device_to_device_memcpy_write_ce'
  assert.deepEqual(cells(o), [
    [b, 0, 1, 1.5e9, 4],
    [b, 0, 2, 2.5e9, 4],
    [b, 1, 0, 3.5e9, 5],
    [b, 2, 0, 5.5e9, 6],
    [b, 2, 1, 6.5e9, 6],
  ])
  assert.deepEqual(diag(o), [
    [5, 'warn', 'short-row', 'device_to_device_memcpy_write_ce: row 1 has 2 cells for 3 columns'],
    [6, 'warn', 'short-row', 'device_to_device_memcpy_write_ce: row 2 has 4 cells for 3 columns'],
    [2, 'info', 'na-cell', 'device_to_device_memcpy_write_ce: 2 N/A cells (the diagonal); no rows for them'],
  ])
  assert.deepEqual(meta(o).testcases[0]?.matrices, [
    { key: 'device_to_device_memcpy_write_ce', description: W, line: 2, rows: 3, columns: 3, emitted: 5, na: 2 },
  ])
})

test('rows: every cell shape a row may hold; a row with a non-numeric token is skipped with a warning, a lone label is not a row', () => {
  const o = parse([
    'Running device_to_device_memcpy_write_ce.',
    W,
    '   0   1   2   3   4   5',
    ' 0   +1.5   .25   2.   1e1   3E-1   -0',
    ' 1   nan   -inf   INF   N/A   -NaN   7',
    ' 2   1.0   x   3.0   4.0   5.0   6.0',
    ' 3',
    ' 4   1.0   2..0   3.0   4.0   5.0   6.0',
    ' 5   1.0   1e   3.0   4.0   5.0   6.0',
  ])
  const b = 'nvbw.device_to_device_memcpy_write_ce'
  assert.deepEqual(cells(o), [
    [b, 0, 0, 1.5e9, 4],
    [b, 0, 1, 0.25e9, 4],
    [b, 0, 2, 2e9, 4],
    [b, 0, 3, 10e9, 4],
    [b, 0, 4, 0.3e9, 4],
    [b, 0, 5, -0, 4],
    [b, 1, 5, 7e9, 5],
  ])
  assert.deepEqual(
    o.diagnostics.map((d) => [d.line, d.code]),
    [
      [6, 'bad-cell'],
      [8, 'bad-cell'],
      [9, 'bad-cell'],
      [5, 'bad-cell'],
      [5, 'bad-cell'],
      [5, 'bad-cell'],
      [5, 'bad-cell'],
      [2, 'na-cell'],
    ],
  )
})

test('blank lines: before the header or the first row they are skipped; after a row they end the matrix', () => {
  const o = parse([
    'Running device_local_copy.',
    'memcpy CE GPU(row) -> GPU(column) bandwidth (GB/s)',
    '',
    '   2   3',
    '',
    ' 0   1.00   2.00',
    '',
    ' 1   3.00   4.00',
  ])
  assert.deepEqual(cells(o), [
    ['nvbw.device_local_copy', 2, 2, 1e9, 6],
    ['nvbw.device_local_copy', 3, 3, 2e9, 6],
  ])
  // A header that is not numbers: the columns are counted.
  const h = parse(['Running device_local_copy.', 'x (row) (GB/s)', ' a b', ' 7 1.0 2.0'])
  assert.deepEqual(cells(h), [
    ['nvbw.device_local_copy', 0, 0, 1e9, 4],
    ['nvbw.device_local_copy', 1, 1, 2e9, 4],
  ])
  // A unit line needs (row) or (column) and a unit at the end; a matrix without Running is "unknown".
  const u = parse(['x (column) (ns)', '0', '0 5'])
  assert.deepEqual(cells(u), [['nvbw.unknown', 0, 0, 5e-9, 3]]) // (ns): latency
  assert.equal(parse(['x (GB/s)', '0', '0 5']).rows.length, 0)
  assert.equal(parse(['x (row) (GB/s) y', '0', '0 5']).rows.length, 0)
  assert.equal(parse(['x (row) (MB/s)', '0', '0 5']).rows.length, 0)
})

test('banner: versions and devices (first run wins), hostname only from the line just before device 0', () => {
  const o = parse([
    'nvbandwidth Version: v0.9',
    'Built from Git version: v0.9-3-gabc',
    'MPI version: Open MPI v4.1',
    'CUDA Runtime Version: 12080',
    'CUDA Driver Version (API): 13.0 (13000)',
    'Driver Version: 580.1 (x)',
    'my-host.a_1',
    '',
    'Device 0: GPU A (0000:01:00)',
    'Device 0: GPU dup',
    'Device 1: GPU B',
    'nvbandwidth Version: v0.10',
    'Built from Git version: other',
    'MPI version: other',
    'CUDA Runtime Version: 1',
    'CUDA Driver Version: 2',
    'Driver Version: 3',
    'other-host',
    'Device 0: GPU C',
  ])
  const m = meta(o)
  assert.deepEqual(
    [
      m.version,
      m.gitVersion,
      m.mpiVersion,
      m.cudaRuntimeVersion,
      m.cudaDriverVersion,
      m.driverVersion,
      m.hostname,
      m.runs,
    ],
    ['v0.9', 'v0.9-3-gabc', 'Open MPI v4.1', 12080, 13000, '580.1', 'my-host.a_1', 2],
  )
  assert.deepEqual(m.devices, [
    { index: 0, name: 'GPU A', pci: '0000:01:00' },
    { index: 1, name: 'GPU B', pci: null },
  ])
  assert.deepEqual(diag(o), [])
  const host = (lines: string[]): unknown => meta(parse(lines)).hostname
  assert.equal(host(['CUDA Driver Version: 12080', 'box', 'Device 0: G']), 'box')
  assert.equal(host(['box', 'Driver Version: 1', 'Device 0: G']), undefined) // not just before
  assert.equal(host(['my box', 'Device 0: G']), undefined)
  assert.equal(host(['box', 'Device 1: G']), undefined)
  assert.equal(host(['Device 1: G', 'box', 'Device 0: G']), undefined) // devices already listed
  assert.equal(host(['Device 0: G']), undefined)
})

test('statuses: Running (with "benchmark", without the dot), Waived and Waiving, errors, the closing NOTE', () => {
  const o = parse([
    'Running benchmark host_to_device_memcpy_ce.',
    'Running device_to_host_memcpy_ce',
    'Waived: ',
    'Waiving host_to_device_memcpy_sm.',
    'Waiving',
    'Running a_ce.',
    'ERROR: out of memory',
    'Running b_ce.',
    'Error invalid device',
    'Errors are fine',
    'NOTE: The reported results may not reflect the full capabilities of the platform.',
  ])
  const m = meta(o)
  assert.deepEqual(
    m.testcases.map((t) => [t.name, t.status, t.line, t.error]),
    [
      ['host_to_device_memcpy_ce', 'running', 1, undefined],
      ['device_to_host_memcpy_ce', 'running', 2, undefined],
      [null, 'waived', 3, undefined],
      ['host_to_device_memcpy_sm', 'waived', 4, undefined],
      [null, 'waived', 5, undefined],
      ['a_ce', 'error', 6, 'ERROR: out of memory'],
      ['b_ce', 'error', 8, 'Error invalid device'],
    ],
  )
  assert.equal(m.complete, true)
  assert.deepEqual(diag(o), [
    [3, 'info', 'waived', 'nvbandwidth waived a testcase: it cannot run on this system'],
    [4, 'info', 'waived', 'nvbandwidth waived a testcase (host_to_device_memcpy_sm): it cannot run on this system'],
    [5, 'info', 'waived', 'nvbandwidth waived a testcase: it cannot run on this system'],
    [7, 'warn', 'testcase-error', 'nvbandwidth: ERROR: out of memory'],
    [9, 'warn', 'testcase-error', 'nvbandwidth: Error invalid device'],
    [1, 'warn', 'incomplete', 'nvbandwidth testcase host_to_device_memcpy_ce started but printed no matrix'],
    [2, 'warn', 'incomplete', 'nvbandwidth testcase device_to_host_memcpy_ce started but printed no matrix'],
  ])
  assert.equal(meta(parse(['NOTE: other'])).complete, false)
  // An error with no testcase running is still said.
  assert.deepEqual(diag(parse(['ERROR x'])), [
    [1, 'warn', 'testcase-error', 'nvbandwidth: ERROR x'],
    [1, 'warn', 'no-data', 'no nvbandwidth output found'],
  ])
})
