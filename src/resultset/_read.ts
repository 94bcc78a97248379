/**
 * Reading a samples part back column-wise. Converting DuckDB's VARCHAR values one by one
 * into JS strings is what made reading slow (about 16 µs a row), so strings never cross
 * as strings: one query gathers each string column's distinct values (a part holds few),
 * and the rows come back with those columns as integer codes into them (an ENUM cast,
 * then its code). Numbers come back as numbers. Equal strings and JSON objects are shared
 * by every row that holds them (`Intern`), so a loaded set holds each text once.
 */
import type { DuckDBDataChunk } from '@duckdb/node-api'
import type { Row } from '../model/index.ts'
import { COLUMNS } from './_columns.ts'
import type { Duck } from './_duck.ts'
import { sqlString } from './_duck.ts'
import { DICTS_KEY } from './parquet/_parquet.ts'

/** Beyond this many distinct values a string column is read as text (slower, but no huge SQL). */
const MAX_DICT = 4096

/** Shares equal strings and parsed JSON objects across the parts one reader reads. */
export class Intern {
  private readonly strings = new Map<string, string>()
  private readonly objects = new Map<string, unknown>()
  str(s: string): string {
    const got = this.strings.get(s)
    if (got !== undefined) return got
    this.strings.set(s, s)
    return s
  }
  json(s: string): unknown {
    if (!this.objects.has(s)) this.objects.set(s, JSON.parse(s))
    return this.objects.get(s)
  }
}

const quoted = (name: string): string => `"${name}"`
const isText = (kind: string): boolean => kind === 'str' || kind === 'json'

/**
 * The distinct values of each string column over the parts read by `from` (the union of
 * what each part's metadata lists; a part without that list, written by another tool, is
 * scanned for them). undefined: too many values, read as text.
 */
async function dictionaries(db: Duck, paths: readonly string[], from: string): Promise<(unknown[] | undefined)[]> {
  const list = `[${paths.map(sqlString).join(', ')}]`
  const kv = (
    await db.conn.runAndReadAll(
      `SELECT decode(value) FROM parquet_kv_metadata(${list}) WHERE decode(key) = ${sqlString(DICTS_KEY)}`,
    )
  ).getRows()
  const text = COLUMNS.flatMap((c, j) => (isText(c.kind) ? [j] : []))
  const sets = COLUMNS.map(() => new Set<string>())
  if (kv.length === paths.length) {
    for (const [v] of kv) {
      const d = JSON.parse(v as string) as Record<string, string[]>
      for (const j of text) for (const x of d[(COLUMNS[j] as { name: string }).name] ?? []) sets[j]?.add(x)
    }
  } else {
    const sql = text.map((j) => `list(DISTINCT ${quoted((COLUMNS[j] as { name: string }).name)})`).join(', ')
    const got = (await db.conn.runAndReadAll(`SELECT ${sql} FROM ${from}`)).getRows()[0] ?? []
    text.forEach((j, k) => {
      for (const x of (got[k] as { items?: unknown[] } | null)?.items ?? []) if (x !== null) sets[j]?.add(x as string)
    })
  }
  return COLUMNS.map((c, j) => {
    const set = sets[j] as Set<string>
    return !isText(c.kind) || set.size > MAX_DICT ? undefined : [...set]
  })
}

/** The SELECT list: string columns with a dictionary as 0 (null) or 1 + their index in it. */
function selectList(dicts: readonly (unknown[] | undefined)[]): string {
  return COLUMNS.map((c, j) => {
    const d = dicts[j]
    if (!isText(c.kind) || d === undefined) return quoted(c.name)
    if (d.length === 0) return `0::INTEGER AS ${quoted(c.name)}`
    const en = `ENUM(${(d as string[]).map(sqlString).join(', ')})`
    return `coalesce(enum_code(CAST(${quoted(c.name)} AS ${en}))::INTEGER + 1, 0) AS ${quoted(c.name)}`
  }).join(', ')
}

/** Column `j` of `chunk` as JS values (dictionary codes decoded, texts interned). */
export function columnValues(
  chunk: DuckDBDataChunk,
  j: number,
  dict: unknown[] | undefined,
  intern: Intern,
): unknown[] {
  const v = chunk.getColumnVector(j)
  const n = chunk.rowCount
  const out = new Array<unknown>(n)
  const kind = (COLUMNS[j] as { kind: string }).kind
  if (!isText(kind)) {
    for (let i = 0; i < n; i++) out[i] = v.getItem(i)
    return out
  }
  if (dict === undefined) {
    for (let i = 0; i < n; i++) {
      const s = v.getItem(i) as string | null
      out[i] = s === null ? null : kind === 'json' ? intern.json(s) : intern.str(s)
    }
    return out
  }
  const decoded = [null, ...dict.map((s) => (kind === 'json' ? intern.json(s as string) : intern.str(s as string)))]
  for (let i = 0; i < n; i++) out[i] = decoded[v.getItem(i) as number]
  return out
}

/**
 * Row `i` of `cols` (in COLUMNS order) as a Row: the fixed fields first, then the optional
 * ones that are set, in COLUMNS order.
 */
export function rowAt(cols: readonly unknown[][], i: number): Row {
  const r = {
    bench: cols[0]?.[i],
    metric: cols[1]?.[i],
    unit: cols[2]?.[i],
    value: cols[3]?.[i],
    sizeBytes: cols[4]?.[i],
    ranks: cols[5]?.[i],
    src: cols[6]?.[i],
    dst: cols[7]?.[i],
    placement: cols[8]?.[i],
    p2p: cols[9]?.[i],
    timer: cols[10]?.[i],
    trial: cols[11]?.[i],
    source: { file: cols[12]?.[i], line: cols[13]?.[i] },
  } as Record<string, unknown>
  for (let c = 14; c < cols.length; c++) {
    const v = (cols[c] as unknown[])[i]
    if (v !== null) r[(COLUMNS[c] as { name: string }).name] = v
  }
  return r as unknown as Row
}

/**
 * Streams the rows of the Parquet parts `paths`, part by part in row order (one scan: DuckDB
 * keeps insertion order for a plain scan), a chunk at a time: memory holds one chunk of
 * rows, not the set. `where` (SQL over the stored columns) keeps only the rows it accepts.
 * Throws when a part cannot be read.
 */
export async function* partRows(
  db: Duck,
  paths: readonly string[],
  intern: Intern,
  where?: string,
): AsyncGenerator<Row[]> {
  if (paths.length === 0) return
  const from = `read_parquet([${paths.map(sqlString).join(', ')}])`
  const dicts = await dictionaries(db, paths, from)
  const result = await db.conn.stream(`SELECT ${selectList(dicts)} FROM ${from}${where ? ` WHERE ${where}` : ''}`)
  for (;;) {
    const chunk = await result.fetchChunk()
    if (!chunk || chunk.rowCount === 0) break
    const cols = COLUMNS.map((_, j) => columnValues(chunk, j, dicts[j], intern))
    const out: Row[] = new Array(chunk.rowCount)
    for (let i = 0; i < chunk.rowCount; i++) out[i] = rowAt(cols, i)
    yield out
  }
}
