/**
 * One nvbandwidth matrix made into rows (issue 18, mutation testing of scope parsers-nvbw):
 * every field of a row, N/A cells on and off the diagonal, bad cells, cells past the columns,
 * the line each row cites, the testcase summary (at most 16 matrices) and the part suffix of a
 * bidirectional matrix. The matrices are made up in the test.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Row } from '../../src/model/index.ts'
import { DiagSink } from '../../src/parsers/_matrix-common.ts'
import type { NvbwMatrix } from '../../src/parsers/nvbandwidth/_nvbw-emit.ts'
import { emitMatrix, emitRecorded, partSuffix } from '../../src/parsers/nvbandwidth/_nvbw-emit.ts'
import type { NvbwTestcaseMeta } from '../../src/parsers/nvbandwidth/_nvbw-meta.ts'

const MiB = 2 ** 20
/** A sink and an emitter that keep what they get. */
function ctxOf(size: number | null = 7, trial = 4) {
  const rows: Row[] = []
  const diags = new DiagSink('f.txt')
  const latencyAsked: boolean[] = []
  const ctx = {
    file: 'f.txt',
    trial,
    sizeBytes: (latency: boolean) => {
      latencyAsked.push(latency)
      return latency ? 2 * MiB : size
    },
    emit: (r: Row) => rows.push(r),
    diags,
  }
  return { ctx, rows, diags, latencyAsked }
}
const matrix = (key: string, description: string, cells: string[][], lines?: number[][]): NvbwMatrix => ({
  testcase: key,
  key,
  description,
  cols: [0, 1, 2],
  rows: cells.map((c, i) => ({ row: i, cells: c, lines: lines?.[i] ?? c.map(() => 20 + i) })),
  line: 9,
})

test('emitMatrix: one row per numeric cell with every field; N/A counted on and off the diagonal; bad cells named', () => {
  const { ctx, rows, diags, latencyAsked } = ctxOf()
  const m = matrix('device_to_device_memcpy_write_ce', 'memcpy CE GPU(row) <- GPU(column) bandwidth (GB/s)', [
    ['N/A', '1.5', 'N/A'],
    ['2', 'N/A', 'x'],
  ])
  assert.deepEqual(emitMatrix(m, ctx), { rows: 2, na: 3 })
  assert.deepEqual(latencyAsked, [false])
  assert.deepEqual(rows, [
    {
      bench: 'nvbw.device_to_device_memcpy_write_ce',
      metric: 'bandwidth',
      unit: 'B/s',
      value: 1.5e9,
      sizeBytes: 7,
      ranks: null,
      src: 0,
      dst: 1,
      placement: null,
      p2p: 'enabled',
      timer: null,
      trial: 4,
      source: { file: 'f.txt', line: 20 },
      copy: 'ce',
      direction: 'write',
    },
    {
      bench: 'nvbw.device_to_device_memcpy_write_ce',
      metric: 'bandwidth',
      unit: 'B/s',
      value: 2e9,
      sizeBytes: 7,
      ranks: null,
      src: 1,
      dst: 0,
      placement: null,
      p2p: 'enabled',
      timer: null,
      trial: 4,
      source: { file: 'f.txt', line: 21 },
      copy: 'ce',
      direction: 'write',
    },
  ])
  assert.deepEqual(
    diags.list.map((d) => [d.line, d.severity, d.code, d.message]),
    [
      [21, 'warn', 'bad-cell', 'device_to_device_memcpy_write_ce: cell (1, 2) is "x", not a number; no row'],
      [
        9,
        'info',
        'na-cell',
        'device_to_device_memcpy_write_ce: 3 N/A cells, 1 off the diagonal (pairs the test could not run, e.g. without peer access); no rows for them',
      ],
    ],
  )
})

test('emitMatrix: latency in seconds with no copy or direction; cells past the columns ignored; the line of each cell, else the row, else the matrix', () => {
  const { ctx, rows, diags, latencyAsked } = ctxOf(null, 0)
  const m = matrix(
    'host_device_latency_sm',
    'Host-Device Latency SM CPU(row) <-> GPU(column) (ns)',
    [['500', '250.5', '1', '99'], ['N/A', '3'], ['4']],
    [[31, 32, 33, 34], [40], []],
  )
  assert.deepEqual(emitMatrix(m, ctx), { rows: 5, na: 1 })
  assert.deepEqual(latencyAsked, [true])
  assert.deepEqual(
    rows.map((r) => [
      r.value,
      r.src,
      r.dst,
      r.source.line,
      r.metric,
      r.unit,
      r.sizeBytes,
      r.p2p,
      'copy' in r,
      'direction' in r,
    ]),
    [
      [500e-9, null, 0, 31, 'latency', 's', 2 * MiB, null, false, false],
      [250.5e-9, null, 1, 32, 'latency', 's', 2 * MiB, null, false, false],
      [1e-9, null, 2, 33, 'latency', 's', 2 * MiB, null, false, false],
      [3e-9, null, 1, 40, 'latency', 's', 2 * MiB, null, false, false],
      [4e-9, null, 0, 9, 'latency', 's', 2 * MiB, null, false, false],
    ],
  )
  // The only N/A sits at (1, 0): off the diagonal.
  assert.match(diags.list[0]?.message ?? '', /^host_device_latency_sm: 1 N\/A cells, 1 off the diagonal/)
  // Only diagonal N/A cells: said so; none: no diagnostic.
  const d = ctxOf()
  emitMatrix(
    matrix('device_local_copy', 'x (GB/s)', [
      ['N/A', '1'],
      ['2', 'N/A'],
    ]),
    d.ctx,
  )
  assert.deepEqual(
    d.diags.list.map((x) => x.message),
    ['device_local_copy: 2 N/A cells (the diagonal); no rows for them'],
  )
  const e = ctxOf()
  assert.deepEqual(emitMatrix(matrix('device_local_copy', 'x (GB/s)', [['1']]), e.ctx), { rows: 1, na: 0 })
  assert.deepEqual(e.diags.list, [])
})

test('emitRecorded: the matrix summarized in its testcase (at most 16), rows emitted without one; partSuffix', () => {
  const tc: NvbwTestcaseMeta = { name: 't', status: 'running', line: 1, matrices: [] }
  const { ctx, rows } = ctxOf()
  const m = matrix('device_local_copy', 'd (GB/s)', [['N/A', '1', '2'], ['3']])
  for (let i = 0; i < 17; i++) emitRecorded(m, ctx, tc)
  assert.equal(tc.matrices.length, 16)
  assert.deepEqual(tc.matrices[0], {
    key: 'device_local_copy',
    description: 'd (GB/s)',
    line: 9,
    rows: 2,
    columns: 3,
    emitted: 3,
    na: 1,
  })
  assert.equal(rows.length, 17 * 3)
  emitRecorded(m, ctx, null)
  assert.equal(rows.length, 18 * 3)

  assert.equal(partSuffix('memcpy CE CPU(row) <-> GPU(column) Read1 bandwidth (GB/s)'), '_read1')
  assert.equal(partSuffix('Read2'), '_read2')
  assert.equal(partSuffix('x Write1 y'), '_write1')
  assert.equal(partSuffix('x Write2 y'), '_write2')
  assert.equal(partSuffix('x Total bandwidth'), '_total')
  for (const none of ['x Read1x y', 'xRead1 y', 'x read1 y', 'x Read3', 'Totals', ''])
    assert.equal(partSuffix(none), '', none)
})
