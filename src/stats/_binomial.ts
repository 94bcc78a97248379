/**
 * Distribution-free confidence interval of the median from order statistics, as benchstat
 * (golang.org/x/perf/benchmath, via go-moremath's QuantileCI) computes it.
 *
 * With n values, the number of them below the true median is Binomial(n, ½). The interval
 * [x(k), x(n−k+1)] (1-based order statistics) covers the median with probability
 * 1 − 2·P(X ≤ k−1). We take the largest k whose coverage is still ≥ the requested level;
 * when even k = 1 does not reach it (n < 6 at 95 %), the interval is (−∞, +∞). Own code:
 * simple-statistics has no confidence interval of a median.
 */
import type { Ranked } from './_order-stats.ts'

/** The chosen order statistics (1-based) and the coverage they actually give. */
export interface OrderCi {
  /** 1-based index of the lower order statistic; 0 when the interval is unbounded. */
  lo: number
  /** 1-based index of the upper order statistic; n + 1 when unbounded. */
  hi: number
  /** Exact coverage probability of [x(lo), x(hi)]; 1 when unbounded. */
  coverage: number
}

const LN2 = Math.LN2

/** log(exp(a) + exp(b)) without overflow. */
function logAdd(a: number, b: number): number {
  if (a === -Infinity) return b
  const m = Math.max(a, b)
  return m + Math.log(Math.exp(a - m) + Math.exp(b - m))
}

/**
 * Order statistics for a median CI at `level` with n values. Walks the Binomial(n, ½) CDF
 * upward in log space (exact, no underflow for large n; O(k) steps).
 */
export function medianOrderCi(n: number, level: number): Readonly<OrderCi> {
  const key = `${n},${level}`
  let hit = cache.get(key)
  if (!hit) {
    hit = computeOrderCi(n, level)
    if (cache.size >= 4096) cache.clear()
    cache.set(key, hit)
  }
  return hit
}

/** Results of `medianOrderCi` by (n, level): cells of one sweep share their n. */
const cache = new Map<string, Readonly<OrderCi>>()

function computeOrderCi(n: number, level: number): OrderCi {
  const tail = (1 - level) / 2
  if (n < 1) return { lo: 0, hi: n + 1, coverage: 1 }
  let logPmf = -n * LN2 // P(X = 0)
  let logCdf = logPmf // P(X ≤ 0)
  if (Math.exp(logCdf) > tail) return { lo: 0, hi: n + 1, coverage: 1 }
  // Invariant: P(X ≤ k−1) ≤ tail, so [x(k), x(n−k+1)] has coverage ≥ level.
  let k = 1
  let cdfKm1 = logCdf
  while (k < Math.floor((n + 1) / 2)) {
    logPmf += Math.log((n - k + 1) / k) // P(X = k)
    const next = logAdd(logCdf, logPmf) // P(X ≤ k)
    if (Math.exp(next) > tail) break
    logCdf = next
    cdfKm1 = next
    k++
  }
  return { lo: k, hi: n - k + 1, coverage: 1 - 2 * Math.exp(cdfKm1) }
}

/**
 * The distribution-free CI of the median of a sorted sample: [x(k), x(n−k+1)], or
 * [−∞, +∞] when n is too small for `level` (default 0.95).
 */
export function medianCI(sorted: Ranked, level = 0.95): [number, number] {
  const o = medianOrderCi(sorted.length, level)
  if (o.lo < 1) return [-Infinity, Infinity]
  return [sorted.at(o.lo - 1) as number, sorted.at(o.hi - 1) as number]
}

/**
 * P(X ≥ k) for X ~ Binomial(n, p): the chance of k or more hits in n tries at rate p, summed
 * in log space from X = k upward (exact; no underflow for large n).
 */
export function binomialUpperTail(k: number, n: number, p: number): number {
  if (k <= 0) return 1
  if (k > n) return 0
  if (p <= 0) return 0
  if (p >= 1) return 1
  // log P(X = k) = log C(n, k) + k log p + (n − k) log(1 − p)
  let logC = 0
  for (let i = 1; i <= k; i++) logC += Math.log((n - k + i) / i)
  let logPmf = logC + k * Math.log(p) + (n - k) * Math.log1p(-p)
  let logSum = logPmf
  for (let x = k + 1; x <= n; x++) {
    logPmf += Math.log(((n - x + 1) / x) * (p / (1 - p)))
    logSum = logAdd(logSum, logPmf)
  }
  return Math.min(1, Math.exp(logSum))
}
