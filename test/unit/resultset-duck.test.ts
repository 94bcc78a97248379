/**
 * The in-memory DuckDB engine of src/resultset/_duck.ts: one engine a thread count for the
 * process (connections share it; closing one ends that connection only), started with the
 * thread count asked for and its external file cache off; a start that failed is not kept; an
 * empty part holds every column and no row; copyTo leaves no temp file behind when it fails.
 */
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { test } from 'node:test'
import { COLUMNS } from '../../src/resultset/_columns.ts'
import { copyTo, type Duck, openDuck, sqlString, writeEmptyPart } from '../../src/resultset/_duck.ts'
import { tmp } from '../helpers.ts'

const rows = async (db: Duck, sql: string): Promise<string[][]> =>
  (await db.conn.runAndReadAll(sql)).getRows().map((r) => r.map(String))

const setting = async (db: Duck, name: string): Promise<string> =>
  (await rows(db, `SELECT current_setting(${sqlString(name)})`))[0]?.[0] ?? ''

test('openDuck: one thread unless asked, the count asked for otherwise, and the external file cache off', async () => {
  for (const [threads, want] of [
    [undefined, '1'],
    [2, '2'],
  ] as const) {
    const db = await openDuck(threads)
    try {
      assert.equal(await setting(db, 'threads'), want)
      assert.equal(await setting(db, 'enable_external_file_cache'), 'false')
    } finally {
      db.close()
    }
  }
})

test('openDuck: connections of one thread count share one engine; close() ends its connection only', async () => {
  const a = await openDuck()
  const b = await openDuck()
  const table = `duck_test_${process.pid}`
  try {
    // A table made through one connection is seen through the other: the same engine.
    await a.conn.run(`CREATE TABLE ${table} AS SELECT 42 AS v`)
    assert.deepEqual(await rows(b, `SELECT v FROM ${table}`), [['42']])
    a.close()
    await assert.rejects(rows(a, 'SELECT 1'))
    assert.deepEqual(await rows(b, `SELECT v FROM ${table}`), [['42']])
  } finally {
    await b.conn.run(`DROP TABLE IF EXISTS ${table}`)
    b.close()
  }
})

/** Runs of the next test in this process (mutate:inproc reruns a test file in one process). */
let failedStarts = 0

test('openDuck: an engine that failed to start is not kept; the next open starts one', async () => {
  const api = createRequire(import.meta.url)('@duckdb/node-api') as typeof import('@duckdb/node-api')
  const create = api.DuckDBInstance.create
  // A thread count nothing else asks for and no earlier run used: this process has no engine of it yet.
  const threads = 3 + failedStarts++
  api.DuckDBInstance.create = () => Promise.reject(new Error('engine start failed (test)'))
  try {
    await assert.rejects(openDuck(threads), /engine start failed \(test\)/)
  } finally {
    api.DuckDBInstance.create = create
  }
  const db = await openDuck(threads)
  try {
    assert.equal(await setting(db, 'threads'), String(threads))
    assert.equal(await setting(db, 'enable_external_file_cache'), 'false')
  } finally {
    db.close()
  }
})

test('writeEmptyPart writes every column, typed, and no row; copyTo leaves no temp file when it fails', async () => {
  const dir = tmp()
  const db = await openDuck()
  try {
    const path = join(dir, 'part-0.parquet')
    await writeEmptyPart(db, path)
    assert.deepEqual(await rows(db, `SELECT count(*) FROM read_parquet(${sqlString(path)})`), [['0']])
    const cols = await rows(db, `DESCRIBE SELECT * FROM read_parquet(${sqlString(path)})`)
    assert.deepEqual(
      cols.map((c) => c[0]),
      COLUMNS.map((c) => c.name),
    )
    // The target is a folder with a file in it: the COPY writes the temp file, the rename fails.
    const target = join(dir, 'taken')
    mkdirSync(target)
    writeFileSync(join(target, 'x'), '')
    const temp = join(dir, 'taken.tmp')
    await assert.rejects(copyTo(db, 'SELECT 1 AS a', temp, target), { code: /^(EISDIR|ENOTEMPTY|EEXIST)$/ })
    assert.equal(existsSync(temp), false)
    // A select that fails: its error, not one of the cleanup's.
    await assert.rejects(copyTo(db, 'SELECT no_such_column', temp, join(dir, 'y.parquet')), /no_such_column/)
    assert.equal(existsSync(temp), false)
  } finally {
    db.close()
  }
})
