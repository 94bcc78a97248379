/**
 * ThreadedAppender (the import's writer on a worker thread): parts in order with every row,
 * the batch's arrays handed back and reused, a failed part failing flush and the next
 * append, and discard taking every part back out; an import over THREAD_MIN_BYTES (written
 * by the thread) storing the same parts as one under it (written on the importing thread).
 */
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { importFiles, THREAD_MIN_BYTES } from '../../src/importer/index.ts'
import type { Row } from '../../src/model/index.ts'
import { makeRow } from '../../src/model/index.ts'
import {
  ColumnBatch,
  listParts,
  loadSet,
  newManifest,
  ThreadedAppender,
  writeManifest,
} from '../../src/resultset/index.ts'
import { FIXTURES, tmp } from '../helpers.ts'

const onDisk = (dir: string): string[] =>
  existsSync(join(dir, 'samples')) ? readdirSync(join(dir, 'samples')).filter((f) => f.endsWith('.parquet')) : []

const row = (i: number): Row =>
  makeRow({
    bench: i % 3 === 0 ? 'p2p.latency' : 'p2p.bw_uni',
    metric: i % 3 === 0 ? 'latency' : 'bandwidth',
    unit: i % 3 === 0 ? 's' : 'B/s',
    value: i * 1.25,
    sizeBytes: 8 * (i % 5),
    src: i % 4,
    dst: (i + 1) % 4,
    trial: i % 2,
    source: { file: 'raw/000-x.log', line: i + 1 },
  })

async function open(): Promise<{ dir: string; app: ThreadedAppender }> {
  const dir = tmp()
  writeManifest(dir, newManifest({ origin: 'import', simulated: false, command: [] }))
  const app = await ThreadedAppender.open(dir)
  assert.ok(app instanceof ThreadedAppender, 'the worker started')
  return { dir, app }
}

/** A batch that counts the array sets it was given back. */
class Counting extends ColumnBatch {
  given = 0
  override take(spare?: readonly ArrayBuffer[]) {
    if (spare?.length) this.given++
    return super.take(spare)
  }
}

test('ThreadedAppender writes every batch as a part, in order, reusing the arrays it hands back', async () => {
  const { dir, app } = await open()
  const batch = new Counting(1000)
  const all: Row[] = []
  for (let k = 0; k < 5; k++) {
    for (let i = 0; i < 1000 - 7 * k; i++) {
      const r = row(1000 * k + i)
      all.push(r)
      batch.add(r)
    }
    await app.appendBatch(batch)
    assert.equal(batch.length, 0)
  }
  await app.flush()
  app.close()
  // A part counts once the manifest commits it.
  assert.equal(listParts(dir).length, 0)
  writeManifest(dir, newManifest({ origin: 'import', simulated: false, command: [] }))
  assert.equal(listParts(dir).length, 5)
  // Two sets of arrays take turns: from the second batch on, each goes on with the set the
  // worker gave back.
  assert.equal(batch.given, 4)
  const got = (await loadSet(dir)).rows
  assert.deepEqual(
    got.map((r) => [r.bench, r.value, r.sizeBytes, r.src, r.dst, r.trial, r.source.line]),
    all.map((r) => [r.bench, r.value, r.sizeBytes, r.src, r.dst, r.trial, r.source.line]),
  )
})

test('ThreadedAppender: a part that cannot be written fails flush and the next append; discard removes the parts', async () => {
  const { dir, app } = await open()
  const batch = new ColumnBatch(100)
  for (let i = 0; i < 100; i++) batch.add(row(i))
  await app.appendBatch(batch)
  await app.flush()
  assert.equal(onDisk(dir).length, 1)
  // The parts folder disappears: the next part has nowhere to go.
  rmSync(join(dir, 'samples'), { recursive: true })
  for (let i = 0; i < 100; i++) batch.add(row(i))
  await app.appendBatch(batch)
  await assert.rejects(app.flush(), /samples|No such file|directory/i)
  for (let i = 0; i < 100; i++) batch.add(row(i))
  await assert.rejects(app.appendBatch(batch))
  app.discard()
  app.close()
  assert.deepEqual(onDisk(dir), [])
})

test('an import over THREAD_MIN_BYTES (parts written by the thread) stores the parts of the same rows under it, byte for byte', async () => {
  const text = readFileSync(join(FIXTURES, 'nccl-tests', 'a100-sxm4-8gpu-single-process-g8-v2.13.txt'))
  assert.ok(text.length < THREAD_MIN_BYTES)
  // The same lines, then blank lines (64 KiB of spaces each) past the threshold: no row more.
  const padded = Buffer.concat([text, Buffer.from(`${' '.repeat(1 << 16)}\n`.repeat(THREAD_MIN_BYTES >> 16))])
  const parts = async (data: Buffer): Promise<{ rows: number; bytes: Buffer[] }> => {
    const out = join(tmp(), 'set')
    const s = await importFiles([{ path: 'all_reduce.txt', data }], { out, command: ['test'] })
    return { rows: s.rows, bytes: onDisk(out).map((f) => readFileSync(join(out, 'samples', f))) }
  }
  const small = await parts(text)
  const large = await parts(padded)
  assert.ok(small.rows > 0)
  assert.equal(large.rows, small.rows)
  assert.equal(large.bytes.length, small.bytes.length)
  large.bytes.forEach((b, i) => assert.ok(b.equals(small.bytes[i] as Buffer), `part ${i} differs`))
})
