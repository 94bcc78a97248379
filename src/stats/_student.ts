/**
 * Student's t distribution: its upper tail and its quantiles, for intervals and tests built
 * from a handful of launches (6 a side by default), where the normal quantile 1.96 would be
 * too narrow (t(0.975, 10) = 2.228). The tail is the regularized incomplete beta function
 * I_x(ν/2, 1/2) with x = ν/(ν + t²), by its continued fraction (modified Lentz); ν may be
 * fractional (Welch–Satterthwaite). Own code: simple-statistics has the t statistic but no
 * t distribution.
 */

/** ln Γ(x) for x > 0 (Lanczos, g = 7, nine terms: about 15 significant digits). */
function lnGamma(x: number): number {
  const g = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ]
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x)
  const z = x - 1
  let a = g[0] as number
  const t = z + 7.5
  for (let i = 1; i < 9; i++) a += (g[i] as number) / (z + i)
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a)
}

/** The continued fraction of I_x(a, b) (Numerical Recipes' betacf), for x < (a + 1)/(a + b + 2). */
function betaFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300
  let c = 1
  let d = 1 - ((a + b) * x) / (a + 1)
  d = 1 / (Math.abs(d) < tiny ? tiny : d)
  let h = d
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m
    for (const num of [
      (m * (b - m) * x) / ((a + m2 - 1) * (a + m2)),
      (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1)),
    ]) {
      d = 1 + num * d
      d = 1 / (Math.abs(d) < tiny ? tiny : d)
      c = 1 + num / c
      c = Math.abs(c) < tiny ? tiny : c
      h *= d * c
    }
    if (Math.abs(d * c - 1) < 1e-15) break
  }
  return h
}

/** The regularized incomplete beta function I_x(a, b), 0 ≤ x ≤ 1. */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0
  if (x >= 1) return 1
  const front = Math.exp(lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log(1 - x))
  if (x < (a + 1) / (a + b + 2)) return (front * betaFraction(x, a, b)) / a
  return 1 - (front * betaFraction(1 - x, b, a)) / b
}

/** P(T > t) for T ~ Student t with `df` degrees of freedom (df > 0, may be fractional). */
export function studentTail(t: number, df: number): number {
  if (Number.isNaN(t) || !(df > 0)) return NaN
  if (t === Infinity) return 0
  if (t === -Infinity) return 1
  const half = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5)
  return t >= 0 ? half : 1 - half
}

/**
 * The quantile t_p of Student t with `df` degrees of freedom: P(T ≤ t_p) = p. By bisection
 * on the tail (monotone, so it cannot fail), to a relative 1e-12.
 */
export function studentQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1) || !(df > 0)) return p === 1 ? Infinity : p === 0 ? -Infinity : NaN
  if (p === 0.5) return 0
  if (p < 0.5) return -studentQuantile(1 - p, df)
  const q = 1 - p
  let lo = 0
  let hi = 1
  while (studentTail(hi, df) > q) {
    lo = hi
    hi *= 2
    if (hi > 1e300) return Infinity
  }
  for (let i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
    const mid = (lo + hi) / 2
    if (studentTail(mid, df) > q) lo = mid
    else hi = mid
  }
  return (lo + hi) / 2
}
