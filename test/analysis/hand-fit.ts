/**
 * Helpers of the α–β fit tests on hand-made points (generated, not measurements): a series from
 * per-size times in µs, and the weighted least-squares line on relative residuals worked out
 * independently of src/analysis by the normal equations (weights 1/y²).
 */
import type { Series, XY } from '../../src/analysis/index.ts'

const US = 1e-6

/** A series named `generated` whose samples at each size are the given µs values. */
export const handSeries = (points: [number, number[]][], over: Partial<Series> = {}): Series => ({
  key: 'generated',
  id: { bench: 'generated', p2p: null },
  benches: new Set(['generated']),
  bySize: new Map(points.map(([x, us]) => [x, us.map((v) => v * US)])),
  unsized: 0,
  nonPositive: 0,
  bandwidths: [],
  origins: new Set(),
  ...over,
})

/** The line a + b·x of least Σ((y − a − b·x)/y)², and that sum (the normal equations, weights 1/y²). */
export function leastSquaresLine(p: readonly XY[]): { a: number; b: number; rss: number } {
  let [sw, sx, sy, sxx, sxy] = [0, 0, 0, 0, 0]
  for (const { x, y } of p) {
    const w = 1 / (y * y)
    ;[sw, sx, sy, sxx, sxy] = [sw + w, sx + w * x, sy + w * y, sxx + w * x * x, sxy + w * x * y]
  }
  const b = (sw * sxy - sx * sy) / (sw * sxx - sx * sx)
  const a = (sy - b * sx) / sw
  return { a, b, rss: p.reduce((s, { x, y }) => s + ((y - a - b * x) / y) ** 2, 0) }
}
