/**
 * The standard normal CDF to near double precision, for p-values: erfc by its Maclaurin
 * series for |x| < 2 and by its continued fraction (Abramowitz & Stegun 7.1.14) above,
 * so tail probabilities keep their relative precision. Own code: simple-statistics'
 * `cumulativeStdNormalProbability` is a table in steps of 0.01 and its `errorFunction` has an
 * absolute error near 1e-7, too coarse for the small p-values a false-discovery gate ranks.
 */

const SQRT_PI = Math.sqrt(Math.PI)

/** erf(x) by its Maclaurin series, 2/√π Σ (−1)^k x^(2k+1) / (k!(2k+1)); used for |x| < 2. */
function erfSeries(x: number): number {
  let term = x
  let sum = x
  const x2 = x * x
  for (let k = 1; k < 200; k++) {
    term *= -x2 / k
    const add = term / (2 * k + 1)
    sum += add
    if (Math.abs(add) < 1e-17 * Math.abs(sum)) break
  }
  return (2 / SQRT_PI) * sum
}

/** erfc(x) for x ≥ 2 by the continued fraction, evaluated with the modified Lentz method. */
function erfcFraction(x: number): number {
  // erfc(x) = exp(−x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + …)))))
  const tiny = 1e-300
  let f = x
  let c = x
  let d = 0
  for (let k = 1; k < 500; k++) {
    const a = k / 2
    d = x + a * d
    d = Math.abs(d) < tiny ? tiny : d
    c = x + a / c
    c = Math.abs(c) < tiny ? tiny : c
    d = 1 / d
    const delta = c * d
    f *= delta
    if (Math.abs(delta - 1) < 1e-16) break
  }
  return Math.exp(-x * x) / SQRT_PI / f
}

/** The complementary error function erfc(x) = 1 − erf(x). */
export function erfc(x: number): number {
  if (Number.isNaN(x)) return NaN
  if (x >= 2) return erfcFraction(x)
  if (x <= -2) return 2 - erfcFraction(-x)
  return 1 - erfSeries(x)
}

/** Φ(z), the standard normal CDF. */
export function normalCdf(z: number): number {
  return 0.5 * erfc(-z / Math.SQRT2)
}
