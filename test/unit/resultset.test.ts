import assert from 'node:assert/strict'
import { appendFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import type { Row } from '../../src/model/index.ts'
import { makeRow } from '../../src/model/index.ts'
import { Appender, loadSet, newManifest, readManifest, writeManifest } from '../../src/resultset/index.ts'
import { tmp } from '../helpers.ts'

const row = (value: number, trial = 0) =>
  makeRow({
    bench: 'p2p.latency',
    metric: 'latency',
    unit: 's',
    value,
    src: 0,
    dst: 1,
    trial,
    source: { file: 'raw/x', line: 1 },
  })

test('manifest round-trips and a foreign directory is bad input', () => {
  const dir = tmp()
  const m = newManifest({ origin: 'import', simulated: false, command: ['x'] })
  writeManifest(dir, m)
  // The commit record of the parts (none yet) is added on every write.
  assert.deepEqual(readManifest(dir), { ...m, parts: [] })
  assert.throws(
    () => readManifest(tmp()),
    (e: Error & { code?: number }) => e.code === 2 && /not a gpucomm result set/.test(e.message),
  )
  assert.throws(() => readManifest('/nonexistent/dir'), /no such directory/)
})

test('schema 1: a torn line in samples.jsonl is reported with file:line and the lines after it stay readable', async () => {
  const dir = tmp()
  writeManifest(dir, newManifest({ origin: 'sweep', simulated: true, command: [] }))
  // A crash of the schema-1 writer in the middle of the third line, then a later append.
  const text = `${JSON.stringify(row(1))}\n${JSON.stringify(row(2))}\n${JSON.stringify(row(3)).slice(0, 25)}\n`
  writeFileSync(join(dir, 'samples.jsonl'), `${text}${JSON.stringify(row(4, 1))}\n`)
  const set = await loadSet(dir)
  assert.deepEqual(
    set.rows.map((r) => r.value),
    [1, 2, 4],
  )
  assert.equal(set.diagnostics.length, 1)
  assert.match(set.diagnostics[0]!.message, /samples\.jsonl:3: not valid JSON/)
})

/**
 * A row with every optional field set (and nulls where the type allows them). Typed
 * Required<Row>: a field added to Row without one here fails to compile, and the round trip
 * below then fails unless the parts store it.
 */
const full = (value: number): Required<Row> => ({
  ...row(value, 2),
  sizeBytes: 2 ** 40 + 3,
  requestedBytes: 2 ** 40 + 8,
  ranks: null,
  placement: 'in-place',
  p2p: 'disabled',
  timer: 'cpu',
  dtype: 'float',
  redop: 'sum',
  root: 0,
  peerAccess: false,
  copy: 'sm',
  staging: 'bounce',
  batch: 16,
  direction: 'read',
  iteration: 7,
  group: '0-3',
  grouping: 'tp4',
  point: "p'1",
  env: { NCCL_ALGO: 'Ring', NCCL_PROTO: 'LL' },
  hostAxis: { cstates: 'shallow' },
  host: 'node-1',
})

test('parts: rows round-trip with every field, in write order, one part per append', async () => {
  const dir = tmp()
  writeManifest(dir, newManifest({ origin: 'sweep', simulated: true, command: [] }))
  const first = [row(1), full(0.5), row(3e-7, 1)]
  const second = [full(2), { ...row(4), peerAccess: true, copy: 'ce' as const }]
  const a = await Appender.open(dir)
  await a.append(first)
  await a.append([])
  await a.append(second)
  a.close()
  assert.deepEqual(
    readdirSync(join(dir, 'samples')),
    ['part-000001.parquet', 'part-000002.parquet'],
    'one part per non-empty append, no temp file left',
  )
  const set = await loadSet(dir)
  assert.deepEqual(set.rows, [...first, ...second])
  assert.deepEqual(set.diagnostics, [])
  // A reopened appender goes on after the last part.
  const b = await Appender.open(dir)
  await b.append([row(5)])
  b.close()
  assert.deepEqual(
    (await loadSet(dir)).rows.map((r) => r.value),
    [1, 0.5, 3e-7, 2, 4, 5],
  )
})

test('parts: a temp file a crash left is not read; an unreadable part is named and the others still load', async () => {
  const dir = tmp()
  writeManifest(dir, newManifest({ origin: 'sweep', simulated: true, command: [] }))
  const a = await Appender.open(dir)
  await a.append([row(1)])
  await a.append([row(2)])
  a.close()
  writeFileSync(join(dir, 'samples', 'part-000003.parquet.123.tmp'), 'PAR1 half a part')
  writeFileSync(join(dir, 'samples', 'part-000002.parquet'), 'not parquet at all')
  const set = await loadSet(dir)
  assert.deepEqual(
    set.rows.map((r) => r.value),
    [1],
  )
  assert.equal(set.diagnostics.length, 1)
  assert.match(set.diagnostics[0]!.message, /part-000002\.parquet: /)
})

test('schema 1: the first writer moves samples.jsonl into part 0; the rows stay, in order', async () => {
  const dir = tmp()
  writeManifest(dir, newManifest({ origin: 'sweep', simulated: true, command: [] }))
  const old = [row(1), full(2)]
  writeFileSync(join(dir, 'samples.jsonl'), old.map((r) => `${JSON.stringify(r)}\n`).join(''))
  assert.deepEqual((await loadSet(dir)).rows, old)
  const a = await Appender.open(dir)
  await a.append([row(3)])
  a.close()
  assert.deepEqual(readdirSync(dir).sort(), ['manifest.json', 'samples'])
  assert.deepEqual(readdirSync(join(dir, 'samples')), ['part-000000.parquet', 'part-000001.parquet'])
  assert.deepEqual((await loadSet(dir)).rows, [...old, row(3)])
  // A migration cut off after part 0 was written: samples.jsonl is not read twice.
  writeFileSync(join(dir, 'samples.jsonl'), old.map((r) => `${JSON.stringify(r)}\n`).join(''))
  assert.equal((await loadSet(dir)).rows.length, 3)
})

test('a manifest of a newer schema is bad input that says to upgrade', () => {
  const dir = tmp()
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ schema: 3, id: 'x' }))
  assert.throws(
    () => readManifest(dir),
    (e: Error & { code?: number }) =>
      e.code === 2 && /schema 3, newer than this gpucomm reads \(2\); upgrade/.test(e.message),
  )
})

test('a line that is JSON but not a row is named with its problem', async () => {
  const dir = tmp()
  writeManifest(dir, newManifest({ origin: 'import', simulated: false, command: [] }))
  appendFileSync(
    join(dir, 'samples.jsonl'),
    `${JSON.stringify(row(1))}\n${JSON.stringify({ ...row(2), unit: 'us' })}\n`,
  )
  const set = await loadSet(dir)
  assert.equal(set.rows.length, 1)
  assert.match(set.diagnostics[0]!.message, /samples\.jsonl:2: unknown unit "us"/)
})
