/**
 * The bootstrap's selection median (src/analysis/fit/_bootstrap.ts) against the sorting median
 * of src/stats: the same number bit for bit, on samples with many ties (a resample has them).
 */

import assert from 'node:assert/strict'
import { test } from 'node:test'
import { medianInPlace } from '../../src/analysis/fit/_bootstrap.ts'
import { mulberry32 } from '../../src/analysis/index.ts'
import { medianOf, sortSample } from '../../src/stats/index.ts'

test('medianInPlace equals medianOf(sortSample(x)) on 20,000 seeded samples with ties', () => {
  const u = mulberry32(42)
  for (let t = 0; t < 20_000; t++) {
    const n = 1 + Math.floor(u() * 80)
    const distinct = 1 + Math.floor(u() * 6)
    const v = Array.from({ length: n }, () => (u() < 0.5 ? Math.floor(u() * distinct) : u() * 1e-5) - 1e-6)
    const got = medianInPlace(Float64Array.from(v), n)
    assert.ok(Object.is(got, medianOf(sortSample(v))), `sample ${t}: [${v.join(', ')}]`)
  }
})

test('medianInPlace reads only the first n entries and is NaN for none', () => {
  assert.equal(medianInPlace(Float64Array.from([5, 1, 3, 100, -100]), 3), 3)
  assert.equal(medianInPlace(Float64Array.from([4, 1, 9, 7]), 4), 5.5)
  assert.ok(Number.isNaN(medianInPlace(new Float64Array(4), 0)))
})
