/**
 * The edges of resampleFit's choice (fit/_bootstrap.ts): which bootstrap a series gets from its
 * launch count, when one launch means "no interval", and the within-size replicates that widen
 * α's and β's intervals under FEW_LAUNCHES (6) launches and not from 6 on. Each case was written
 * against a mutant that survived analysis-alpha-launches and the alphabeta tests (TESTING.md).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { HIER_MAX } from '../../src/analysis/fit/_bootstrap.ts'
import { buildSeries, fitSeries } from '../../src/analysis/index.ts'
import type { Row } from '../../src/model/index.ts'
import { launchRows as rows } from './_launch-rows.ts'

const fit = (rs: Row[], seed = 3) => {
  const [s] = buildSeries(rs)
  assert.ok(s)
  return fitSeries(s, { seed })
}
const us = (ci: readonly number[] | null) => (ci ?? []).map((x) => x * 1e6) as [number, number]
const alternating = (n: number) => Array.from({ length: n }, (_, l) => ({ level: l % 2 ? 12 : 10 }))

test('values of no known launch are resampled within each size: an interval, not the point', () => {
  const [s] = buildSeries(rows([{ level: 10, iters: 20 }]))
  assert.ok(s)
  const f = fitSeries({ ...s, launches: undefined, launchOf: undefined }, { seed: 3 })
  assert.equal(f.launches, 0)
  const [lo, hi] = us(f.alphaCi)
  const alpha = f.alpha * 1e6
  assert.ok(lo < alpha && alpha < hi && hi - lo > 0.005, `${alpha} in [${lo}, ${hi}]`)
})

test('one launch: no interval when a size has two or more of its iterations, else the residual bootstrap', () => {
  const noInterval = (f: ReturnType<typeof fit>) => f.warnings.some((w) => /one launch: no interval/.test(w))
  // Two iterations a size; one value at 8 B and three at 64 B: iterations of one launch either way.
  for (const f of [
    fit(rows([{ level: 10, iters: 2 }])),
    fit([...rows([{ level: 10, sizes: [8] }]), ...rows([{ level: 10, sizes: [64], iters: 3 }])]),
  ]) {
    assert.equal(f.launches, 1)
    assert.ok(noInterval(f), f.warnings.join('; '))
    assert.deepEqual(f.alphaCi, [f.alpha, f.alpha])
  }
  // One value a size at five sizes off a line: the line's residuals are resampled.
  const off = [0, 0.3, -0.2, 0.25, -0.3]
  const single = [8, 16, 32, 64, 128].flatMap((x, k) => rows([{ level: 10 + (off[k] as number), sizes: [x] }]))
  const f = fit(single)
  assert.equal(f.launches, 1)
  assert.ok(!noInterval(f), f.warnings.join('; '))
  const [lo, hi] = us(f.alphaCi)
  assert.ok(hi - lo > 0.05, `[${lo}, ${hi}]`)
})

test('under 6 launches α reaches past the launches (within-size replicates); from 6 on it stays within them', () => {
  // Launches at 10 and 12 µs, one value a size. Drawn by launch, both sizes come from the same
  // launches: α stays within [10, 12]. Drawn within each size, 8 B can come out at 12 while 64 B
  // comes out at 10: α = 12 + 2 × 8/56 ≈ 12.29 µs (and ≈ 9.71 the other way).
  const [lo5, hi5] = us(fit(rows(alternating(5))).alphaCi)
  assert.ok(lo5 < 9.85 && hi5 > 12.15, `5 launches: [${lo5}, ${hi5}]`)
  const [lo6, hi6] = us(fit(rows(alternating(6))).alphaCi)
  assert.ok(lo6 > 9.95 && hi6 < 12.05 && hi6 - lo6 > 1, `6 launches: [${lo6}, ${hi6}]`)
})

test("two launches are drawn by launch: a short launch far off widens α though the sizes' medians hold", () => {
  // 30 iterations at 10 µs and 10 at 12 µs: within each size the resampled median stays near 10;
  // drawn by launch, a quarter of the replicates hold the 12 µs launch alone.
  const [lo, hi] = us(
    fit(
      rows([
        { level: 10, iters: 30 },
        { level: 12, iters: 10 },
      ]),
    ).alphaCi,
  )
  assert.ok(lo < 10.1 && hi > 11.5, `[${lo}, ${hi}]`)
})

test("under 6 launches β's interval holds the within-size one too", () => {
  // Levels of 10 and 10.5 µs and 0.05 µs a byte: drawn by launch, the two sizes share their level
  // and every slope is the line's; drawn within each size, the slope moves by up to 0.5 / 56.
  const slope = 0.05
  const launches = Array.from({ length: 5 }, (_, l) => ({ level: l % 2 ? 10.5 : 10 }))
  const f = fit(rows(launches, slope))
  const [lo, hi] = f.betaCi ?? [0, 0]
  assert.ok(hi / lo > 1.2, `β in [${lo}, ${hi}] B/s`)
  const six = fit(rows([...launches, { level: 10 }], slope))
  const [lo6, hi6] = six.betaCi ?? [0, 0]
  assert.ok(hi6 / lo6 < 1.01, `6 launches: β in [${lo6}, ${hi6}] B/s`)
})

test('a size no drawn launch measured takes its median: the interval stays finite', () => {
  // 64 B measured once, by the first of six launches: most replicates draw no launch holding it.
  // 8 B three times a launch: the replicate's buffer holds the larger size's 18 draws.
  const eights = Array.from({ length: 6 }, () => ({ level: 10, sizes: [8], iters: 3 }))
  const f = fit([...rows(eights), ...rows([{ level: 10, sizes: [64] }])])
  assert.equal(f.launches, 6)
  assert.ok(f.alphaCi.every(Number.isFinite), `${f.alphaCi}`)
  const [lo, hi] = us(f.alphaCi)
  assert.ok(lo >= 9.99 && hi <= 10.03 && hi > lo, `[${lo}, ${hi}]`)
  assert.ok(f.betaCi === null || f.betaCi.every(Number.isFinite), `${f.betaCi}`)
})

test('drawn by launch up to HIER_MAX values, within each size past it', () => {
  // Eight launches at 10 and 12 µs (one value a row), n values a launch at 8 and 64 B. By launch
  // α stays within [10, 12] µs; within each size the two medians part and α reaches past them.
  const [base] = buildSeries(rows(alternating(8)))
  assert.ok(base)
  const alphaUs = (n: number) => {
    const bySize = new Map<number, number[]>()
    const launchOf = new Map<number, number[]>()
    for (const x of [8, 64]) {
      const lanes = Array.from({ length: 8 * n }, (_, i) => Math.floor(i / n))
      bySize.set(
        x,
        lanes.map((l) => ((l % 2 ? 12 : 10) + x * 1e-4) * 1e-6),
      )
      launchOf.set(x, lanes)
    }
    return us(fitSeries({ ...base, bySize, launchOf }, { seed: 3, replicates: 20 }).alphaCi)
  }
  assert.equal(2 * 8 * 12_500, HIER_MAX)
  const [lo, hi] = alphaUs(12_500)
  assert.ok(lo > 9.95 && hi < 12.05 && hi - lo > 1, `${HIER_MAX} values: [${lo}, ${hi}]`)
  const [lo1, hi1] = alphaUs(12_501)
  assert.ok(lo1 < 9.85 && hi1 > 12.15, `${HIER_MAX + 16} values: [${lo1}, ${hi1}]`)
})
