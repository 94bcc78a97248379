/**
 * The columns of a samples part (schema 2): one column per Row field, so pandas, polars,
 * DuckDB or Arrow read the parts directly. Strings are dictionary-encoded by the Parquet
 * writer; `env` and `hostAxis` are JSON text.
 */
import type { Row } from '../model/index.ts'

/** How a column is encoded in a batch before it becomes Parquet (_parquet.ts). */
export type ColumnKind = 'str' | 'json' | 'num' | 'int' | 'bool'

/** One column: its name and kind (ColumnBatch.add reads the row's fields in this order). */
interface Column {
  name: string
  kind: ColumnKind
}

/** The columns, in file order. Numbers that are not always integers are DOUBLE, so they round-trip exactly. */
export const COLUMNS: readonly Column[] = [
  { name: 'bench', kind: 'str' },
  { name: 'metric', kind: 'str' },
  { name: 'unit', kind: 'str' },
  { name: 'value', kind: 'num' },
  { name: 'sizeBytes', kind: 'num' },
  { name: 'ranks', kind: 'num' },
  { name: 'src', kind: 'num' },
  { name: 'dst', kind: 'num' },
  { name: 'placement', kind: 'str' },
  { name: 'p2p', kind: 'str' },
  { name: 'timer', kind: 'str' },
  { name: 'trial', kind: 'int' },
  { name: 'file', kind: 'str' },
  { name: 'line', kind: 'int' },
  { name: 'dtype', kind: 'str' },
  { name: 'redop', kind: 'str' },
  { name: 'root', kind: 'num' },
  { name: 'peerAccess', kind: 'bool' },
  { name: 'copy', kind: 'str' },
  { name: 'staging', kind: 'str' },
  { name: 'batch', kind: 'num' },
  { name: 'direction', kind: 'str' },
  { name: 'iteration', kind: 'num' },
  { name: 'group', kind: 'str' },
  { name: 'grouping', kind: 'str' },
  { name: 'point', kind: 'str' },
  { name: 'env', kind: 'json' },
  { name: 'hostAxis', kind: 'json' },
  { name: 'host', kind: 'str' },
  { name: 'requestedBytes', kind: 'num' },
]

/**
 * One column of a batch, encoded without nulls: strings (and JSON objects)
 * as codes into `dict` (0 = null, k = dict[k-1]), nullable numbers as doubles with NaN for
 * null (row numbers are finite, so NaN is free), booleans as 0 null, 1 false, 2 true.
 */
export interface Encoded {
  kind: ColumnKind
  data: Float64Array | Int32Array
  dict: string[]
}

/** A growable column of numbers (doubles, NaN for null). */
class Nums {
  data: Float64Array
  constructor(capacity: number) {
    this.data = new Float64Array(capacity)
  }
}

/** A growable column of small integers (int values, or bool codes). */
class Ints {
  data: Int32Array
  constructor(capacity: number) {
    this.data = new Int32Array(capacity)
  }
}

/**
 * A growable column of string codes with its dictionary. Keyed by the value, and for JSON
 * objects also by identity (the rows of a point share one env object); the last value is
 * checked first, since neighbouring rows mostly repeat it.
 */
class Strs {
  data: Int32Array
  dict: string[] = []
  private codes = new Map<unknown, number>()
  private last: unknown
  private lastCode = 0
  constructor(
    capacity: number,
    private readonly json: boolean,
  ) {
    this.data = new Int32Array(capacity)
  }
  /** Forgets the values seen (a new dictionary; encoded columns handed out keep the old one). */
  reset(): void {
    this.dict = []
    this.codes = new Map()
    this.last = undefined
    this.lastCode = 0
  }
  code(x: unknown): number {
    if (x === undefined || x === null) return 0
    if (x === this.last) return this.lastCode
    let code = this.codes.get(x)
    if (code === undefined) {
      const text = this.json ? JSON.stringify(x) : (x as string)
      code = this.codes.get(text)
      if (code === undefined) {
        this.dict.push(text)
        code = this.dict.length
        this.codes.set(text, code)
      }
      this.codes.set(x, code)
    }
    this.last = x
    this.lastCode = code
    return code
  }
}

type Col = Nums | Ints | Strs

const num = (x: number | null | undefined): number => (x === null || x === undefined ? Number.NaN : x)
const bool = (x: boolean | undefined): number => (x === undefined ? 0 : x ? 2 : 1)

/**
 * The rows of one part, encoded column by column (COLUMNS order) as they arrive: no row is
 * kept, so a batch costs its typed arrays (about 170 B a row) rather than its row objects.
 */
export class ColumnBatch {
  /** Rows added. */
  length = 0
  private readonly cols: Col[]
  // The columns by position, typed (COLUMNS order: 0-13, 14-25, 26-29).
  private readonly c: [Strs, Strs, Strs, Nums, Nums, Nums, Nums, Nums, Strs, Strs, Strs, Ints, Strs, Ints]
  private readonly d: [Strs, Strs, Nums, Ints, Strs, Strs, Nums, Strs, Nums, Strs, Strs, Strs]
  private readonly e: [Strs, Strs, Strs, Nums]
  constructor(capacity = 1024) {
    const n = Math.max(1, capacity)
    this.cols = COLUMNS.map((k) =>
      k.kind === 'num'
        ? new Nums(n)
        : k.kind === 'int' || k.kind === 'bool'
          ? new Ints(n)
          : new Strs(n, k.kind === 'json'),
    )
    this.c = this.cols.slice(0, 14) as ColumnBatch['c']
    this.d = this.cols.slice(14, 26) as ColumnBatch['d']
    this.e = this.cols.slice(26) as ColumnBatch['e']
  }

  /** Adds one row: one pass over its fields, with direct property reads. */
  add(r: Row): void {
    const i = this.length
    if (i === (this.cols[0] as Col).data.length) this.grow()
    const { c, d, e } = this
    c[0].data[i] = c[0].code(r.bench)
    c[1].data[i] = c[1].code(r.metric)
    c[2].data[i] = c[2].code(r.unit)
    c[3].data[i] = r.value
    c[4].data[i] = num(r.sizeBytes)
    c[5].data[i] = num(r.ranks)
    c[6].data[i] = num(r.src)
    c[7].data[i] = num(r.dst)
    c[8].data[i] = c[8].code(r.placement)
    c[9].data[i] = c[9].code(r.p2p)
    c[10].data[i] = c[10].code(r.timer)
    c[11].data[i] = r.trial
    c[12].data[i] = c[12].code(r.source.file)
    c[13].data[i] = r.source.line
    d[0].data[i] = d[0].code(r.dtype)
    d[1].data[i] = d[1].code(r.redop)
    d[2].data[i] = num(r.root)
    d[3].data[i] = bool(r.peerAccess)
    d[4].data[i] = d[4].code(r.copy)
    d[5].data[i] = d[5].code(r.staging)
    d[6].data[i] = num(r.batch)
    d[7].data[i] = d[7].code(r.direction)
    d[8].data[i] = num(r.iteration)
    d[9].data[i] = d[9].code(r.group)
    d[10].data[i] = d[10].code(r.grouping)
    d[11].data[i] = d[11].code(r.point)
    e[0].data[i] = e[0].code(r.env)
    e[1].data[i] = e[1].code(r.hostAxis)
    e[2].data[i] = e[2].code(r.host)
    e[3].data[i] = num(r.requestedBytes)
    this.length = i + 1
  }

  /** Empties the batch for reuse (its arrays stay; the dictionaries start afresh). */
  clear(): void {
    this.length = 0
    for (const col of this.cols) if (col instanceof Strs) col.reset()
  }

  /**
   * The encoded columns, which now own their arrays (to be moved to another thread), and an
   * empty batch of the same capacity on other arrays: `spare` (the buffers of arrays given
   * away before, in column order) when they fit, else new ones. No value is copied.
   */
  take(spare?: readonly ArrayBuffer[]): Encoded[] {
    const out = this.encoded()
    this.cols.forEach((col, j) => {
      const n = col.data.length
      const f64 = col.data instanceof Float64Array
      const b = spare?.[j]
      col.data =
        b && b.byteLength === n * (f64 ? 8 : 4)
          ? f64
            ? new Float64Array(b)
            : new Int32Array(b)
          : f64
            ? new Float64Array(n)
            : new Int32Array(n)
    })
    this.clear()
    return out
  }

  private grow(): void {
    for (const col of this.cols) {
      const next =
        col.data instanceof Float64Array ? new Float64Array(col.data.length * 2) : new Int32Array(col.data.length * 2)
      next.set(col.data)
      col.data = next
    }
  }

  /** The columns of the rows added so far (views of the batch's arrays). */
  encoded(): Encoded[] {
    return this.cols.map((col, j) => ({
      kind: (COLUMNS[j] as Column).kind,
      data: col.data.subarray(0, this.length),
      dict: col instanceof Strs ? col.dict : [],
    }))
  }
}

/** Encodes `rows` column by column, in COLUMNS order. */
export function encode(rows: readonly Row[]): Encoded[] {
  const b = new ColumnBatch(rows.length)
  for (const r of rows) b.add(r)
  return b.encoded()
}
