/**
 * Order statistics of a sample without sorting all of it. A statistic reads a few ranks (a
 * median, two quantiles, a CI's two order statistics), so those ranks are put in place by
 * selection, O(n), and a window of ranks around the median (where bootstrap medians fall)
 * is sorted; any other rank sorts the copy once, so every answer is the value a full sort
 * gives. For a cell of 9,000 values that is about a quarter of the work of a sort.
 */
import { copyFinite } from './_sorted.ts'

/** What reads ranks: a sorted array, or `OrderStats`. */
export interface Ranked {
  readonly length: number
  /** The value of rank `k` (0-based: rank 0 is the smallest). */
  at(k: number): number | undefined
}

/** Below this many values a full sort is as cheap as selecting. */
const SORT_BELOW = 64

/** The ranks of quantile `q` under Hyndman–Fan 7 (`quantile`): ⌊(n−1)q⌋ and the next one. */
export const quantileRanks = (n: number, q: number): number[] => {
  const lo = Math.floor((n - 1) * q)
  return lo + 1 < n ? [lo, lo + 1] : [lo]
}

/** A sample's order statistics on demand; see the module comment. */
export class OrderStats implements Ranked {
  readonly length: number
  private readonly a: Float64Array
  private readonly placed: Set<number>
  private lo = 0
  private hi = -1
  private sorted = false

  /**
   * Copies `values` (non-finite values are rejected with a RangeError, as `sortSample`
   * does), places `ranks` and sorts the ranks `window` = [lo, hi], both clamped to the sample.
   * The copy goes into `into` when it is long enough (a caller's scratch buffer, which this
   * object then uses: it must not outlive the caller's next use of the buffer).
   */
  constructor(
    values: ArrayLike<number>,
    ranks: readonly number[] = [],
    window?: readonly [number, number],
    into?: Float64Array,
  ) {
    const n = values.length
    this.length = n
    const a = copyFinite(values, into && into.length >= n ? into.subarray(0, n) : new Float64Array(n))
    this.a = a
    this.placed = new Set()
    if (n < SORT_BELOW || (window !== undefined && window[0] <= 0 && window[1] >= n - 1)) {
      a.sort()
      this.sorted = true
      return
    }
    const want = new Set(ranks.filter((k) => k >= 0 && k < n))
    if (window) {
      this.lo = Math.max(0, Math.floor(window[0]))
      this.hi = Math.min(n - 1, Math.ceil(window[1]))
      if (this.lo <= this.hi) want.add(this.lo).add(this.hi)
    }
    const ks = Int32Array.from(want).sort()
    selectRanks(a, 0, n - 1, ks, 0, ks.length - 1)
    for (const k of ks) this.placed.add(k)
    if (this.hi > this.lo) a.subarray(this.lo, this.hi + 1).sort()
  }

  at(k: number): number {
    if (!this.sorted && !(k >= this.lo && k <= this.hi) && !this.placed.has(k)) {
      this.a.sort()
      this.sorted = true
    }
    return this.a[k] as number
  }

  /** The q-quantile by Hyndman–Fan 7, as `quantile` computes it on the sorted sample. */
  quantile(q: number): number {
    const n = this.length
    if (n === 0 || !(q >= 0 && q <= 1)) return NaN
    const h = (n - 1) * q
    const lo = Math.floor(h)
    const x = this.at(lo)
    if (lo + 1 >= n) return x
    return x + (h - lo) * (this.at(lo + 1) - x)
  }
}

/**
 * A buffer of at least `n` doubles, reused from call to call (grown by doubling): for
 * callers that finish with it before they return, as `summarize` does, so that summarizing
 * a thousand cells allocates no array per cell.
 */
export function scratch(slot: 0 | 1, n: number): Float64Array {
  const b = buffers[slot] as Float64Array
  if (b.length >= n) return b
  buffers[slot] = new Float64Array(Math.max(n, 2 * b.length))
  return buffers[slot] as Float64Array
}
const buffers: Float64Array[] = [new Float64Array(0), new Float64Array(0)]

/**
 * The median absolute deviation, median(|x − median|), given the sample's `median`: one
 * array of deviations and a selection (the same number simple-statistics'
 * `medianAbsoluteDeviation` gives: both medians are Hyndman–Fan 7, interpolated alike).
 * The deviations go into `into` when it is long enough.
 */
export function madAround(values: ArrayLike<number>, median: number, into?: Float64Array): number {
  const n = values.length
  if (n === 0) return NaN
  const d = into && into.length >= n ? into : new Float64Array(n)
  for (let i = 0; i < n; i++) d[i] = Math.abs((values[i] as number) - median)
  const ks = Int32Array.from(quantileRanks(n, 0.5))
  selectRanks(d, 0, n - 1, ks, 0, ks.length - 1)
  const h = (n - 1) * 0.5
  const lo = Math.floor(h)
  const x = d[lo] as number
  return lo + 1 >= n ? x : x + (h - lo) * ((d[lo + 1] as number) - x)
}

/**
 * The k-th smallest of a[0..n), reordering a: afterwards a[k] holds it, a[0..k) ≤ it ≤ a(k..n).
 */
export function selectRank(a: Float64Array, n: number, k: number): number {
  selectRanks(a, 0, n - 1, Int32Array.of(k), 0, 0)
  return a[k] as number
}

/**
 * Puts the ranks ks[kl..kr] (ascending) of a[l..r] in place: afterwards a[k] is the value a
 * sort would put there, for each such k. Quickselect on several ranks at once: partition
 * around a median of three (Hoare, so runs of equal values split evenly), then go on only
 * into the sides that hold a wanted rank.
 */
function selectRanks(a: Float64Array, l: number, r: number, ks: Int32Array, kl: number, kr: number): void {
  while (kl <= kr && r > l) {
    if (r - l < SORT_BELOW) {
      a.subarray(l, r + 1).sort()
      return
    }
    const m = (l + r) >> 1
    if ((a[m] as number) < (a[l] as number)) swap(a, m, l)
    if ((a[r] as number) < (a[l] as number)) swap(a, r, l)
    if ((a[r] as number) < (a[m] as number)) swap(a, r, m)
    const pivot = a[m] as number
    let i = l
    let j = r
    while (i <= j) {
      while ((a[i] as number) < pivot) i++
      while ((a[j] as number) > pivot) j--
      if (i <= j) swap(a, i++, j--)
    }
    // a[l..j] ≤ pivot ≤ a[i..r], and a(j..i) equals the pivot: ranks there are in place.
    let left = kl
    while (left <= kr && (ks[left] as number) <= j) left++
    let right = left
    while (right <= kr && (ks[right] as number) < i) right++
    if (left - 1 >= kl) selectRanks(a, l, j, ks, kl, left - 1)
    l = i
    kl = right
  }
}

function swap(a: Float64Array, i: number, j: number): void {
  const t = a[i] as number
  a[i] = a[j] as number
  a[j] = t
}
