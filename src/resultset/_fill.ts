/**
 * How a batch's varying columns reach the engine: a temp table filled through the appender,
 * 2,048 rows (DuckDB's vector size) a data chunk, each column slice put into the chunk's
 * vector in one typed-array copy, with no conversion per value. Strings go in as ENUMs of the
 * batch's dictionary, which the Parquet writer stores as dictionary-encoded UTF-8 strings,
 * the same as a VARCHAR column. All of it runs on the JS thread, with no callback from the
 * engine's threads (a table function's scan waits for the JS thread at every chunk, which
 * on a loaded machine cost more than the copying).
 */
import type { DuckDBConnection, DuckDBType, DuckDBVector } from '@duckdb/node-api'
import type { Encoded } from './_columns.ts'

type Api = typeof import('@duckdb/node-api')

const VECTOR = 2048

/** The engine type a column of this encoding goes in as. */
const typeOf = (api: Api, e: Encoded): DuckDBType =>
  e.kind === 'num' ? api.DOUBLE : e.kind === 'int' ? api.INTEGER : e.kind === 'bool' ? api.BOOLEAN : api.ENUM(e.dict)

/**
 * Creates table `table` with the columns `varying` of `cols` (named c<j>) and fills it (a
 * table of the in-memory engine, not a temp one: another connection copies it out).
 * `bulk: false` sets every value through setItem (what the node-api documents).
 */
export async function fillTable(
  api: Api,
  conn: DuckDBConnection,
  table: string,
  cols: readonly Encoded[],
  varying: readonly number[],
  bulk: boolean,
): Promise<void> {
  const types = varying.map((j) => typeOf(api, cols[j] as Encoded))
  await conn.run(`CREATE TABLE ${table} (${varying.map((j, k) => `c${j} ${types[k]}`).join(', ')})`)
  const app = await conn.createAppender(table)
  try {
    const rows = (cols[0] as Encoded).data.length
    for (let i = 0; i < rows; i += VECTOR) {
      const n = Math.min(VECTOR, rows - i)
      const chunk = api.DuckDBDataChunk.create(types, n)
      varying.forEach((j, k) => {
        fill(chunk.getColumnVector(k), cols[j] as Encoded, i, n, bulk)
      })
      app.appendDataChunk(chunk)
    }
  } finally {
    app.closeSync()
  }
}

type Items = Float64Array | Int32Array | Uint8Array | Uint16Array | Uint32Array

/**
 * The vector's own typed array of `n` values, which its flush() copies into the engine. The
 * node-api (1.5.6) keeps it in a field it does not export and has no bulk setter; when the
 * field is not there (another version), undefined, and the values go through setItem.
 */
function itemsOf(v: DuckDBVector, n: number): Items | undefined {
  const items = (v as unknown as { items?: unknown }).items
  const typed =
    items instanceof Float64Array ||
    items instanceof Int32Array ||
    items instanceof Uint8Array ||
    items instanceof Uint16Array ||
    items instanceof Uint32Array
  return typed && items.length === n ? items : undefined
}

/**
 * Writes rows from..from+n of column `e` into vector `v` of a new chunk (all valid): one
 * copy into the vector's own array where it has one, then the nulls into its validity mask.
 * Without the array (or with `bulk` false), setItem for every value.
 */
function fill(v: DuckDBVector, e: Encoded, from: number, n: number, bulk: boolean): void {
  const src = e.data
  const items = bulk && e.kind !== 'bool' ? itemsOf(v, n) : undefined
  const str = e.kind === 'str' || e.kind === 'json'
  if (e.kind === 'num' ? items instanceof Float64Array : items instanceof Int32Array && !str) {
    ;(items as Float64Array | Int32Array).set(src.subarray(from, from + n))
    if (e.kind === 'num') markNulls(v, n, (k) => Number.isNaN(src[from + k]))
  } else if (str && items !== undefined && !(items instanceof Float64Array || items instanceof Int32Array)) {
    for (let k = 0; k < n; k++) items[k] = Math.max(0, (src[from + k] as number) - 1)
    markNulls(v, n, (k) => src[from + k] === 0)
  } else {
    for (let k = 0; k < n; k++) v.setItem(k, value(e, src[from + k] as number))
  }
  v.flush()
}

/** The validity of a vector as the node-api (1.5.6) keeps it: one bit per row, set when the row is not null. */
interface Validity {
  data: BigUint64Array | null
  offset: number
}

/**
 * Marks the rows k < n of `v` for which isNull(k) as null. The first goes through setItem
 * (which gives the vector its mask); the rest by clearing bits, 64 rows a word, where the
 * vector's mask is there to clear (else setItem each).
 */
function markNulls(v: DuckDBVector, n: number, isNull: (k: number) => boolean): void {
  let k = 0
  while (k < n && !isNull(k)) k++
  if (k === n) return
  v.setItem(k, null)
  const validity = (v as unknown as { validity?: Validity }).validity
  const data = validity?.data
  if (!(data instanceof BigUint64Array) || validity?.offset !== 0 || data.length * 64 < n) {
    for (k++; k < n; k++) if (isNull(k)) v.setItem(k, null)
    return
  }
  for (let w = k >> 6; w * 64 < n; w++) {
    let lo = 0
    let hi = 0
    for (let b = 0; b < 64 && w * 64 + b < n; b++)
      if (isNull(w * 64 + b)) {
        if (b < 32) lo |= 1 << b
        else hi |= 1 << (b - 32)
      }
    if ((lo | hi) !== 0) data[w] = (data[w] as bigint) & ~((BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0))
  }
}

/** The value that encoded `x` of column `e` stands for (see Encoded). */
function value(e: Encoded, x: number): number | string | boolean | null {
  if (e.kind === 'num') return Number.isNaN(x) ? null : x
  if (e.kind === 'int') return x
  if (e.kind === 'bool') return x === 0 ? null : x === 2
  return x === 0 ? null : (e.dict[x - 1] as string)
}
