/**
 * The DuckDB side of samples parts: an in-memory engine that reads parts back, and writes
 * what is not a batch of columns (an empty part, an export of a whole set). Parts themselves
 * are written from their columns by _parquet.ts. Loaded lazily, so commands that never
 * touch samples do not pay for the native module.
 */
import { renameSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api'
import { COLUMNS } from './_columns.ts'

/** An open in-memory engine. */
export interface Duck {
  conn: DuckDBConnection
  close(): void
}

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

/** The process's in-memory engines, by thread count (started on first use, never closed). */
const engines = new Map<number, Promise<DuckDBInstance>>()

/**
 * Opens a connection to an in-memory DuckDB (one thread by default: the CLI shares the machine
 * with the benches it measures). The engine is one per process, started on first use: starting
 * and closing one took ~10 ms of CPU a read, a connection ~0.5 ms. Nothing is stored in it (the
 * reads create no table), and its file cache is off, so a part rewritten in place is read
 * afresh, as a new engine would read it.
 */
export async function openDuck(threads = 1): Promise<Duck> {
  const d = duckApi()
  let engine = engines.get(threads)
  if (!engine) {
    engine = d.DuckDBInstance.create(':memory:', { threads: String(threads), enable_external_file_cache: 'false' })
    engines.set(threads, engine)
    engine.catch(() => engines.delete(threads))
  }
  const conn = await d.DuckDBConnection.create(await engine)
  return { conn, close: () => conn.closeSync() }
}

/** SQL-quoted string literal. */
export const sqlString = (s: string): string => `'${s.replace(/'/g, "''")}'`

/** The engine's type of each column kind (what a part's columns read as). */
export const SQL_TYPE = { str: 'VARCHAR', json: 'VARCHAR', num: 'DOUBLE', int: 'INTEGER', bool: 'BOOLEAN' } as const

/** Writes a part with every column and no rows. */
export async function writeEmptyPart(db: Duck, path: string): Promise<void> {
  const cols = COLUMNS.map((c) => `NULL::${SQL_TYPE[c.kind]} AS "${c.name}"`).join(', ')
  await copyTo(db, `SELECT ${cols} FROM range(0)`, `${path}.${process.pid}.tmp`, path)
}

/**
 * How the engine writes Parquet (an export, an empty part). The dictionary limits are far
 * below the writer's defaults: every column of every row group sets up a dictionary of the
 * default size (most of a COPY's CPU time for 131,072 rows, spent clearing memory it never
 * fills), and a column with more than 1,000 distinct values in a row group (`value`,
 * `line`) is stored plain, which zstd packs tighter than a large dictionary.
 */
const PARQUET = 'FORMAT parquet, COMPRESSION zstd, DICTIONARY_SIZE_LIMIT 1000, STRING_DICTIONARY_PAGE_SIZE_LIMIT 65536'

/** COPY `select` to `tmp` as Parquet, then rename it to `path` (the temp file never stays behind). */
export async function copyTo(db: Duck, select: string, tmp: string, path: string): Promise<void> {
  try {
    await db.conn.run(`COPY (${select}) TO ${sqlString(tmp)} (${PARQUET})`)
    renameSync(tmp, path)
  } catch (e) {
    rmSync(tmp, { force: true })
    throw e
  }
}
