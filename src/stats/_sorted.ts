/**
 * Sorted samples and quantiles. A `SortedSample` is branded so the compiler knows it is
 * sorted ascending (tinybench's `SortedSamples`), which saves re-sorting in every statistic.
 */

/** An ascending-sorted, finite sample; build it with `sortSample`. */
export type SortedSample = readonly number[] & { readonly __sorted: true }

/** Copies `values` into `out` (at least as long); a non-finite value is a RangeError. */
export function copyFinite(values: ArrayLike<number>, out: Float64Array): Float64Array {
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number
    if (!Number.isFinite(v)) throw new RangeError(`sortSample: non-finite value ${v}`)
    out[i] = v
  }
  return out
}

/** Copies and sorts `values` ascending; non-finite values are rejected with a RangeError. */
export function sortSample(values: readonly number[]): SortedSample {
  const n = values.length
  const out = copyFinite(values, new Float64Array(n))
  out.sort()
  // An index loop, not Array.from: no iterator per element.
  const sorted = new Array<number>(n)
  for (let i = 0; i < n; i++) sorted[i] = out[i] as number
  return sorted as unknown as SortedSample
}

/**
 * The q-quantile (0 ≤ q ≤ 1) by linear interpolation between order statistics:
 * Hyndman & Fan (1996) definition 7, the default of R's `quantile()` and numpy's
 * `percentile()`: h = (n−1)·q, x[⌊h⌋] + (h−⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]). NaN for an empty sample.
 * Own code: simple-statistics' `quantileSorted` does not interpolate (it is not type 7).
 */
export function quantile(sorted: SortedSample, q: number): number {
  const n = sorted.length
  if (n === 0 || !(q >= 0 && q <= 1)) return NaN
  const h = (n - 1) * q
  const lo = Math.floor(h)
  const a = sorted[lo] as number
  if (lo + 1 >= n) return a
  return a + (h - lo) * ((sorted[lo + 1] as number) - a)
}

/** The median of a sorted sample (quantile 0.5). */
export const medianOf = (sorted: SortedSample): number => quantile(sorted, 0.5)
