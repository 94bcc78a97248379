import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import type { Row } from '../../src/model/index.ts'
import { makeRow } from '../../src/model/index.ts'
import { ColumnBatch, encode } from '../../src/resultset/_columns.ts'
import { openDuck } from '../../src/resultset/_duck.ts'
import { Appender, loadSet, newManifest, writeManifest } from '../../src/resultset/index.ts'
import { writeParquetPart } from '../../src/resultset/parquet/_parquet.ts'
import { tmp } from '../helpers.ts'

const pick = <T>(i: number, v: readonly T[]): T => v[i % v.length] as T

/**
 * Row i of a generated batch: every column varies, and the nulls of each nullable column
 * sit at different rows in each 2,048-row engine chunk (periods prime to 2,048), so a
 * validity bit left over from an earlier chunk, or a code off by one, changes a row.
 */
function gen(i: number): Row {
  const r: Row = makeRow({
    bench: pick(i, ['nccl.all_reduce', 'nccl.all_gather', 'p2p.latency']),
    metric: pick(i, ['busbw', 'algbw', 'time', 'latency']),
    unit: pick(i, ['B/s', 's']),
    value: i * 0.5 + i * 1e-9,
    sizeBytes: i % 3 === 0 ? null : 2 ** 40 + i,
    ranks: i % 5 === 0 ? null : (i % 8) + 1,
    src: i % 7 === 0 ? null : i % 8,
    dst: i % 11 === 0 ? null : (i + 1) % 8,
    placement: pick(i, ['in-place', 'out-of-place', null] as const),
    p2p: pick(i, ['enabled', 'disabled', null, null, null] as const),
    timer: pick(i, ['gpu', 'cpu', null] as const),
    trial: i % 3,
    source: { file: `raw/00${i % 2}-x.log`, line: i + 1 },
  })
  if (i % 3 !== 1) r.dtype = pick(i, ['float', 'half', 'bfloat16', 'int8'])
  if (i % 5 !== 2) r.redop = pick(i, ['sum', 'prod', 'max'])
  if (i % 7 !== 3) r.root = i % 9
  if (i % 4 !== 0) r.peerAccess = i % 4 === 1
  if (i % 13 !== 0) r.copy = pick(i, ['ce', 'sm'] as const)
  if (i % 2 === 0) r.staging = 'bounce'
  if (i % 17 !== 0) r.batch = i % 16
  if (i % 19 !== 0) r.direction = pick(i, ['read', 'write'] as const)
  if (i % 23 !== 0) r.iteration = i
  if (i % 29 !== 0) r.group = `0-${i % 8}`
  if (i % 31 !== 0) r.grouping = pick(i, ['tp8', 'tp4'])
  if (i % 37 !== 0) r.point = `p'${i}` // more than 256 values: a 16-bit dictionary
  if (i % 41 !== 0) r.env = { NCCL_ALGO: pick(i, ['Ring', 'Tree']), NCCL_PROTO: pick(i, ['LL', 'Simple', 'LL128']) }
  if (i % 43 !== 0) r.hostAxis = { cstates: pick(i, ['shallow', 'deep']) }
  if (i % 47 !== 0) r.host = `node-${i % 3}`
  if (i % 53 !== 0) r.requestedBytes = 2 ** 40 + 8 * i
  return r
}

const rows = Array.from({ length: 5000 }, (_, i) => gen(i))

test('parts: 5,000 rows over three engine chunks round-trip with every column varying and nulls moving between chunks', async () => {
  const dir = tmp()
  writeManifest(dir, newManifest({ origin: 'sweep', simulated: true, command: [] }))
  const a = await Appender.open(dir)
  await a.append(rows)
  await a.append(rows.slice(0, 3))
  a.close()
  const set = await loadSet(dir)
  assert.deepEqual(set.diagnostics, [])
  assert.equal(set.rows.length, 5003)
  assert.deepEqual(set.rows, [...rows, ...rows.slice(0, 3)])
})

test('a column batch grows past its capacity and, cleared, encodes the next rows with their own dictionaries', () => {
  const b = new ColumnBatch(1)
  for (const r of rows.slice(0, 100)) b.add(r)
  const first = b.encoded()
  assert.equal(first[3]?.data.length, 100)
  assert.deepEqual(first[1]?.dict, ['busbw', 'algbw', 'time', 'latency'])
  assert.deepEqual([...(first[1]?.data.subarray(0, 6) ?? [])], [1, 2, 3, 4, 1, 2])
  assert.deepEqual([...(first[3]?.data.subarray(98) ?? [])], [49 + 98e-9, 49.5 + 99e-9])
  assert.deepEqual([...(first[4]?.data.subarray(0, 2) ?? [])], [Number.NaN, 2 ** 40 + 1], 'null sizeBytes is NaN')
  assert.deepEqual([...(first[17]?.data.subarray(0, 3) ?? [])], [0, 2, 1], 'peerAccess: null, true, false')
  b.clear()
  // Row 99's metric is the last one added before: the cleared batch must not reuse its code.
  for (const r of [rows[99], rows[101]] as Row[]) b.add(r)
  const next = b.encoded()
  assert.equal(next[3]?.data.length, 2)
  assert.deepEqual(next[1]?.dict, ['latency', 'algbw'])
  assert.deepEqual([...(next[1]?.data ?? [])], [1, 2])
  assert.deepEqual(first[1]?.dict, ['busbw', 'algbw', 'time', 'latency'], 'the dictionaries handed out stay')
})

test('parts: string keys are dictionary-encoded, numbers stored plain', async () => {
  // 20,000 rows, line numbers repeating ten times each (2,000 distinct).
  const many = Array.from({ length: 20_000 }, (_, i) => {
    const r = gen(i)
    r.source = { file: 'raw/000-x.log', line: Math.floor(i / 10) + 1 }
    return r
  })
  const dir = tmp()
  const path = join(dir, 'part-000001.parquet')
  const db = await openDuck()
  try {
    writeParquetPart(encode(many), path)
    const r = await db.conn.runAndReadAll(
      `SELECT path_in_schema, string_agg(DISTINCT encodings) FROM parquet_metadata('${path}') GROUP BY 1`,
    )
    const enc = Object.fromEntries(r.getRows().map(([c, e]) => [String(c), String(e)]))
    for (const key of ['bench', 'metric', 'unit', 'file', 'dtype']) assert.match(enc[key] ?? '', /DICTIONARY/, key)
    for (const key of ['line', 'value', 'sizeBytes']) assert.doesNotMatch(enc[key] ?? '', /DICTIONARY/, key)
  } finally {
    db.close()
  }
})
