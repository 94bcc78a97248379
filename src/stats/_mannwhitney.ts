/**
 * The Mann-Whitney U test (Wilcoxon rank-sum), two-sided. When both samples have fewer
 * than 50 values the p-value is exact, ties or not (without ties R's `wilcox.test(a, b)`;
 * with ties the exact permutation distribution, as benchstat's statistics package and R
 * coin's exact `wilcox_test`); larger samples use the normal approximation with tie and
 * continuity corrections, which is accurate there. This is benchstat's comparison
 * (benchmath's AssumeNothing). Own ranking code: simple-statistics' `wilcoxonRankSum`
 * gives the rank sum but not the tie groups both the exact and the normal p need.
 */
import { exactTiedP } from './_exact-ties.ts'
import { normalCdf } from './_normal.ts'

/** Result of `mannWhitney`. */
export interface MannWhitney {
  /** U of the first sample: pairs (a_i, b_j) with a_i > b_j, ties counted ½ (R's W). */
  u: number
  /** Two-sided p-value; NaN when a sample is empty; 1 when every value is equal. */
  p: number
  /** True when `p` comes from the exact distribution. */
  exact: boolean
  /** True when the pooled sample has tied values. */
  ties: boolean
}

/** Below this size (both samples) the exact distribution is used, as in R. */
export const EXACT_LIMIT = 50

/**
 * Frequencies of U for sample sizes m and n under H0: the coefficients of the Gaussian
 * binomial [m+n choose m]_q, built by the q-Pascal rule [a, b] = [a−1, b−1] + q^b·[a−1, b].
 * Only additions of non-negative numbers, so no cancellation in floating point.
 */
export function uFrequencies(m: number, n: number): Float64Array {
  // rows[b] holds [a choose b]_q for the current a, b ≤ m.
  let rows: Float64Array[] = [Float64Array.of(1)]
  for (let a = 1; a <= m + n; a++) {
    const next: Float64Array[] = []
    const top = Math.min(a, m)
    for (let b = 0; b <= top; b++) {
      const deg = b * (a - b)
      const row = new Float64Array(deg + 1)
      const left = b > 0 ? rows[b - 1] : undefined
      const right = b < a ? rows[b] : undefined
      if (left) for (let i = 0; i < left.length; i++) row[i] = (row[i] as number) + (left[i] as number)
      if (right) for (let i = 0; i < right.length; i++) row[i + b] = (row[i + b] as number) + (right[i] as number)
      next.push(row)
    }
    rows = next
  }
  return rows[m] as Float64Array
}

/**
 * Midrank sum of `a` in the pooled sample, the sizes of every group of equal values in
 * ascending order (`groups`, 1 for an untied value) and of the tied ones (`ties`).
 */
function rankPooled(
  a: readonly number[],
  b: readonly number[],
): { rankSumA: number; groups: number[]; ties: number[] } {
  const pooled = new Float64Array(a.length + b.length)
  const fromA = new Uint8Array(pooled.length)
  const idx = new Uint32Array(pooled.length)
  a.forEach((v, i) => {
    pooled[i] = v
    fromA[i] = 1
  })
  b.forEach((v, i) => void (pooled[a.length + i] = v))
  for (let i = 0; i < idx.length; i++) idx[i] = i
  idx.sort((x, y) => (pooled[x] as number) - (pooled[y] as number))
  let rankSumA = 0
  const ties: number[] = []
  const groups: number[] = []
  for (let i = 0; i < idx.length; ) {
    let j = i
    while (j + 1 < idx.length && pooled[idx[j + 1] as number] === pooled[idx[i] as number]) j++
    const mid = (i + j) / 2 + 1
    for (let k = i; k <= j; k++) if (fromA[idx[k] as number]) rankSumA += mid
    if (j > i) ties.push(j - i + 1)
    groups.push(j - i + 1)
    i = j + 1
  }
  return { rankSumA, groups, ties }
}

/** Cumulative U frequencies per (m, n), cached: every cell of a sweep tends to share its n. */
const cdfCache = new Map<string, { cum: Float64Array; total: number }>()

function cumulative(m: number, n: number): { cum: Float64Array; total: number } {
  const key = `${m},${n}`
  let hit = cdfCache.get(key)
  if (!hit) {
    const f = uFrequencies(m, n)
    const cum = new Float64Array(f.length)
    let run = 0
    f.forEach((c, i) => void (cum[i] = run += c))
    hit = { cum, total: run }
    if (cdfCache.size >= 256) cdfCache.clear()
    cdfCache.set(key, hit)
  }
  return hit
}

/**
 * Two-sided exact p as R: P(U ≥ u) if u > mn/2 else P(U ≤ u), doubled, capped at 1. The
 * null distribution is symmetric, P(U ≥ u) = P(U ≤ mn − u), so both tails are summed from
 * below and keep their relative precision.
 */
function exactP(u: number, m: number, n: number): number {
  const { cum, total } = cumulative(m, n)
  const below = (k: number): number => (k < 0 ? 0 : (cum[Math.min(k, cum.length - 1)] as number))
  const tail = below(Math.floor(Math.min(u, m * n - u)))
  return Math.min(1, (2 * tail) / total)
}

/** Two-sided p from the normal approximation with tie and continuity corrections (R's). */
export function uNormalP(u: number, m: number, n: number, ties: readonly number[]): number {
  const N = m + n
  const tieSum = ties.reduce((s, t) => s + t * t * t - t, 0)
  const sigma = Math.sqrt(((m * n) / 12) * (N + 1 - tieSum / (N * (N - 1))))
  if (!(sigma > 0)) return 1
  const d = u - (m * n) / 2
  const z = (d - 0.5 * Math.sign(d)) / sigma
  return Math.min(1, 2 * Math.min(normalCdf(z), normalCdf(-z)))
}

/**
 * The smallest two-sided p the exact U test can give with samples of m and n values and
 * no ties, 2/C(m+n, m) (ties only make it larger): below α nothing can be significant.
 */
export function uTestMinP(m: number, n: number): number {
  let c = 1
  for (let i = 1; i <= Math.min(m, n); i++) c = (c * (m + n - i + 1)) / i
  return Math.min(1, 2 / c)
}

/** Two-sided Mann-Whitney U test of `a` against `b`. */
export function mannWhitney(a: readonly number[], b: readonly number[]): MannWhitney {
  const m = a.length
  const n = b.length
  if (m === 0 || n === 0) return { u: NaN, p: NaN, exact: false, ties: false }
  const { rankSumA, groups, ties } = rankPooled(a, b)
  const u = rankSumA - (m * (m + 1)) / 2
  const tied = ties.length > 0
  if (m < EXACT_LIMIT && n < EXACT_LIMIT) {
    const p = tied ? exactTiedP(u, m, n, groups) : exactP(u, m, n)
    return { u, p, exact: true, ties: tied }
  }
  return { u, p: uNormalP(u, m, n, ties), exact: false, ties: tied }
}
