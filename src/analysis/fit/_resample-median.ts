/**
 * The median of a with-replacement resample of a sorted sample, drawn in O(1) from its
 * order-statistic distribution instead of n draws and a selection (O(n)).
 *
 * Resampling n values draws n uniform indices ⌊n·Uᵢ⌋ into the sorted sample x. The map from
 * U to the index is monotone, so the k-th smallest resampled value is x[⌊n·U₍ₖ₎⌋] (0-based;
 * the element at 1-based ⌈n·U₍ₖ₎⌉), where U₍ₖ₎, the k-th smallest of n uniforms, is
 * Beta(k, n−k+1). For odd n the median (`medianOf`, Hyndman–Fan 7) is the k = (n+1)/2-th
 * smallest. For even n it is the mean of the k = n/2-th and the (k+1)-th: given U₍ₖ₎ = u, the
 * n−k uniforms above it are independent and uniform on (u, 1), so U₍ₖ₊₁₎ is their minimum,
 * u + (1−u)·(1 − V^(1/(n−k))) with V uniform. Both draws are exact, so a replicate median has
 * the distribution of the plain resample's (test/unit/analysis-resample-median.test.ts checks
 * 20,000 replicates of each against each other); only the random stream differs.
 */
import type { Uniform } from '../../random/index.ts'
import { betaDeviate } from '../../random/index.ts'
import type { Ranked } from '../../stats/index.ts'

/**
 * Strata of at least this many samples take their bootstrap medians from `resampleMedian`;
 * smaller ones resample value by value. No test or golden comes near it (the largest stratum
 * any test fits has 80 samples), so their numbers stay those of the plain resampling. The
 * 10 M-sample set of bench/scale.bench.ts has strata of about 17,900 samples, where the plain
 * way cost 200 × n draws and selections per stratum: 70 % of `analyze` before this.
 */
export const ORDER_STAT_MIN = 1000

/** One bootstrap replicate of the median of `x` (sorted ascending, n ≥ 1), in O(1). */
export function resampleMedian(x: Ranked, rng: Uniform): number {
  const n = x.length
  const at = (u: number): number => x.at(Math.min(n - 1, Math.floor(n * u))) as number
  const k = (n + 1) >> 1 // the lower middle order statistic: (n+1)/2 for odd n, n/2 for even
  const u = betaDeviate(rng, k, n - k + 1)
  const lo = at(u)
  if (n % 2 === 1) return lo
  const v = u + (1 - u) * -Math.expm1(Math.log(1 - rng()) / (n - k))
  return lo + 0.5 * (at(v) - lo)
}
