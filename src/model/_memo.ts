import type { Row } from './types.ts'

/** Beyond this many distinct row objects the memo starts over (rows in memory are all distinct). */
const LIMIT = 1 << 16

/**
 * `f` memoized by row object, for one pass over rows: a SampleSet yields one shared object
 * per group of rows (its value changed between yields), so what `f` derives from a row's
 * conditions (a cell or series key, never the value) is computed once per group. `f` must
 * not read `value`. The last row is checked first (groups usually come in runs).
 */
export function rowMemo<T>(f: (r: Row) => T): (r: Row) => T {
  const seen = new Map<Row, T>()
  let last: Row | undefined
  let lastT: T
  return (r) => {
    if (r === last) return lastT as T
    let t = seen.get(r)
    if (t === undefined && !seen.has(r)) {
      if (seen.size >= LIMIT) seen.clear()
      t = f(r)
      seen.set(r, t)
    }
    last = r
    lastT = t as T
    return t as T
  }
}
