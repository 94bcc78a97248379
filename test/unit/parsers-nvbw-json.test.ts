/**
 * The nvbandwidth -j parser on hand-written documents (issue 18, mutation testing of scope
 * parsers-nvbw): header fields, the device list, tool errors and warnings, testcase statuses,
 * cells of every JSON type, the line each row and testcase cites, bidirectional matrices split
 * in three (and when they are not), trials of several documents, documents that are not
 * nvbandwidth's, do not parse or never close, and detection. Generated documents with the
 * field names of nvbandwidth's json_output.cpp (made-up numbers).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { parseText } from '../../src/parsers/_text.ts'
import { nvbandwidthJsonParser as P } from '../../src/parsers/nvbandwidth/nvbandwidth-json.ts'
import type { ParseOutput } from '../../src/parsers/types.ts'

const MiB = 2 ** 20
const parse = (lines: string[], trial?: number): ParseOutput =>
  parseText(P, lines.join('\n'), { file: 'j.json', ...(trial === undefined ? {} : { trial }) })
const diag = (o: ParseOutput): (string | number)[][] =>
  o.diagnostics.map((d) => [d.line, d.severity, d.code, d.message])
const rows = (o: ParseOutput): (string | number | null)[][] =>
  o.rows.map((r) => [r.bench, r.src, r.dst, r.value, r.source.line, r.trial])
const meta = (o: ParseOutput): Record<string, unknown> => o.meta

test('one document: header fields, devices, tool error and warning, statuses, cells of every type, lines', () => {
  const o = parse([
    '$ ./nvbandwidth -j -b 16',
    '{',
    ' "nvbandwidth": {',
    '  "version": "v0.8",',
    '  "git_version": "g1",',
    '  "CUDA Runtime Version": 12080,',
    '  "Driver Version": "570.1",',
    '  "GPU Device list": ["0: GPU A (0000:01:00): (box)", "1: GPU B (0000:02:00): (other)", "1: dup", 7, "x"],',
    '  "warning": "w1",',
    '  "error": "e1",',
    '  "testcases": [',
    '   5,',
    '   {',
    '    "name": "host_to_device_memcpy_ce",',
    '    "status": "Passed",',
    '    "sum": 3.5,',
    '    "bandwidth_description": "  memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)  ",',
    '    "bandwidth_matrix": [',
    '     [" 1.5 ", 2],',
    '     [true, "N/A"]',
    '    ]',
    '   },',
    '   { "name": "device_to_device_memcpy_read_sm", "status": "WAIVED" },',
    '   { "name": "x_ce", "status": "Error", "error": "boom", "bandwidth_matrix": [] },',
    '   { "status": "weird" }',
    '  ]',
    ' }',
    '}',
  ])
  assert.deepEqual(rows(o), [
    ['nvbw.host_to_device_memcpy_ce', null, 0, 1.5e9, 19, 0],
    ['nvbw.host_to_device_memcpy_ce', null, 1, 2e9, 19, 0],
  ])
  for (const r of o.rows) assert.equal(r.sizeBytes, 16 * MiB)
  const m = meta(o)
  assert.deepEqual(
    [
      m.version,
      m.gitVersion,
      m.cudaRuntimeVersion,
      m.driverVersion,
      m.hostname,
      m.error,
      m.warning,
      m.runs,
      m.complete,
    ],
    ['v0.8', 'g1', 12080, '570.1', 'box', 'e1', 'w1', 1, true],
  )
  assert.deepEqual(m.devices, [
    { index: 0, name: 'GPU A', pci: '0000:01:00', host: 'box' },
    { index: 1, name: 'GPU B', pci: '0000:02:00', host: 'other' },
  ])
  assert.deepEqual(m.bufferSize, { bytes: 16 * MiB, source: 'command-line' })
  assert.deepEqual(m.testcases, [
    {
      name: 'host_to_device_memcpy_ce',
      status: 'passed',
      line: 14,
      sum: 3.5,
      matrices: [
        {
          key: 'host_to_device_memcpy_ce',
          description: 'memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)',
          line: 19,
          rows: 2,
          columns: 2,
          emitted: 2,
          na: 1,
        },
      ],
    },
    { name: 'device_to_device_memcpy_read_sm', status: 'waived', line: 23, matrices: [] },
    {
      name: 'x_ce',
      status: 'error',
      line: 24,
      error: 'boom',
      matrices: [{ key: 'x_ce', description: '', line: 2, rows: 0, columns: 0, emitted: 0, na: 0 }],
    },
    { name: 'unknown', status: 'weird', line: 24, matrices: [] },
  ])
  assert.deepEqual(diag(o), [
    [2, 'error', 'corrupt-run', 'nvbandwidth error, the run is corrupt: e1'],
    [2, 'info', 'tool-warning', 'nvbandwidth warning: w1'],
    [20, 'warn', 'bad-cell', 'host_to_device_memcpy_ce: cell (1, 0) is "?", not a number; no row'],
    [19, 'info', 'na-cell', 'host_to_device_memcpy_ce: 1 N/A cells (the diagonal); no rows for them'],
    [23, 'info', 'waived', 'nvbandwidth waived device_to_device_memcpy_read_sm: it cannot run on this system'],
    [24, 'warn', 'testcase-error', 'nvbandwidth x_ce: status Error: boom'],
    [24, 'warn', 'testcase-error', 'nvbandwidth unknown: status weird'],
  ])
})

test('bidirectional matrices: three parts when the rows are three times the width, named read, write or part', () => {
  const o = parse(
    [
      '{"nvbandwidth": {"version": "v0.4", "testcases": [',
      '{"name": "device_to_device_bidirectional_memcpy_write_ce", "status": "passed", "bandwidth_matrix": [',
      '["N/A", "1"],',
      '["2", "N/A"],',
      '["N/A", "3"],',
      '["4", "N/A"],',
      '["N/A", "5"],',
      '["6", "N/A"]]},',
      '{"name": "dd_bidirectional_x", "status": "passed", "bandwidth_matrix": [["7"], ["8"], ["9"]]},',
      '{"name": "some_bidirectional", "status": "passed", "bandwidth_matrix": [["1", "2"], 5, ["3", "4"], ["5"], ["6", "7"], ["8", "9"]]},',
      '{"name": "device_to_device_memcpy_read_ce", "status": "passed", "bandwidth_matrix": [["1"], ["2"], ["3"]]},',
      '{"name": "x_bidirectional", "status": "passed", "bandwidth_matrix": []},',
      '{"name": "y_bidirectional", "status": "passed", "bandwidth_matrix": [["1", "2"], ["3", "4"]]}',
      ']}}',
    ],
    4,
  )
  const w = 'nvbw.device_to_device_bidirectional_memcpy_write_ce'
  assert.deepEqual(rows(o), [
    [`${w}_write1`, 1, 0, 1e9, 3, 4],
    [`${w}_write1`, 0, 1, 2e9, 4, 4],
    [`${w}_write2`, 0, 1, 3e9, 5, 4],
    [`${w}_write2`, 1, 0, 4e9, 6, 4],
    [`${w}_total`, 0, 1, 5e9, 7, 4],
    [`${w}_total`, 1, 0, 6e9, 8, 4],
    ['nvbw.dd_bidirectional_x_part1', 0, 0, 7e9, 9, 4],
    ['nvbw.dd_bidirectional_x_part2', 0, 0, 8e9, 9, 4],
    ['nvbw.dd_bidirectional_x_total', 0, 0, 9e9, 9, 4],
    ['nvbw.some_bidirectional_part1', 0, 0, 1e9, 10, 4],
    ['nvbw.some_bidirectional_part1', 0, 1, 2e9, 10, 4],
    ['nvbw.some_bidirectional_part2', 0, 0, 3e9, 10, 4],
    ['nvbw.some_bidirectional_part2', 0, 1, 4e9, 10, 4],
    ['nvbw.some_bidirectional_part2', 1, 0, 5e9, 10, 4],
    ['nvbw.some_bidirectional_total', 0, 0, 6e9, 10, 4],
    ['nvbw.some_bidirectional_total', 0, 1, 7e9, 10, 4],
    // The row that is not an array has no cell lines, so the last row finds none: the document's first line.
    ['nvbw.some_bidirectional_total', 1, 0, 8e9, 1, 4],
    ['nvbw.some_bidirectional_total', 1, 1, 9e9, 1, 4],
    ['nvbw.device_to_device_memcpy_read_ce', 0, 0, 1e9, 11, 4],
    ['nvbw.device_to_device_memcpy_read_ce', 0, 1, 2e9, 11, 4],
    ['nvbw.device_to_device_memcpy_read_ce', 0, 2, 3e9, 11, 4],
    ['nvbw.y_bidirectional', 0, 0, 1e9, 13, 4],
    ['nvbw.y_bidirectional', 0, 1, 2e9, 13, 4],
    ['nvbw.y_bidirectional', 1, 0, 3e9, 13, 4],
    ['nvbw.y_bidirectional', 1, 1, 4e9, 13, 4],
  ])
  for (const r of o.rows) assert.equal(r.sizeBytes, 64 * MiB)
  // The row that is not an array is a row without cells, not a bad cell.
  assert.deepEqual(
    o.diagnostics.filter((d) => d.code === 'bad-cell'),
    [],
  )
  const tcs = meta(o).testcases as { name: string; line: number; matrices: { key: string; line: number }[] }[]
  assert.deepEqual(
    tcs.map((t) => [t.name, t.line, t.matrices.map((x) => [x.key, x.line])]),
    [
      [
        'device_to_device_bidirectional_memcpy_write_ce',
        2,
        [
          ['device_to_device_bidirectional_memcpy_write_ce_write1', 3],
          ['device_to_device_bidirectional_memcpy_write_ce_write2', 5],
          ['device_to_device_bidirectional_memcpy_write_ce_total', 7],
        ],
      ],
      [
        'dd_bidirectional_x',
        9,
        [
          ['dd_bidirectional_x_part1', 9],
          ['dd_bidirectional_x_part2', 9],
          ['dd_bidirectional_x_total', 9],
        ],
      ],
      [
        'some_bidirectional',
        10,
        [
          ['some_bidirectional_part1', 10],
          ['some_bidirectional_part2', 10],
          ['some_bidirectional_total', 10],
        ],
      ],
      ['device_to_device_memcpy_read_ce', 11, [['device_to_device_memcpy_read_ce', 11]]],
      ['x_bidirectional', 12, [['x_bidirectional', 1]]],
      ['y_bidirectional', 13, [['y_bidirectional', 13]]],
    ],
  )
})
