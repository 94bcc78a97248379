/**
 * The exact null distribution of the Mann-Whitney U with ties (Klotz 1966; the shift
 * algorithm of Cheung & Klotz 1997 / Streitberg & Röhmel 1986, as benchstat's statistics
 * package uses for small samples). Own code: simple-statistics has no exact U test.
 *
 * Given the pooled sample's tie groups t_1 … t_g in ascending order, every way of choosing
 * which m of the N = m + n values belong to the first sample is equally likely under H0.
 * Choosing j values of group i for the first sample, when b values of the second sample
 * lie below the group, adds j·b + j·(t_i − j)/2 to U (ties count ½). A dynamic programme
 * over the groups, with state (values of the first sample so far, 2U so far), counts the
 * choices by multiplying binomial weights C(t_i, j): only sums of non-negative numbers.
 */

/** Counts of 2U (index 0 … 2mn) over all C(N, m) choices, for tie groups `ties` (sizes, ascending values). */
export function tiedU2Counts(m: number, n: number, ties: readonly number[]): Float64Array {
  const width = 2 * m * n + 1
  let dp = new Float64Array((m + 1) * width)
  dp[0] = 1
  // top[k]: highest 2U reached with k values of the first sample placed (bounds the inner loop).
  let top = new Int32Array(m + 1).fill(-1)
  top[0] = 0
  let placed = 0
  for (const t of ties) {
    const next = new Float64Array(dp.length)
    const nextTop = new Int32Array(m + 1).fill(-1)
    const binom = binomialRow(t)
    for (let k = 0; k <= Math.min(m, placed); k++) {
      const below = placed - k // values of the second sample below this group
      const hi = top[k] as number
      if (below > n || hi < 0) continue
      const row = k * width
      for (let j = Math.max(0, t - (n - below)); j <= Math.min(t, m - k); j++) {
        const add = j * (2 * below + (t - j))
        const w = binom[j] as number
        const to = (k + j) * width + add
        for (let s = 0; s <= hi; s++) {
          const c = dp[row + s] as number
          if (c !== 0) next[to + s] = (next[to + s] as number) + c * w
        }
        if (hi + add > (nextTop[k + j] as number)) nextTop[k + j] = hi + add
      }
    }
    dp = next
    top = nextTop
    placed += t
  }
  return dp.subarray(m * width, (m + 1) * width)
}

/** C(t, 0) … C(t, t). */
function binomialRow(t: number): Float64Array {
  const row = new Float64Array(t + 1)
  row[0] = 1
  for (let j = 1; j <= t; j++) row[j] = ((row[j - 1] as number) * (t - j + 1)) / j
  return row
}

/** Distributions by (m, n, tie pattern): cells of one sweep often share a pattern. */
const cache = new Map<string, Float64Array>()

/**
 * Two-sided exact p with ties: P(|U − mn/2| ≥ |u − mn/2|) under H0, the permutation
 * p-value (R coin's `wilcox_test(distribution = "exact")`). Equals R's doubled tail when
 * there are no ties, whose distribution is symmetric.
 */
export function exactTiedP(u: number, m: number, n: number, ties: readonly number[]): number {
  const key = `${m},${n}|${ties.join(',')}`
  let counts = cache.get(key)
  if (!counts) {
    counts = tiedU2Counts(m, n, ties)
    if (cache.size >= 512) cache.clear()
    cache.set(key, counts)
  }
  const mn = m * n
  const d = Math.abs(Math.round(2 * u) - mn)
  let hit = 0
  let total = 0
  counts.forEach((c, s) => {
    total += c
    if (Math.abs(s - mn) >= d) hit += c
  })
  return Math.min(1, hit / total)
}
