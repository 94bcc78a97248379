/**
 * huberLine (src/analysis/fit/_fit.ts) against the definition of its estimate, on generated
 * points (not measurements): the line it returns solves Huber's weighted normal equations with
 * weights 1/y² · min(1, C·s/|r|), r the relative residuals and s = 1.4826 × their median |r|
 * (both worked out here), and the inputs with no line: no points, sizes that are all unknown
 * (NaN: one size, as a Set counts them), an unknown size among known ones, a time of 0.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { huberLine, type XY } from '../../src/analysis/fit/_fit.ts'
import { mulberry32 } from '../../src/random/index.ts'

const HUBER_C = 1.345

/** The median of `v`: the middle value, or the mean of the two middle ones. */
function median(v: readonly number[]): number {
  const s = [...v].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2
}

/** α = 10 µs, β = 20 GB/s through n sizes 8 B·4^i, `noise` relative, point `high` `factor`× high. */
function series(n: number, noise: () => number, high: number, factor: number): XY[] {
  return Array.from({ length: n }, (_, i) => {
    const x = 8 * 4 ** i
    const y = (1e-5 + x / 2e10) * (1 + noise()) * (i === high ? factor : 1)
    return { x, y }
  })
}

test('huberLine solves the Huber equations: weights 1/y² clipped at C·s, s = 1.4826 × median |relative residual|', () => {
  const rnd = mulberry32(7)
  for (let n = 5; n <= 14; n++) {
    const p = series(n, () => 0.05 * (rnd() - 0.5), n % 4, 1.5)
    const f = huberLine(p)
    const r = p.map((q) => (q.y - f.alpha - f.slope * q.x) / q.y)
    const s = 1.4826 * median(r.map(Math.abs))
    const w = p.map((q, i) => Math.min(1, (HUBER_C * s) / Math.abs(r[i] as number)) / (q.y * q.y))
    assert.ok(
      r.some((ri) => Math.abs(ri) > HUBER_C * s),
      `n=${n}: some point is clipped (the 1.5× one)`,
    )
    // Σ w·(y − ŷ) = 0 and Σ w·x·(y − ŷ) = 0, each relative to Σ w·y and Σ w·x·y.
    let e0 = 0
    let e1 = 0
    let m0 = 0
    let m1 = 0
    p.forEach((q, i) => {
      const wi = w[i] as number
      const res = q.y - f.alpha - f.slope * q.x
      e0 += wi * res
      e1 += wi * q.x * res
      m0 += wi * q.y
      m1 += wi * q.x * q.y
    })
    assert.ok(Math.abs(e0 / m0) < 1e-9, `n=${n}: Σ w·r = ${e0 / m0} of Σ w·y`)
    assert.ok(Math.abs(e1 / m1) < 1e-9, `n=${n}: Σ w·x·r = ${e1 / m1} of Σ w·x·y`)
  }
})

test('huberLine: no points give no line (α NaN), not an error', () => {
  const f = huberLine([])
  assert.ok(Number.isNaN(f.alpha))
  assert.equal(f.slope, 0)
  assert.equal(f.n, 0)
})

test('huberLine: sizes that are all unknown (NaN) are one size: α is the median time', () => {
  const f = huberLine([
    { x: Number.NaN, y: 1 },
    { x: Number.NaN, y: 2 },
    { x: Number.NaN, y: 4 },
  ])
  assert.equal(f.alpha, 2)
  assert.equal(f.slope, 0)
})

test('huberLine: an unknown size among known ones, or a time of 0, is refused (RangeError), not fitted as one size', () => {
  const nonFinite = { name: 'RangeError', message: /non-finite/ }
  assert.throws(
    () =>
      huberLine([
        { x: Number.NaN, y: 1 },
        { x: 8, y: 2 },
      ]),
    nonFinite,
  )
  assert.throws(
    () =>
      huberLine([
        { x: 8, y: 1 },
        { x: 16, y: 0 },
        { x: 32, y: 2 },
      ]),
    nonFinite,
  )
})
