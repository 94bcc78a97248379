/**
 * analyze's α interval on the right unit (#31): the bootstrap resamples launches, then each
 * launch's iterations, so a launch-to-launch wobble widens it; one launch of many iterations
 * gives no interval, printed "one launch: no interval", never a zero-width "95 % CI".
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { analyzeSet, buildSeries, fitSeries, renderAnalysis } from '../../src/analysis/index.ts'
import { alphaCiText } from '../../src/analysis/verdict/_verdict.ts'
import type { Row } from '../../src/model/index.ts'
import { launchRows } from './_launch-rows.ts'

/** One pair's latency rows: per launch its level (µs) plus a small iteration spread, at 8 and 64 B. */
const rows = (levels: readonly number[], iters = 20): Row[] => launchRows(levels.map((level) => ({ level, iters })))

const seriesOf = (rs: Row[]) => {
  const [s] = buildSeries(rs)
  assert.ok(s)
  return s
}

test('launches that disagree widen α: the interval spans the launch levels, not the iterations', () => {
  const levels = [10, 10.6, 9.4, 10.3, 9.7, 10]
  const s = seriesOf(rows(levels))
  const f = fitSeries(s, { seed: 3 })
  assert.equal(f.launches, 6)
  const [lo, hi] = f.alphaCi.map((x) => x * 1e6) as [number, number]
  assert.ok(hi - lo > 0.3, `[${lo}, ${hi}]`)
  assert.ok(lo < 10.02 && hi > 10.02, `[${lo}, ${hi}]`)
  // The same values resampled iteration by iteration (launches forgotten): far narrower.
  const pooled = fitSeries({ ...s, launches: undefined, launchOf: undefined }, { seed: 3 })
  assert.ok((pooled.alphaCi[1] - pooled.alphaCi[0]) * 1e6 < (hi - lo) / 2, `${pooled.alphaCi}`)
})

test('one launch of many iterations: no interval, said so', () => {
  const f = fitSeries(seriesOf(rows([10])), { seed: 3 })
  assert.equal(f.launches, 1)
  assert.deepEqual(f.alphaCi, [f.alpha, f.alpha])
  assert.ok(
    f.warnings.some((w) => /one launch: no interval/.test(w)),
    f.warnings.join('; '),
  )
  assert.equal(alphaCiText(f), '(one launch: no interval)')
  assert.equal(alphaCiText({ alpha: 1e-5, alphaCi: [1e-5, 1e-5] }), '(no interval)')
  assert.equal(alphaCiText({ alpha: 1e-5, alphaCi: [0.9e-5, 1.1e-5], launches: 6 }), '[9, 11 µs]')
})

test('α CIs from 2–5 launches are said to be approximate, once under the fits table', () => {
  const text = (levels: number[]) =>
    renderAnalysis(analyzeSet({ dir: 'mem', manifest: { id: 'x' } as never, rows: rows(levels), diagnostics: [] }))
  const few = /^α CI from (.+) launches is approximate: .* 76 % \(2 launches\) to 92 % \(4\) .*6 or more launches/gm
  const two = text([10, 10.2])
  assert.deepEqual(
    [...two.matchAll(few)].map((m) => m[1]),
    ['2'],
  )
  assert.deepEqual(
    [...text([10, 10.2, 10.1, 9.9, 10]).matchAll(few)].map((m) => m[1]),
    ['5'],
  )
  // 6 launches are calibrated (94.5 % on the simulator), one launch has no interval: no note.
  assert.doesNotMatch(text([10, 10.2, 10.1, 9.9, 10, 10.3]), /approximate/)
  assert.doesNotMatch(text([10]), /approximate/)
})
