/**
 * The nvbandwidth text parser across a run (issue 18, mutation testing of scope parsers-nvbw):
 * summary lines (SUM, MIN/MAX/AVG, `&&&& PERF`), the testcase a SUM line names when no Running
 * line did, a corrupt run, the small-buffer warning and the buffer size, trials of joined runs,
 * the end-of-file diagnostics and the caps on meta. Generated texts with the line shapes of
 * nvbandwidth's output.cpp (made-up numbers).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { parseText } from '../../src/parsers/_text.ts'
import { nvbandwidthParser as P } from '../../src/parsers/nvbandwidth/nvbandwidth.ts'
import type { ParseOutput } from '../../src/parsers/types.ts'

const MiB = 2 ** 20
const parse = (lines: string[], trial?: number): ParseOutput =>
  parseText(P, lines.join('\n'), { file: 't.txt', ...(trial === undefined ? {} : { trial }) })
const diag = (o: ParseOutput): (string | number)[][] =>
  o.diagnostics.map((d) => [d.line, d.severity, d.code, d.message])
type Tc = { name: string | null; status: string; line: number; error?: string; nameFrom?: string; matrices: unknown[] }
type Meta = Record<string, unknown> & { testcases: Tc[]; summaries: Record<string, unknown>[]; devices: unknown[] }
const meta = (o: ParseOutput): Meta => o.meta as Meta
const benches = (o: ParseOutput): string[] => [...new Set(o.rows.map((r) => r.bench))]
/** A 2 × 2 matrix: the unit line, the header and two rows. */
const mx = (desc: string, a: string, b: string): string[] => [desc, '   0   1', ` 0   N/A   ${a}`, ` 1   ${b}   N/A`]
const H2D = 'memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)'
const D2H = 'memcpy CE CPU(row) <- GPU(column) bandwidth (GB/s)'

test('summaries: every kind kept with its line; PERF with or without a unit; a value that is not a number is dropped', () => {
  const o = parse([
    'SUM a 1.5',
    'COEFFICIENT_OF_VARIATION a 0.25',
    'MIN a 1',
    'MAX a 2',
    'AVG a 1.5',
    '&&&& PERF b 362.00 +GB/s',
    '&&&& PERF c 7',
    'SUM d nan',
    'SUM e inf',
    'SUM f 1 2',
    'TOTAL g 1',
    '&&&& PERF',
  ])
  assert.deepEqual(meta(o).summaries, [
    { kind: 'SUM', key: 'a', value: 1.5, line: 1 },
    { kind: 'COEFFICIENT_OF_VARIATION', key: 'a', value: 0.25, line: 2 },
    { kind: 'MIN', key: 'a', value: 1, line: 3 },
    { kind: 'MAX', key: 'a', value: 2, line: 4 },
    { kind: 'AVG', key: 'a', value: 1.5, line: 5 },
    { kind: 'PERF', key: 'b', value: 362, unit: '+GB/s', line: 6 },
    { kind: 'PERF', key: 'c', value: 7, line: 7 },
  ])
  assert.deepEqual(meta(o).testcases, []) // no matrix open: a summary names no testcase
})

test('a SUM or PERF line closes the open matrix and names its rows; MIN/MAX/AVG do not', () => {
  const o = parse([
    'Running host_to_device_memcpy_ce.',
    ...mx(H2D, '1.0', '2.0'),
    'MIN not_a_key 1.0',
    ' 2   N/A   3.0',
    'SUM host_to_device_memcpy_ce_x 6.0',
    ' 3   N/A   4.0',
    'Running device_to_host_memcpy_ce.',
    ...mx(D2H, '5.0', '6.0'),
    '&&&& PERF d2h_perf 11 GB/s',
  ])
  assert.deepEqual(
    o.rows.map((r) => [r.bench, r.src, r.dst, r.value]),
    [
      ['nvbw.host_to_device_memcpy_ce_x', null, 1, 1e9],
      ['nvbw.host_to_device_memcpy_ce_x', null, 0, 2e9],
      ['nvbw.host_to_device_memcpy_ce_x', null, 1, 3e9],
      ['nvbw.d2h_perf', 1, null, 5e9],
      ['nvbw.d2h_perf', 0, null, 6e9],
    ],
  )
  // A Running line named the testcase: a SUM key not starting with its name does not rename it.
  assert.deepEqual(
    meta(o).testcases.map((t) => [t.name, t.status, t.nameFrom, t.matrices.length]),
    [
      ['host_to_device_memcpy_ce', 'passed', undefined, 1],
      ['device_to_host_memcpy_ce', 'passed', undefined, 1],
    ],
  )
  assert.deepEqual(
    o.diagnostics.map((d) => d.code),
    ['na-cell', 'na-cell'],
  )
})

test('no Running line: the SUM line names the testcase (part suffixes dropped), a new one when the key changes', () => {
  const o = parse([
    'nvbandwidth Version: v0.8',
    ...mx(H2D, '1.0', '2.0'),
    '',
    'SUM host_to_device_memcpy_ce 3.0',
    ...mx(D2H, '4.0', '5.0'),
    '',
    'SUM device_to_host_memcpy_ce 9.0',
    ...mx('x CPU(row) <-> GPU(column) Read1 bandwidth (GB/s)', '1', '2'),
    'SUM dd_bidirectional_read1 3',
    ...mx('x CPU(row) <-> GPU(column) Read2 bandwidth (GB/s)', '1', '2'),
    'SUM dd_bidirectional_read2 3',
    ...mx('x CPU(row) <-> GPU(column) Write1 bandwidth (GB/s)', '1', '2'),
    'SUM ee_write1 3',
    ...mx('x CPU(row) <-> GPU(column) Write2 bandwidth (GB/s)', '1', '2'),
    'SUM ee_write2 3',
    ...mx('x CPU(row) <-> GPU(column) Total bandwidth (GB/s)', '1', '2'),
    'SUM ee_total 3',
  ])
  assert.deepEqual(
    meta(o).testcases.map((t) => [t.name, t.status, t.line, t.nameFrom, t.matrices.length]),
    [
      ['host_to_device_memcpy_ce', 'passed', 7, 'SUM line', 1],
      ['device_to_host_memcpy_ce', 'passed', 13, 'SUM line', 1],
      ['dd_bidirectional', 'passed', 18, 'SUM line', 2],
      ['ee', 'passed', 28, 'SUM line', 3],
    ],
  )
  assert.deepEqual(benches(o), [
    'nvbw.host_to_device_memcpy_ce',
    'nvbw.device_to_host_memcpy_ce',
    'nvbw.dd_bidirectional_read1',
    'nvbw.dd_bidirectional_read2',
    'nvbw.ee_write1',
    'nvbw.ee_write2',
    'nvbw.ee_total',
  ])
  // Each host row's orientation follows its testcase: into the column, then out of it.
  assert.deepEqual(
    o.rows.slice(0, 4).map((r) => [r.src, r.dst]),
    [
      [null, 1],
      [null, 0],
      [1, null],
      [0, null],
    ],
  )
  const named = o.diagnostics.filter((d) => d.code === 'testcase-from-sum')
  assert.deepEqual(
    named.map((d) => [d.line, d.severity, d.message]),
    [
      [7, 'info', 'no "Running host_to_device_memcpy_ce." line; the testcase is named by its SUM line'],
      [13, 'info', 'no "Running device_to_host_memcpy_ce." line; the testcase is named by its SUM line'],
      [18, 'info', 'no "Running dd_bidirectional." line; the testcase is named by its SUM line'],
      [28, 'info', 'no "Running ee." line; the testcase is named by its SUM line'],
    ],
  )
})

test('a corrupt run: the data check failing or an abort is an error on the testcase, the line kept to 200 characters', () => {
  const long = `Invalid value when checking the pattern at offset ${'9'.repeat(300)}`
  const o = parse(['Running a_ce.', long, 'Running b_ce.', 'Aborted (core dumped)', 'Abortedx', 'x Aborted'])
  assert.deepEqual(
    meta(o).testcases.map((t) => [t.name, t.status, t.error]),
    [
      ['a_ce', 'error', long],
      ['b_ce', 'error', 'Aborted (core dumped)'],
    ],
  )
  assert.deepEqual(diag(o), [
    [
      2,
      'error',
      'corrupt-run',
      `nvbandwidth's data check failed in testcase a_ce, which was aborted, the run is corrupt: ${long.slice(0, 200)}`,
    ],
    [4, 'error', 'corrupt-run', 'nvbandwidth aborted testcase b_ce, the run is corrupt: Aborted (core dumped)'],
  ])
  assert.deepEqual(diag(parse(['Aborted'])), [
    [1, 'error', 'corrupt-run', 'nvbandwidth aborted, the run is corrupt: Aborted'],
    [1, 'warn', 'no-data', 'no nvbandwidth output found'],
  ])
})

test('buffer size: the version default, -b from the command line, unknown after the small-buffer warning', () => {
  const run = (pre: string[]): [unknown, (number | null)[]] => {
    const o = parse([...pre, 'nvbandwidth Version: v0.6', 'Running host_to_device_memcpy_ce.', ...mx(H2D, '1', '2')])
    return [meta(o).bufferSize, o.rows.map((r) => r.sizeBytes)]
  }
  assert.deepEqual(run([]), [{ bytes: 64 * MiB, source: 'version-default' }, [64 * MiB, 64 * MiB]])
  assert.deepEqual(run(['$ nvbandwidth -b 8']), [{ bytes: 8 * MiB, source: 'command-line' }, [8 * MiB, 8 * MiB]])
  const warn = 'NOTE: You are using a buffer size that is smaller than the default.'
  assert.deepEqual(run([warn]), [{ bytes: null, source: 'unknown' }, [null, null]])
  assert.deepEqual(run(['$ nvbandwidth -b 8', warn]), [{ bytes: 8 * MiB, source: 'command-line' }, [8 * MiB, 8 * MiB]])
  // A command line that happens to say the words does not count as the warning.
  assert.deepEqual(run(['nvbandwidth -t x # buffer size that is smaller than the default']), [
    { bytes: 64 * MiB, source: 'version-default' },
    [64 * MiB, 64 * MiB],
  ])
})

test('trials: the origin trial for the first run (or no version line), one more for each later run', () => {
  const body = ['Running host_to_device_memcpy_ce.', ...mx(H2D, '1', '2')]
  const v = 'nvbandwidth Version: v0.8'
  const trials = (lines: string[], trial?: number): number[] => parse(lines, trial).rows.map((r) => r.trial)
  assert.deepEqual(trials(body, 3), [3, 3])
  assert.deepEqual(trials(body), [0, 0])
  assert.deepEqual(trials([v, ...body, v, ...body, v, ...body], 5), [5, 5, 6, 6, 7, 7])
  assert.deepEqual(trials([v, ...body, v, ...body]), [0, 0, 1, 1])
  // A new version line closes the matrix of the run before it.
  assert.deepEqual(trials([v, ...body.slice(0, 4), v, ...body.slice(4)]), [0])
})

test('end of file: a testcase with no matrix, no output at all; meta keeps at most 1024 testcases, devices, summaries', () => {
  assert.deepEqual(diag(parse([])), [[1, 'warn', 'no-data', 'no nvbandwidth output found']])
  assert.deepEqual(diag(parse(['a', 'b', 'c'])), [[3, 'warn', 'no-data', 'no nvbandwidth output found']])
  assert.deepEqual(diag(parse(['nvbandwidth Version: v0.8'])), [])
  assert.deepEqual(
    diag(parse(['Waived:'])).map((d) => d[2]),
    ['waived'],
  )
  const many = (f: (i: number) => string): string[] => Array.from({ length: 1030 }, (_, i) => f(i))
  assert.equal(meta(parse(many((i) => `Running t${i}.`))).testcases.length, 1024)
  assert.equal(meta(parse(many(() => 'Waived:'))).testcases.length, 1024)
  assert.equal(meta(parse(many((i) => `Device ${i}: G`))).devices.length, 1024)
  assert.equal(meta(parse(many((i) => `MIN k${i} 1`))).summaries.length, 1024)
  const named = parse(many((i) => [`x CPU(row) -> GPU(column) (GB/s)`, '0', '0 1', `SUM t${i} 1`].join('\n')))
  assert.equal(meta(named).testcases.length, 1024)
  assert.equal(named.rows.length, 1030)
})

test('issue 30 item 11: "Running one_to_all_read_sm." then the data check failing names the aborted testcase', () => {
  const o = parse(['Running one_to_all_read_sm.', 'Invalid value when checking the pattern', 'Aborted (core dumped)'])
  assert.deepEqual(
    meta(o).testcases.map((t) => [t.name, t.status]),
    [['one_to_all_read_sm', 'error']],
  )
  const first = diag(o)[0] as unknown[]
  assert.equal(first[2], 'corrupt-run')
  assert.match(String(first[3]), /data check failed in testcase one_to_all_read_sm, which was aborted/)
})
