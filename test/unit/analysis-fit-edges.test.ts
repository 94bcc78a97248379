/**
 * Edges of src/analysis/fit/_fit.ts on hand-made points (generated, not measurements), each
 * expected value worked out in the test: a line through two sizes only, sizes too close for
 * the normal equations (a flat line through the 1/y²-weighted mean), x spanning 200 decades
 * (the fit scales x by its largest value, else x² overflows), an exact line with one outlier,
 * the segment count chosen by n·ln(RSS/n) + 6k·ln n on both sides of its threshold, and the
 * segments of noisy series: contiguous, covering every point, each of at least `minPoints`.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { huberLine, segmentedFit, type XY } from '../../src/analysis/fit/_fit.ts'
import { mulberry32 } from '../../src/random/index.ts'
import { leastSquaresLine } from '../analysis/hand-fit.ts'

const close = (got: number, want: number, tol = 1e-9) =>
  assert.ok(Math.abs(got - want) <= tol * Math.abs(want), `${got} vs ${want}`)
const spans = (s: ReturnType<typeof segmentedFit>) => s.map((g) => [g.from, g.to])
/** 12 sizes, 8 B … 16 KiB. */
const XS = Array.from({ length: 12 }, (_, i) => 8 * 2 ** i)

test('huberLine: two sizes give the line through them, not their median', () => {
  // Through (8, 10) and (16, 12): slope 2/8 = 0.25, α = 10 − 8·0.25 = 8.
  const f = huberLine([
    { x: 8, y: 10 },
    { x: 16, y: 12 },
  ])
  close(f.alpha, 8)
  close(f.slope, 0.25)
  assert.ok(f.rss < 1e-20, `${f.rss}`)
})

test('huberLine: sizes the normal equations cannot tell apart give a flat line through the weighted mean', () => {
  // x and x + 2 ulp: the determinant rounds to 0. Weights 1/y²: (1·1 + 3/9) / (1 + 1/9) = 1.2;
  // relative residuals −0.2 and 0.6, both inside 1.345 × 1.4826 × 0.4, so no reweighting.
  for (const x of [1, 1024]) {
    const f = huberLine([
      { x, y: 1 },
      { x: x * (1 + 2 ** -51), y: 3 },
    ])
    close(f.alpha, 1.2, 1e-12)
    assert.equal(f.slope, 0)
    close(f.rss, 0.2 ** 2 + 0.6 ** 2, 1e-12)
  }
})

test('huberLine: x over 200 decades is scaled before squaring (x² would overflow)', () => {
  // y = 1 + 1e-200·x at x = 1, 1e50 … 1e200: unscaled, (1e200)² is Infinity and the slope is lost.
  const p = [0, 50, 100, 150, 200].map((k) => ({ x: 10 ** k, y: 1 + 1e-200 * 10 ** k }))
  const f = huberLine(p)
  close(f.alpha, 1, 1e-9)
  close(f.slope, 1e-200, 1e-9)
})

test('huberLine: an exact line with one point 10× off keeps the line; the point keeps its residual', () => {
  // 10 µs + x/1000 at 12 sizes, the 8th (1024 B: 11.024) read as 110.24.
  const p: XY[] = XS.map((x) => ({ x, y: 10 + x / 1000 }))
  p[7] = { x: 1024, y: 110.24 }
  const f = huberLine(p)
  close(f.alpha, 10, 1e-6)
  close(f.slope, 1e-3, 1e-6)
  // The outlier's relative residual (110.24 − 11.024)/110.24 = 0.9, squared 0.81, all of the RSS.
  close(f.rss, 0.9 ** 2, 1e-5)
})

/** Two exact lines meeting at 256 B: 10 + x/1000, then the slope × (1 + d) (6 points each). */
const bend = (d: number): XY[] =>
  XS.map((x) => ({ x, y: x <= 256 ? 10 + x / 1000 : 10.256 + ((x - 256) / 1000) * (1 + d) }))
const leastRss = (p: readonly XY[]): number => leastSquaresLine(p).rss

test('segmentedFit: an exact line stays one segment, however the points could be split', () => {
  // Every split of an exact line has RSS 0 (floored at (1e-3)²): only the penalty 6k·ln 12 differs.
  const p = XS.map((x) => ({ x, y: 10 + x / 1000 }))
  assert.deepEqual(spans(segmentedFit(p)), [[0, 11]])
  assert.deepEqual(spans(segmentedFit(p, { maxSegments: 3, minPoints: 2 })), [[0, 11]])
})

test('segmentedFit: a bend is split only when one line misses by more than the penalty allows', () => {
  // Split in two at the knee, each part exact: 12·ln(1e-6) + 12·ln 12. One line: 12·ln(RSS/12) +
  // 6·ln 12. One line is kept while RSS/12 < 1e-6·√12 = 3.46e-6 (a relative RMS of 0.19 %).
  const limit = 1e-6 * Math.sqrt(12)
  const slight = bend(0.17)
  const sharp = bend(0.4)
  // The least RSS a line can have bounds the Huber line's from below; with no outlier every point
  // keeps its full weight and the two are equal: RSS/12 = 2.1e-6 (slight) and 1.1e-5 (sharp).
  const rSlight = leastRss(slight) / 12
  assert.ok(rSlight > 1.3e-6 && rSlight < limit, `slight bend: RSS/n ${rSlight}`)
  assert.ok(leastRss(sharp) / 12 > limit, `sharp bend: RSS/n ${leastRss(sharp) / 12}`)
  assert.deepEqual(spans(segmentedFit(slight)), [[0, 11]])
  const two = segmentedFit(sharp)
  assert.deepEqual(spans(two), [
    [0, 5],
    [6, 11],
  ])
  close(two[0]!.fit.alpha, 10, 1e-6)
  close(two[1]!.fit.slope, 1.4e-3, 1e-6)
})

test('segmentedFit: on noisy series the segments are contiguous, cover every point and hold minPoints each', () => {
  // Generated: 8–17 sizes, α + x/β with β 10× higher from the middle, ±5 % uniform noise.
  const u = mulberry32(7)
  let split = 0
  for (let t = 0; t < 150; t++) {
    const n = 8 + Math.floor(u() * 10)
    const p = Array.from({ length: n }, (_, i) => {
      const x = 8 * 2 ** i
      return { x, y: (5 + x / (i < n / 2 ? 1e3 : 1e4)) * (1 + 0.1 * (u() - 0.5)) }
    })
    const minPoints = t % 2 ? 4 : 3
    const segs = segmentedFit(p, { minPoints })
    const s = JSON.stringify(spans(segs))
    assert.equal(segs[0]!.from, 0, s)
    assert.equal(segs.at(-1)!.to, n - 1, s)
    assert.ok(segs.length <= 3, s)
    segs.forEach((g, i) => {
      assert.ok(g.to - g.from + 1 >= minPoints, `series ${t}, minPoints ${minPoints}: ${s}`)
      if (i > 0) assert.equal(g.from, segs[i - 1]!.to + 1, s)
    })
    if (segs.length > 1) split++
  }
  // Not vacuous: many of them are split.
  assert.ok(split > 30, `${split} of 150 split`)
})
