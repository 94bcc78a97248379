/**
 * The DuckDB side of samples parts: an in-memory engine that writes rows to a Parquet part
 * (temp file, then rename) and reads parts back in order. Loaded lazily, so commands that
 * never touch samples do not pay for the native module.
 */
import { renameSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api'
import type { Row } from '../model/index.ts'
import type { Encoded } from './_columns.ts'
import { COLUMNS, encode } from './_columns.ts'
import { fillTable } from './_fill.ts'

let tableNo = 0

/** An open in-memory engine. */
export interface Duck {
  conn: DuckDBConnection
  /**
   * A second connection to the same engine (made on first use): a part's table is filled
   * through it, on the JS thread, while `conn` still copies the part before to Parquet.
   */
  side(): Promise<DuckDBConnection>
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

/** Opens an in-memory DuckDB (one thread by default: the CLI shares the machine with the benches it measures). */
export async function openDuck(threads = 1): Promise<Duck> {
  const d = duckApi()
  const instance: DuckDBInstance = await d.DuckDBInstance.create(':memory:', { threads: String(threads) })
  const conn = await d.DuckDBConnection.create(instance)
  let side: DuckDBConnection | undefined
  return {
    conn,
    side: async () => {
      side ??= await d.DuckDBConnection.create(instance)
      return side
    },
    close: () => {
      side?.closeSync()
      conn.closeSync()
      instance.closeSync()
    },
  }
}

/** SQL-quoted string literal. */
export const sqlString = (s: string): string => `'${s.replace(/'/g, "''")}'`

/** The index of the first value of `d` from `i` on that differs from d[i-1]'s (NaN equals NaN), or d.length. */
function runEnd(d: Float64Array | Int32Array, i: number): number {
  const first = d[i - 1] as number
  if (Number.isNaN(first)) while (i < d.length && Number.isNaN(d[i])) i++
  else while (i < d.length && d[i] === first) i++
  return i
}

/** Per column: its one value when every row holds it (NaN equals NaN), undefined when it varies. */
function constants(cols: readonly Encoded[]): ({ v: number } | undefined)[] {
  return cols.map((e) => (runEnd(e.data, 1) === e.data.length ? { v: e.data[0] as number } : undefined))
}

const SQL_TYPE = { str: 'VARCHAR', json: 'VARCHAR', num: 'DOUBLE', int: 'INTEGER', bool: 'BOOLEAN' } as const

/** A SQL literal for a constant column (its one value, typed). */
function literalSql(e: Encoded, v: number): string {
  const type = SQL_TYPE[e.kind]
  if (e.kind === 'num') return Number.isNaN(v) ? `NULL::${type}` : `${v}::${type}`
  if (e.kind === 'int') return `${v}::${type}`
  if (e.kind === 'bool') return v === 0 ? `NULL::${type}` : String(v === 2)
  return v === 0 ? `NULL::${type}` : `${sqlString(e.dict[v - 1] as string)}::${type}`
}

/** Writes `rows` to the Parquet file `path` atomically (see writeColumns). */
export async function writePart(db: Duck, rows: readonly Row[], path: string): Promise<void> {
  if (rows.length === 0) return
  await writeColumns(db, encode(rows), path)
}

/**
 * Writes a batch's encoded columns (all of one length, COLUMNS order) to the Parquet file
 * `path` atomically: a temp file beside it, then rename. See startColumns.
 */
export async function writeColumns(
  db: Duck,
  cols: readonly Encoded[],
  path: string,
  opts: { bulk?: boolean } = {},
): Promise<void> {
  await (await startColumns(db, cols, path, opts)).written
}

/**
 * Starts writing a batch's columns to the Parquet file `path`: resolves once the engine holds
 * them (the batch may then be reused), with `written`, which resolves when the part is on
 * disk under its name (a temp file beside it, then rename) and rejects if it is not. See
 * stageColumns.
 */
export async function startColumns(
  db: Duck,
  cols: readonly Encoded[],
  path: string,
  opts: { bulk?: boolean } = {},
): Promise<{ written: Promise<void> }> {
  const copy = await stageColumns(db, cols, path, opts)
  return { written: copy() }
}

/**
 * The first half of writing a part: the batch's columns go into a table of the engine
 * (through `db.side()`, so this may run while `db.conn` still copies another part); resolves
 * once the engine holds them (the batch may then be reused) with `copy`, which writes the
 * part (a temp file beside `path`, then rename) on `db.conn` and drops the table. Columns
 * with one value in the batch become SQL literals; the others go through the table
 * (_fill.ts). `bulk: false` copies value by value (what the node-api documents; the tests
 * check both give one file).
 */
export async function stageColumns(
  db: Duck,
  cols: readonly Encoded[],
  path: string,
  { bulk = true }: { bulk?: boolean } = {},
): Promise<() => Promise<void>> {
  const rows = (cols[0] as Encoded).data.length
  if (rows === 0) return () => Promise.resolve()
  const consts = constants(cols)
  const varying = consts.flatMap((k, j) => (k === undefined ? [j] : []))
  const select = COLUMNS.map((c, j) => {
    const k = consts[j]
    return `${k === undefined ? `c${j}` : literalSql(cols[j] as Encoded, k.v)} AS "${c.name}"`
  }).join(', ')
  const tmp = `${path}.${process.pid}.tmp`
  const kv = dictsOption(cols)
  if (varying.length === 0) return () => copyTo(db, `SELECT ${select} FROM range(${rows})`, tmp, path, kv)
  const table = `part_${process.pid}_${tableNo++}`
  const side = await db.side()
  try {
    await fillTable(duckApi(), side, table, cols, varying, bulk)
  } catch (e) {
    await side.run(`DROP TABLE IF EXISTS ${table}`)
    throw e
  }
  const drop = () => db.conn.run(`DROP TABLE IF EXISTS ${table}`).then(() => undefined)
  return () => copyTo(db, `SELECT ${select} FROM ${table}`, tmp, path, kv).finally(drop)
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
 * How parts are written. The dictionary limits are far below the writer's defaults: every
 * column of every row group sets up a dictionary of the default size (most of the COPY's
 * CPU time for a part of 131,072 rows, spent clearing memory it never fills), and a column
 * with more than 1,000 distinct values in a row group (`value`, `line`) is stored plain,
 * which zstd packs tighter than a large dictionary. Measured on a 172,594-row import part:
 * 261 ms of CPU and 220 kB by default, 107 ms and 60 kB with these; the string columns'
 * dictionaries (a few values each) are unchanged.
 */
const PARQUET = 'FORMAT parquet, COMPRESSION zstd, DICTIONARY_SIZE_LIMIT 1000, STRING_DICTIONARY_PAGE_SIZE_LIMIT 65536'

/**
 * COPY `select` to `tmp` as Parquet, then rename it to `path` (the temp file never stays
 * behind). `kv` is a `, KV_METADATA {…}` option (see dictsOption), or nothing.
 */
export async function copyTo(db: Duck, select: string, tmp: string, path: string, kv = ''): Promise<void> {
  try {
    await db.conn.run(`COPY (${select}) TO ${sqlString(tmp)} (${PARQUET}${kv})`)
    renameSync(tmp, path)
  } catch (e) {
    rmSync(tmp, { force: true })
    throw e
  }
}
