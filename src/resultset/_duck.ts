/**
 * The DuckDB side of samples parts: an in-memory engine that writes rows to a Parquet part
 * (temp file, then rename) and reads parts back in order. Loaded lazily, so commands that
 * never touch samples do not pay for the native module.
 */
import { renameSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { DuckDBConnection, DuckDBInstance, DuckDBType } from '@duckdb/node-api'
import type { Row } from '../model/index.ts'
import type { Encoded } from './_columns.ts'
import { COLUMNS, encode } from './_columns.ts'

/** An open in-memory engine. */
export interface Duck {
  conn: DuckDBConnection
  close(): void
}

let tableNo = 0

type Api = typeof import('@duckdb/node-api')
let api: Api | undefined
/**
 * The DuckDB API, required as CommonJS: an ESM import of it lexes each of its hundred
 * modules for their exports, which cost about 0.3 s more per process than the require.
 */
const duckApi = (): Api => {
  api ??= createRequire(import.meta.url)('@duckdb/node-api') as Api
  return api
}

/** Opens an in-memory DuckDB (one thread by default: the CLI shares the machine with the benches it measures). */
export async function openDuck(threads = 1): Promise<Duck> {
  const d = duckApi()
  const instance: DuckDBInstance = await d.DuckDBInstance.create(':memory:', { threads: String(threads) })
  const conn = await d.DuckDBConnection.create(instance)
  return {
    conn,
    close: () => {
      conn.closeSync()
      instance.closeSync()
    },
  }
}

/** SQL-quoted string literal. */
export const sqlString = (s: string): string => `'${s.replace(/'/g, "''")}'`

/** The one value of encoded column `e` when every row holds it (or null for all), else undefined. */
function constant(e: Encoded): { v: number } | undefined {
  const d = e.data
  const first = d[0] as number
  for (let i = 1; i < d.length; i++)
    if (d[i] !== first && !(Number.isNaN(d[i]) && Number.isNaN(first))) return undefined
  return { v: first }
}

const SQL_TYPE = { str: 'VARCHAR', json: 'VARCHAR', num: 'DOUBLE', int: 'INTEGER', bool: 'BOOLEAN' } as const

/** SQL for encoded value `ref` (a column name or a literal code) of column `e` (see `Encoded`). */
function decodeSql(e: Encoded, ref: string): string {
  if (e.kind === 'num') return `CASE WHEN isnan(${ref}) THEN NULL ELSE ${ref} END`
  if (e.kind === 'int') return ref
  if (e.kind === 'bool') return `CAST([false, true] AS BOOLEAN[])[${ref}]`
  return `CAST([${e.dict.map(sqlString).join(', ')}] AS VARCHAR[])[${ref}]`
}

/** A SQL literal for a constant column (its one value, typed). */
function literalSql(e: Encoded, v: number): string {
  const type = SQL_TYPE[e.kind]
  if (e.kind === 'num') return Number.isNaN(v) ? `NULL::${type}` : `${v}::${type}`
  if (e.kind === 'int') return `${v}::${type}`
  if (e.kind === 'bool') return v === 0 ? `NULL::${type}` : String(v === 2)
  return v === 0 ? `NULL::${type}` : `${sqlString(e.dict[v - 1] as string)}::${type}`
}

/**
 * Writes `rows` to the Parquet file `path` atomically: a temp file beside it, then rename.
 * Columns that vary go into the engine as null-free numbers (codes for strings), a chunk
 * at a time; columns with one value in the batch become literals. The COPY that writes
 * the file decodes both.
 */
export async function writePart(db: Duck, rows: readonly Row[], path: string): Promise<void> {
  if (rows.length === 0) return
  const d = duckApi()
  const enc = encode(rows)
  const consts = enc.map(constant)
  const varying = consts.flatMap((k, j) => (k === undefined ? [j] : []))
  const select = COLUMNS.map((c, j) => {
    const e = enc[j] as Encoded
    const k = consts[j]
    return `${k === undefined ? decodeSql(e, `c${j}`) : literalSql(e, k.v)} AS "${c.name}"`
  }).join(', ')
  const tmp = `${path}.${process.pid}.tmp`
  const kv = dictsOption(enc)
  if (varying.length === 0) {
    await copyTo(db, `SELECT ${select} FROM range(${rows.length})`, tmp, path, kv)
    return
  }
  const types: DuckDBType[] = varying.map((j) => (enc[j]?.kind === 'num' ? d.DOUBLE : d.INTEGER))
  const table = `part_${process.pid}_${tableNo++}`
  await db.conn.run(
    `CREATE TEMP TABLE ${table} (` +
      `${varying.map((j) => `c${j} ${enc[j]?.kind === 'num' ? 'DOUBLE' : 'INTEGER'}`).join(', ')})`,
  )
  try {
    const app = await db.conn.createAppender(table)
    for (let i = 0; i < rows.length; i += 2048) {
      const n = Math.min(rows.length - i, 2048)
      const chunk = d.DuckDBDataChunk.create(types, n)
      varying.forEach((j, col) => {
        const data = (enc[j] as Encoded).data
        const v = chunk.getColumnVector(col)
        for (let k = 0; k < n; k++) v.setItem(k, data[i + k] as number)
        v.flush()
      })
      app.appendDataChunk(chunk)
    }
    app.closeSync()
    await copyTo(db, `SELECT ${select} FROM ${table}`, tmp, path, kv)
  } finally {
    await db.conn.run(`DROP TABLE ${table}`)
  }
}

/** The key under which a part's file metadata lists the distinct values of its string columns. */
export const DICTS_KEY = 'gpucomm_dicts'

/**
 * The COPY option that stores the distinct values of each string column in the part's
 * metadata ({column: values}), so a reader learns them without scanning the part.
 */
function dictsOption(enc: readonly Encoded[]): string {
  const dicts: Record<string, string[]> = {}
  enc.forEach((e, j) => {
    if (e.kind === 'str' || e.kind === 'json') dicts[(COLUMNS[j] as { name: string }).name] = e.dict
  })
  return `, KV_METADATA {${DICTS_KEY}: ${sqlString(JSON.stringify(dicts))}}`
}

/** Writes a part with every column and no rows. */
export async function writeEmptyPart(db: Duck, path: string): Promise<void> {
  const cols = COLUMNS.map((c) => `NULL::${SQL_TYPE[c.kind]} AS "${c.name}"`).join(', ')
  await copyTo(db, `SELECT ${cols} FROM range(0)`, `${path}.${process.pid}.tmp`, path)
}

/**
 * COPY `select` to `tmp` as Parquet, then rename it to `path` (the temp file never stays
 * behind). `kv` is a `, KV_METADATA {…}` option (see dictsOption), or nothing.
 */
export async function copyTo(db: Duck, select: string, tmp: string, path: string, kv = ''): Promise<void> {
  try {
    await db.conn.run(`COPY (${select}) TO ${sqlString(tmp)} (FORMAT parquet, COMPRESSION zstd${kv})`)
    renameSync(tmp, path)
  } catch (e) {
    rmSync(tmp, { force: true })
    throw e
  }
}
