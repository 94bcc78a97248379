/**
 * huberLine, relResiduals and segmentedFit of src/analysis/fit/_fit.ts on small exact lines and
 * hand-picked points (generated): the residuals and RSS reported, the plain weighted least
 * squares a Huber fit starts from (solved here by the normal equations, independently), and how
 * the options bound the segments: at most `maxSegments`, each of at least `minPoints` points.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { huberLine, relResiduals, segmentedFit, type XY } from '../../src/analysis/fit/_fit.ts'
import { leastSquaresLine } from '../analysis/hand-fit.ts'

const close = (got: number, want: number, tol = 1e-9) =>
  assert.ok(Math.abs(got - want) <= tol * Math.max(Math.abs(want), 1e-30), `${got} vs ${want}`)
/** Exact pieces of lines: [up to x, α, slope] in order. */
const pieces = (xs: number[], ls: [number, number, number][]): XY[] =>
  xs.map((x) => {
    const [, a, b] = ls.find(([lim]) => x <= lim) as [number, number, number]
    return { x, y: a + b * x }
  })
const xs = (n: number) => Array.from({ length: n }, (_, i) => 8 * 2 ** i)

test('relResiduals: (y − α − slope·x) / y', () => {
  const r = relResiduals(
    [
      { x: 1000, y: 10 },
      { x: 2000, y: 25 },
      { x: 0, y: 4 },
    ],
    5,
    0.01,
  )
  assert.deepEqual(r, [-0.5, 0, -0.25])
})

test('huberLine: one size gives its median, slope 0 and the residuals about it', () => {
  const f = huberLine([
    { x: 16, y: 3 },
    { x: 16, y: 1 },
    { x: 16, y: 2 },
  ])
  // ((3 − 2)/3)² + ((1 − 2)/1)² + 0 = 1/9 + 1.
  assert.deepEqual([f.alpha, f.slope, f.n], [2, 0, 3])
  close(f.rss, 1 / 9 + 1)
  const exact = huberLine(pieces(xs(6), [[Infinity, 5e-6, 1e-10]]))
  close(exact.alpha, 5e-6)
  close(exact.slope, 1e-10)
  assert.equal(exact.n, 6)
  assert.ok(exact.rss < 1e-20, `${exact.rss}`)
})

test('huberLine with no iteration is weighted least squares on 1/y², and iterating moves off it', () => {
  const p = pieces(xs(8), [[Infinity, 10, 0.01]])
  p[5] = { x: p[5]!.x, y: p[5]!.y * 3 }
  const { a, b } = leastSquaresLine(p)
  const wls = huberLine(p, 0)
  close(wls.alpha, a, 1e-9)
  close(wls.slope, b, 1e-9)
  const one = huberLine(p, 1)
  assert.ok(Math.abs(one.alpha - a) > 1e-3 * a, `one iteration: ${one.alpha} vs ${a}`)
  // Iterated to the end, the outlier barely moves the line (10 + 0.01·x).
  const full = huberLine(p)
  assert.ok(Math.abs(full.alpha / 10 - 1) < 0.002 && Math.abs(full.slope / 0.01 - 1) < 0.002, `${full.alpha}`)
  assert.ok(Math.abs(full.alpha - 10) < Math.abs(one.alpha - 10))
})

test('segmentedFit: three protocols, at most maxSegments, each of at least minPoints', () => {
  // 4 + 4 + 4 points: 8 + x/5e3, 30 + x/2e4, 100 + x/1e5 (µs, x in bytes).
  const three: [number, number, number][] = [
    [64, 8, 1 / 5e3],
    [1024, 30, 1 / 2e4],
    [Infinity, 100, 1 / 1e5],
  ]
  const p = pieces(xs(12), three)
  const spans = (s: ReturnType<typeof segmentedFit>) => s.map((g) => [g.from, g.to])
  assert.deepEqual(spans(segmentedFit(p)), [
    [0, 3],
    [4, 7],
    [8, 11],
  ])
  const segs = segmentedFit(p)
  close(segs[1]!.fit.alpha, 30, 1e-6)
  close(segs[2]!.fit.slope, 1 / 1e5, 1e-6)
  assert.equal(segmentedFit(p, { maxSegments: 1 }).length, 1)
  assert.equal(segmentedFit(p, { maxSegments: 2 }).length, 2)
  // 12 points in segments of at least 5: at most two, never the 4-point ones.
  const five = segmentedFit(p, { minPoints: 5 })
  assert.ok(five.length <= 2 && five.every((g) => g.to - g.from + 1 >= 5), JSON.stringify(spans(five)))
  // 3 + 4 points: no split at the default 4 per segment, a split at 3.
  const p7 = pieces(xs(7), [
    [32, 8, 1 / 5e3],
    [Infinity, 30, 1 / 2e4],
  ])
  assert.deepEqual(spans(segmentedFit(p7)), [[0, 6]])
  assert.deepEqual(spans(segmentedFit(p7, { minPoints: 3 })), [
    [0, 2],
    [3, 6],
  ])
  // Fewer points than one segment's minimum: one segment all the same.
  assert.deepEqual(spans(segmentedFit(p.slice(0, 3))), [[0, 2]])
})
