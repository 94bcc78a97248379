import assert from 'node:assert/strict'
import { mkdirSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import type { Row } from '../../src/model/index.ts'
import { makeRow } from '../../src/model/index.ts'
import type { Encoded } from '../../src/resultset/_columns.ts'
import { COLUMNS, encode } from '../../src/resultset/_columns.ts'
import type { Duck } from '../../src/resultset/_duck.ts'
import { copyTo, openDuck, sqlString } from '../../src/resultset/_duck.ts'
import { varyingColumns } from '../../src/resultset/_varying.ts'
import { writeParquetPart } from '../../src/resultset/parquet/_parquet.ts'
import { defLevels, dictionary, numberDict, values } from '../../src/resultset/parquet/_parquet-values.ts'
import { Bytes, struct } from '../../src/resultset/parquet/_thrift.ts'
import { tmp } from '../helpers.ts'

const bytes = (f: (b: Bytes) => unknown): number[] => {
  const b = new Bytes()
  f(b)
  return [...b.view()]
}

test('thrift compact: field headers, zigzag varints, long ids, bools, lists and nested structs (bytes from the spec)', () => {
  const got = bytes((b) =>
    struct(b, [
      [1, 'i32', 1],
      [3, 'i64', -1],
      [20, 'bin', 'ab'],
      [21, 'bool', true],
      [22, 'i32', 300],
      [23, 'list', { i32: [1, 2] }],
      [24, 'struct', []],
      [25, 'i32', undefined],
      [26, 'bool', false],
    ]),
  )
  // 0x15: delta 1, i32; 0x26: delta 2, i64, zigzag(-1) = 1; 0x08 0x28: binary with id 20 in full;
  // 0x11: bool true; 300 → zigzag 600 → 0xd8 0x04; 0x19 0x25: a list of two i32; 0x1c 0x00:
  // an empty struct; the undefined field 25 is left out, so false is field 26 at delta 2 (0x22).
  assert.deepEqual(
    got,
    [
      0x15, 0x02, 0x26, 0x01, 0x08, 0x28, 0x02, 0x61, 0x62, 0x11, 0x15, 0xd8, 0x04, 0x19, 0x25, 0x02, 0x04, 0x1c, 0x00,
      0x22, 0x00,
    ],
  )
  const long = bytes((b) => struct(b, [[1, 'list', { bin: Array.from({ length: 15 }, () => '') }]]))
  assert.deepEqual(
    long,
    [0x19, 0xf8, 0x0f, ...Array(15).fill(0), 0x00],
    'a list of 15 or more: 0xf0 | type, then the size',
  )
})

const enc = (kind: Encoded['kind'], data: number[], dict: string[] = []): Encoded => ({
  kind,
  data: kind === 'num' ? Float64Array.from(data) : Int32Array.from(data),
  dict,
})

test('page bytes: definition levels as RLE runs behind their length, values PLAIN, dictionary indices at their bit width', () => {
  const num = enc('num', [1, Number.NaN, Number.NaN, 2])
  let nulls = -1
  assert.deepEqual(
    bytes((b) => {
      nulls = defLevels(b, num)
    }),
    [6, 0, 0, 0, 0x02, 0x01, 0x04, 0x00, 0x02, 0x01],
  )
  assert.equal(nulls, 2)
  assert.deepEqual(
    bytes((b) => values(b, num)),
    [0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0x40],
  )
  const str = enc('str', [1, 1, 0, 2], ['a', 'b'])
  assert.deepEqual(
    bytes((b) => defLevels(b, str)),
    [6, 0, 0, 0, 0x04, 0x01, 0x02, 0x00, 0x02, 0x01],
  )
  assert.deepEqual(
    bytes((b) => values(b, str)),
    [0x01, 0x04, 0x00, 0x02, 0x01],
    'width 1; two of index 0, one of 1',
  )
  const bool = enc('bool', [0, 1, 2, 2])
  assert.deepEqual(
    bytes((b) => defLevels(b, bool)),
    [4, 0, 0, 0, 0x02, 0x00, 0x06, 0x01],
  )
  assert.deepEqual(
    bytes((b) => values(b, bool)),
    [0b110],
    'false, true, true, bit-packed from the low bit',
  )
  const int = enc('int', [5, -1])
  assert.deepEqual(
    bytes((b) => defLevels(b, int)),
    [2, 0, 0, 0, 0x04, 0x01],
  )
  assert.deepEqual(
    bytes((b) => values(b, int)),
    [5, 0, 0, 0, 0xff, 0xff, 0xff, 0xff],
  )
  const wide = enc(
    'str',
    [300, 300],
    Array.from({ length: 300 }, (_, i) => `v${i}`),
  )
  assert.deepEqual(
    bytes((b) => values(b, wide)),
    [9, 0x04, 0x2b, 0x01],
    '300 values: width 9, index 299 in two bytes',
  )
})

test('numbers with few distinct values become a dictionary (first seen first); past 1,000 distinct, or with a −0, they stay PLAIN', () => {
  const sizes = enc('num', [1024, 1024, Number.NaN, 8])
  const dict = numberDict(sizes)
  assert.deepEqual([...(dict?.values ?? [])], [1024, 8])
  assert.deepEqual([...(dict?.codes ?? [])], [1, 1, 0, 2])
  assert.deepEqual(
    bytes((b) => values(b, sizes, dict)),
    [0x01, 0x04, 0x00, 0x02, 0x01],
  )
  assert.deepEqual([...dictionary(sizes, dict)], [0, 0, 0, 0, 0, 0, 0x90, 0x40, 0, 0, 0, 0, 0, 0, 0x20, 0x40])
  const ints = numberDict(enc('int', [3, 3, 3, -7]))
  assert.ok(ints?.values instanceof Int32Array)
  assert.deepEqual([...(ints?.values ?? [])], [3, -7])
  const upTo = (n: number) => Array.from({ length: n }, (_, i) => i + 0.5)
  assert.equal(numberDict(enc('num', upTo(1000)))?.values.length, 1000)
  assert.equal(numberDict(enc('num', upTo(1001))), undefined)
  assert.equal(numberDict(enc('num', [0, 0, -0])), undefined, 'a dictionary keyed by value would make −0 a 0')
  assert.equal(numberDict(enc('num', [Number.NaN, Number.NaN])), undefined, 'all null: no dictionary')
  assert.equal(numberDict(enc('str', [1], ['a'])), undefined)
})

const row = (i: number): Row =>
  makeRow({
    bench: 'nccl.all_reduce',
    metric: i % 2 ? 'busbw' : 'time',
    unit: 's',
    value: 1,
    sizeBytes: 1024,
    ranks: 8,
    trial: 0,
    source: { file: 'raw/000-x.log', line: i + 1 },
  })

async function schema(db: Duck, path: string): Promise<string[][]> {
  const r = await db.conn.runAndReadAll(
    `SELECT name, type, repetition_type, converted_type, logical_type FROM parquet_schema(${sqlString(path)}) WHERE name <> 'duckdb_schema' AND name <> 'schema'`,
  )
  return r.getRows().map((x) => x.map(String))
}

test("parts: the schema is DuckDB's for the same columns, and the footers tell constant columns from varying ones", async () => {
  const dir = tmp()
  const ours = join(dir, 'ours.parquet')
  const engine = join(dir, 'engine.parquet')
  writeParquetPart(encode(Array.from({ length: 10 }, (_, i) => row(i))), ours)
  const db = await openDuck()
  try {
    await copyTo(db, `SELECT * FROM read_parquet(${sqlString(ours)})`, `${engine}.tmp`, engine)
    assert.deepEqual(await schema(db, ours), await schema(db, engine))
    assert.equal((await schema(db, ours)).length, COLUMNS.length)
    const names = COLUMNS.map((c) => c.name)
    // DOUBLE columns count as varying unless all null (_varying.ts); the rest by their statistics.
    const expected = ['metric', 'value', 'sizeBytes', 'ranks', 'line']
    assert.deepEqual(await varyingColumns(db, [ours], names), expected)
    assert.deepEqual(await varyingColumns(db, [engine], names), expected)
    const codec = await db.conn.runAndReadAll(
      `SELECT path_in_schema, encodings FROM parquet_metadata(${sqlString(ours)}) WHERE path_in_schema IN ('sizeBytes', 'value')`,
    )
    assert.deepEqual(
      Object.fromEntries(codec.getRows().map(([c, e]) => [String(c), String(e)])),
      { sizeBytes: 'PLAIN, RLE, RLE_DICTIONARY', value: 'PLAIN, RLE, RLE_DICTIONARY' },
      'ten rows: one size, one value',
    )
  } finally {
    db.close()
  }
})

test('parts: a chunk is gzipped only when that makes it an eighth smaller; 70,000 distinct strings (3-byte indices) round-trip', async () => {
  let seed = 1
  const random = (): number => {
    seed = (seed * 48271) % 2147483647
    return seed / 2147483647
  }
  const rows = Array.from({ length: 70_000 }, (_, i) => ({ ...row(i), value: random(), point: `p${i}` }))
  const dir = tmp()
  const path = join(dir, 'part.parquet')
  writeParquetPart(encode(rows), path)
  const db = await openDuck()
  try {
    const codec = await db.conn.runAndReadAll(
      `SELECT path_in_schema, compression, total_compressed_size, total_uncompressed_size FROM parquet_metadata(${sqlString(path)})`,
    )
    const by = Object.fromEntries(codec.getRows().map(([c, k]) => [String(c), String(k)]))
    assert.equal(by.src, 'UNCOMPRESSED', "an all-null chunk is a few bytes: gzip's header alone is more")
    assert.equal(by.value, 'UNCOMPRESSED', 'random doubles shrink by a few per cent only')
    assert.equal(by.line, 'GZIP', 'consecutive line numbers shrink')
    for (const [c, k, packed, raw] of codec.getRows())
      if (k === 'GZIP') assert.ok(Number(packed) <= (Number(raw) * 7) / 8, String(c))
      else assert.equal(Number(packed), Number(raw), String(c))
    const r = await db.conn.runAndReadAll(
      `SELECT count(DISTINCT point), min(value) > 0, max(value) < 1, sum(value), list(point ORDER BY line)[69999] FROM read_parquet(${sqlString(path)})`,
    )
    const [distinct, lo, hi, sum, point] = r.getRows()[0] ?? []
    assert.equal(Number(distinct), 70_000)
    assert.equal(lo, true)
    assert.equal(hi, true)
    assert.ok(Math.abs(Number(sum) - rows.reduce((a, x) => a + x.value, 0)) < 1e-6)
    assert.equal(point, 'p69998')
    // 5,000 random doubles (40 kB, under the 64 KiB sample): gzip shrinks them by a few per cent.
    const small = join(dir, 'small.parquet')
    writeParquetPart(encode(rows.slice(0, 5000)), small)
    const k = await db.conn.runAndReadAll(
      `SELECT compression FROM parquet_metadata(${sqlString(small)}) WHERE path_in_schema = 'value'`,
    )
    assert.equal(String(k.getRows()[0]?.[0]), 'UNCOMPRESSED')
  } finally {
    db.close()
  }
})

test('parts: a −0 among the values is read back as −0', async () => {
  const dir = tmp()
  const path = join(dir, 'part.parquet')
  writeParquetPart(encode([row(0), { ...row(1), value: -0 }, { ...row(2), value: 0 }]), path)
  const db = await openDuck()
  try {
    const r = await db.conn.runAndReadAll(`SELECT value FROM read_parquet(${sqlString(path)}) ORDER BY line`)
    assert.deepEqual(
      r.getRows().map(([v]) => Object.is(v, -0)),
      [false, true, false],
    )
  } finally {
    db.close()
  }
})

test('parts: a part that cannot be renamed into place leaves no temp file behind', () => {
  const dir = tmp()
  const path = join(dir, 'part.parquet')
  mkdirSync(join(path, 'in-the-way'), { recursive: true })
  assert.throws(() => writeParquetPart(encode([row(0)]), path))
  assert.deepEqual(readdirSync(dir), ['part.parquet'])
  assert.deepEqual(readdirSync(path), ['in-the-way'])
})

test('openDuck: reads share one engine, and closing one leaves the others open; a part rewritten in place reads afresh', async () => {
  const dir = tmp()
  const path = join(dir, 'part.parquet')
  const sum = async (db: Duck): Promise<number> =>
    Number((await db.conn.runAndReadAll(`SELECT sum(value) FROM read_parquet(${sqlString(path)})`)).getRows()[0]?.[0])
  const part = (a: number, b: number): void => {
    writeParquetPart(
      encode([
        { ...row(1), value: a },
        { ...row(2), value: b },
      ]),
      path,
    )
  }
  part(2, 3)
  const a = await openDuck()
  const b = await openDuck()
  assert.equal(await sum(a), 5)
  a.close()
  assert.equal(await sum(b), 5, 'b still reads after a closed')
  // The same path, other values, between two reads of the same engine.
  part(4, 7)
  assert.equal(await sum(b), 11)
  b.close()
  const c = await openDuck()
  assert.equal(await sum(c), 11)
  c.close()
})
