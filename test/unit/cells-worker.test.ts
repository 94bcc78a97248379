/**
 * Cells on a worker thread (CellsWorker, and analyze from workerMin rows on): the same
 * cells and the same analysis, byte for byte, as on the calling thread; the fallback when
 * the worker cannot take the rows.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { analyze } from '../../src/analysis/index.ts'
import { CellsWorker, cells } from '../../src/cells/index.ts'
import type { IndexedRows, Row } from '../../src/model/index.ts'
import { indexedRows, isIndexed } from '../../src/model/index.ts'
import { Appender, loadSamples, newManifest, writeManifest } from '../../src/resultset/index.ts'
import { genRows } from '../diff-gen.ts'
import { tmp } from '../helpers.ts'

async function generatedSet(): Promise<string> {
  const dir = tmp()
  writeManifest(dir, newManifest({ origin: 'sweep', simulated: false, command: ['generated-set', 'test'] }))
  const a = await Appender.open(dir)
  await a.append([...genRows({ seed: 5, pairs: 3, sizes: 4, n: 30, launches: 3 })])
  a.close()
  return dir
}

const withoutValues = (rows: IndexedRows) => cells(rows).map(({ values: _, ...c }) => c)

test('CellsWorker builds on a worker thread the cells the calling thread builds', async () => {
  const s = await loadSamples(await generatedSet())
  assert.ok(isIndexed(s.rows) && s.rows.group.buffer instanceof SharedArrayBuffer, 'loadSamples shares its arrays')
  const why: string[] = []
  const got = await new CellsWorker().run(s.rows, {}, (w) => why.push(w))
  assert.deepEqual(why, [], 'no fallback')
  assert.equal(got.length, 3 * 4 * 2)
  assert.deepEqual(got, withoutValues(s.rows))
  // At another CI level, the worker is told it.
  assert.deepEqual(
    (await new CellsWorker().run(s.rows, { level: 0.99 })).map((c) => c.summary.ci),
    cells(s.rows, { level: 0.99 }).map((c) => c.summary.ci),
  )
})

test('analyze gives the same analysis whether its cells were built on a worker or not', async () => {
  const dir = await generatedSet()
  const onWorker = JSON.stringify(await analyze(dir, { workerMin: 0 }))
  assert.equal(onWorker, JSON.stringify(await analyze(dir, { workerMin: Infinity })))
  assert.ok(JSON.parse(onWorker).cells.length === 24)
})

test('CellsWorker falls back to the calling thread when the rows cannot go to a worker', async () => {
  const s = await loadSamples(await generatedSet())
  assert.ok(isIndexed(s.rows))
  const want = withoutValues(s.rows)
  // Unshared arrays: done here at once.
  const copy = indexedRows(s.rows.reps, Int32Array.from(s.rows.group), Float64Array.from(s.rows.value), s.rows.n)
  const why: string[] = []
  assert.deepEqual(await new CellsWorker().run(copy, {}, (w) => why.push(w)), want)
  assert.deepEqual(why, ['the arrays are not shared'])
  // Rows that cannot be cloned into the worker: the worker never starts, the cells still come.
  const odd = s.rows.reps.map((r) => ({ ...r, extra: () => 1 }) as unknown as Row)
  const bad = indexedRows(odd, s.rows.group, s.rows.value, s.rows.n)
  const why2: string[] = []
  const got = await new CellsWorker().run(bad, {}, (w) => why2.push(w))
  assert.equal(why2.length, 1)
  assert.match(why2[0] ?? '', /could not be cloned/)
  assert.deepEqual(got, want)
})
