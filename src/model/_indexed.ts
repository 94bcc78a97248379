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
