import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Series, XY } from '../../src/analysis/index.ts'
import { fitSeries, huberLine, segmentedFit } from '../../src/analysis/index.ts'
import { normal, SIZES } from './generated.ts'
import { handSeries, leastSquaresLine } from './hand-fit.ts'

const line = (a: number, b: number, sizes = SIZES): XY[] => sizes.map((x) => ({ x, y: a + x / b }))
const rel = (got: number, want: number): number => Math.abs(got / want - 1)

/** A series of `trials × iterations` noisy samples per size (log-normal, seeded). */
function series(
  alpha: number,
  beta: number,
  seed: number,
  opts: { sigma?: number; per?: number; segs?: [number, number, number][] } = {},
): Series {
  const rnd = normal(seed)
  const bySize = new Map<number, number[]>()
  for (const s of SIZES) {
    let [a, b] = [alpha, beta]
    for (const [lim, a2, b2] of opts.segs ?? []) if (s > lim) [a, b] = [a2, b2]
    bySize.set(
      s,
      Array.from({ length: opts.per ?? 15 }, () => (a + s / b) * Math.exp((opts.sigma ?? 0.03) * rnd())),
    )
  }
  return handSeries([], { key: `generated-${seed}`, bySize })
}

test('huberLine recovers an exact line to rounding error', () => {
  const f = huberLine(line(13.7e-6, 25e9))
  assert.ok(rel(f.alpha, 13.7e-6) < 1e-9, `alpha ${f.alpha}`)
  assert.ok(rel(1 / f.slope, 25e9) < 1e-9, `beta ${1 / f.slope}`)
})

test('one distinct size: α is the median time and β is unresolved', () => {
  const f = huberLine([
    { x: 16, y: 3e-6 },
    { x: 16, y: 1e-6 },
    { x: 16, y: 2e-6 },
  ])
  assert.equal(f.alpha, 2e-6)
  assert.equal(f.slope, 0)
})

test('a 3× outlier at one size barely moves the Huber line, 5× less than weighted least squares', () => {
  const p = line(10e-6, 20e9)
  p[5] = { x: p[5]!.x, y: p[5]!.y * 3 }
  // Weighted least squares with weights 1/y², solved here by the normal equations (independent of the library).
  const { a } = leastSquaresLine(p)
  assert.ok(rel(a, 10e-6) > 0.01, `WLS alpha should be dragged, got ${a}`)
  const f = huberLine(p)
  assert.ok(rel(f.alpha, 10e-6) < rel(a, 10e-6) / 5, `Huber alpha ${f.alpha} vs WLS ${a}`)
  assert.ok(rel(f.alpha, 10e-6) < 0.002, `Huber alpha ${f.alpha}`)
  assert.ok(rel(1 / f.slope, 20e9) < 0.002, `Huber beta ${1 / f.slope}`)
})

test('segmentedFit finds a protocol switch (LL → Simple) and reports both lines', () => {
  // LL: 8 µs + s/5 GB/s up to 64 KiB; Simple: 20 µs + s/20 GB/s beyond.
  const p = SIZES.map((x) => ({ x, y: x <= 65536 ? 8e-6 + x / 5e9 : 20e-6 + x / 20e9 }))
  const segs = segmentedFit(p)
  assert.equal(segs.length, 2)
  assert.equal(p[segs[0]!.to]!.x, 65536)
  assert.ok(rel(segs[0]!.fit.alpha, 8e-6) < 1e-6 && rel(1 / segs[0]!.fit.slope, 5e9) < 1e-6)
  assert.ok(rel(segs[1]!.fit.alpha, 20e-6) < 1e-6 && rel(1 / segs[1]!.fit.slope, 20e9) < 1e-6)
})

test('no spurious breakpoints: 30 seeded noise-only series at σ = 3 % stay one segment', () => {
  for (let seed = 1; seed <= 30; seed++) {
    const f = fitSeries(series(13.7e-6, 25e9, seed, { per: 3 }), { replicates: 0 })
    assert.equal(f.segments.length, 1, `seed ${seed}: ${JSON.stringify(f.segments)}`)
  }
})

test('α and β are recovered within 2 % on seeded data (20 seeds, σ = 3 %, 15 samples per size)', () => {
  for (let seed = 1; seed <= 20; seed++) {
    const f = fitSeries(series(13.7e-6, 25e9, seed), { replicates: 0 })
    assert.ok(rel(f.alpha, 13.7e-6) < 0.02, `seed ${seed}: alpha ${f.alpha}`)
    assert.ok(rel(f.beta as number, 25e9) < 0.02, `seed ${seed}: beta ${f.beta}`)
  }
})

test('with a breakpoint, α is the first segment’s and β the last segment’s', () => {
  const f = fitSeries(series(8e-6, 5e9, 3, { segs: [[65536, 20e-6, 20e9]] }), { replicates: 0 })
  assert.equal(f.segments.length, 2)
  assert.ok(rel(f.alpha, 8e-6) < 0.02, `alpha ${f.alpha}`)
  assert.ok(rel(f.beta as number, 20e9) < 0.02, `beta ${f.beta}`)
  assert.equal(f.segments[0]!.toBytes, 65536)
})

test('the bootstrap 95 % interval of α covers the truth in at least 85 % of 40 seeded runs, and is reproducible', () => {
  let covered = 0
  for (let seed = 1; seed <= 40; seed++) {
    const f = fitSeries(series(13.7e-6, 25e9, 100 + seed, { per: 6 }), { replicates: 100 })
    if (f.alphaCi[0] <= 13.7e-6 && 13.7e-6 <= f.alphaCi[1]) covered++
  }
  assert.ok(covered >= 34, `covered ${covered}/40`)
  const s = series(13.7e-6, 25e9, 7)
  assert.deepEqual(fitSeries(s, { seed: 5 }).alphaCi, fitSeries(s, { seed: 5 }).alphaCi)
})

test('the smallest size is reported beside the floor: its median and minimum', () => {
  const s = series(13.7e-6, 25e9, 9, { per: 5 })
  const f = fitSeries(s, { replicates: 0 })
  const v = [...s.bySize.get(8)!].sort((a, b) => a - b)
  assert.equal(f.smallest.sizeBytes, 8)
  assert.equal(f.smallest.min, v[0])
  assert.equal(f.smallest.median, v[2])
  assert.equal(f.smallest.n, 5)
  // Rows the tool gave no size (p2pBandwidthLatencyTest's latency matrices) sit at 0 B: not stated, not "0 B".
  const bySize = new Map(s.bySize)
  bySize.set(0, [2e-6])
  const unsized = fitSeries({ ...s, bySize, unsized: 1 }, { replicates: 0 })
  assert.equal(unsized.smallest.sizeBytes, null)
  assert.equal(fitSeries({ ...s, bySize, unsized: 0 }, { replicates: 0 }).smallest.sizeBytes, 0)
})

test('α interval at a stated level: 95 % covers ≥ 85 % of 40 runs, 50 % covers about half, widths follow the spread of α', () => {
  const TRUE_ALPHA = 13.7e-6
  const runs = Array.from({ length: 40 }, (_, i) => series(TRUE_ALPHA, 25e9, 300 + i, { per: 6 }))
  const covers = (ci: [number, number]): boolean => ci[0] <= TRUE_ALPHA && TRUE_ALPHA <= ci[1]
  const at95 = runs.map((s) => fitSeries(s, { replicates: 100 }))
  const at50 = runs.map((s) => fitSeries(s, { replicates: 100, level: 0.5 }))
  const cover95 = at95.filter((f) => covers(f.alphaCi)).length
  const cover50 = at50.filter((f) => covers(f.alphaCi)).length
  assert.ok(cover95 >= 34, `95 %: covered ${cover95}/40`)
  assert.ok(cover50 >= 10 && cover50 <= 30, `50 %: covered ${cover50}/40, not about half`)
  // The spread of α over the 40 runs is what a 95 % interval must span: ±1.96 sd around α.
  const alphas = at95.map((f) => f.alpha)
  const mean = alphas.reduce((a, b) => a + b, 0) / alphas.length
  const sd = Math.sqrt(alphas.reduce((a, b) => a + (b - mean) ** 2, 0) / (alphas.length - 1))
  const width = (fs: typeof at95): number => fs.reduce((a, f) => a + f.alphaCi[1] - f.alphaCi[0], 0) / fs.length
  const ratio = width(at95) / (2 * 1.96 * sd)
  assert.ok(ratio > 0.5 && ratio < 2, `95 % width / (2 × 1.96 sd) = ${ratio}`)
  // A 50 % interval spans ±0.674 sd: about a third of the 95 % one.
  const shrink = width(at50) / width(at95)
  assert.ok(shrink > 0.2 && shrink < 0.5, `50 %/95 % width ratio ${shrink}`)
})
