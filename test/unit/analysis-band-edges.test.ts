/**
 * inBand's edges (src/analysis/bands.ts): a value counts as inside a band widened by 10 % at
 * both ends, the widened edges themselves included.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { inBand } from '../../src/analysis/bands.ts'
import type { Band } from '../../src/analysis/index.ts'

test('inBand: 10 % past either edge is inside, the widened edge itself too, beyond it not', () => {
  const band = { low: 10e-6, high: 20e-6 } as Band
  // 10 µs × 0.9 and 20 µs × 1.1, as floating point has them.
  const lo = 10e-6 * 0.9
  const hi = 20e-6 * 1.1
  assert.deepEqual(
    [lo * 0.999, lo, 15e-6, hi, hi * 1.001].map((v) => inBand(band, v)),
    [false, true, true, true, false],
  )
})
