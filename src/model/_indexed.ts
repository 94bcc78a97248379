import type { Row } from './types.ts'

/**
 * Rows held as arrays, as `loadSamples` reads a result set: row i is the representative row
 * `reps[group[i]]` (one per group of rows with equal conditions) with the value `value[i]`.
 * Iterating yields those rows in order, one shared object per group; a pass over millions of
 * rows can instead read the arrays and derive what it needs once per group (`isIndexed`).
 */
export interface IndexedRows extends Iterable<Row> {
  readonly reps: readonly Row[]
  /** The group of each row, indices into `reps` (the first `n` entries). */
  readonly group: Int32Array
  /** The value of each row (the first `n` entries). */
  readonly value: Float64Array
  readonly n: number
}

/** True when `rows` are IndexedRows. */
export const isIndexed = (rows: Iterable<Row>): rows is IndexedRows =>
  'reps' in rows && 'group' in rows && 'value' in rows && 'n' in rows

/** IndexedRows over these arrays (their first `n` entries); iterating sets each yielded row's value. */
export function indexedRows(reps: readonly Row[], group: Int32Array, value: Float64Array, n: number): IndexedRows {
  return {
    reps,
    group,
    value,
    n,
    *[Symbol.iterator]() {
      for (let i = 0; i < n; i++) {
        const r = reps[group[i] as number] as Row
        r.value = value[i] as number
        yield r
      }
    },
  }
}

/**
 * Calls `f` on every row in order. IndexedRows go by index, without a generator; the row
 * object is shared by the rows of a group as when iterating (read it in `f`, never keep it).
 */
export function eachRow(rows: Iterable<Row>, f: (r: Row) => void): void {
  if (!isIndexed(rows)) {
    for (const r of rows) f(r)
    return
  }
  const { reps, group, value, n } = rows
  for (let i = 0; i < n; i++) {
    const r = reps[group[i] as number] as Row
    r.value = value[i] as number
    f(r)
  }
}
