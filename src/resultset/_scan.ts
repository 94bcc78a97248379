/**
 * The table function `gpucomm_part()` through which a batch's columns reach the engine. The
 * COPY that writes a part scans it, 2,048 rows a call (DuckDB's vector size), and each call
 * copies a slice of each column into the output vector, with no temp table, no appender and
 * no conversion per value. Strings arrive as ENUMs of the batch's dictionary, which the
 * Parquet writer stores as dictionary-encoded UTF-8 strings, the same as a VARCHAR column.
 */
import type { DuckDBConnection, DuckDBType, DuckDBVector } from '@duckdb/node-api'
import type { Encoded } from './_columns.ts'

type Api = typeof import('@duckdb/node-api')

/** What the next scan hands to the engine: the columns `varying` of `cols`, `rows` rows each. */
export interface Feed {
  cols: readonly Encoded[]
  varying: readonly number[]
  rows: number
  /** Copy whole slices into the vectors' own arrays (false: one setItem per value, as the node-api documents). */
  bulk: boolean
}

/** The name the scan is registered under. */
export const SCAN = 'gpucomm_part'
const VECTOR = 2048

const slots = new WeakMap<DuckDBConnection, { feed?: Feed }>()

/** The slot whose feed the scan of `conn` reads (registering the scan on first use). */
export function scanSlot(api: Api, conn: DuckDBConnection): { feed?: Feed } {
  let slot = slots.get(conn)
  if (slot) return slot
  const s: { feed?: Feed } = {}
  slot = s
  const typeOf = (e: Encoded): DuckDBType =>
    e.kind === 'num' ? api.DOUBLE : e.kind === 'int' ? api.INTEGER : e.kind === 'bool' ? api.BOOLEAN : api.ENUM(e.dict)
  conn.registerTableFunction(
    api.DuckDBTableFunction.create({
      name: SCAN,
      bindFunction: (info) => {
        const f = s.feed
        if (!f) return info.setError(`${SCAN}: no batch to scan`)
        for (const j of f.varying) info.addResultColumn(`c${j}`, typeOf(f.cols[j] as Encoded))
        info.setCardinality(f.rows, true)
      },
      initFunction: (info) => info.setInitData({ next: 0 }),
      mainFunction: (info, out) => {
        const f = s.feed as Feed
        const st = info.initData as { next: number }
        const n = Math.min(VECTOR, f.rows - st.next)
        out.rowCount = n
        if (n <= 0) return
        try {
          f.varying.forEach((j, col) => {
            fill(out.getColumnVector(col), f.cols[j] as Encoded, st.next, n, f.bulk)
          })
        } catch (e) {
          info.setError(`${SCAN}: ${(e as Error).message}`)
        }
        st.next += n
      },
    }),
  )
  slots.set(conn, s)
  return s
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
 * Writes rows from..from+n of column `e` into vector `v`: one copy into the vector's own
 * array where it has one, then the nulls into its validity mask (the engine hands every call
 * a fresh output chunk, all valid; the round-trip tests check it with nulls moving between
 * chunks). Without the array (or with `bulk` false), setItem for every value.
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
