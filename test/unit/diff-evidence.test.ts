/**
 * The regression gate needs evidence: a cell fails `--fail-on-regression PCT` only when the
 * one-sided bound of its change over launches lies beyond PCT after the Benjamini–Hochberg
 * control over the m tested cells, never on a point estimate. And the launch is the unit of
 * replication: iterations that share a launch do not make a difference significant.
 * Bounds are worked out from the Welch fit by hand (t quantiles from tables) in the comments.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { DiffCell } from '../../src/diff/index.ts'
import { diffSets, gate, regressions, worseBound } from '../../src/diff/index.ts'
import { normals, mulberry32 as rng } from '../../src/random/index.ts'
import type { LoadedSet } from '../../src/resultset/index.ts'
import { mannWhitney } from '../../src/stats/index.ts'
import { diffCell, diffResult } from '../diff-cells.ts'
import { genSet } from '../diff-gen.ts'
import { simLoaded } from '../sim-loaded.ts'

/** A tested cell whose launch fit is `ratio` (B/A) with standard error `se` of its log, df 10. */
function fitCell(key: string, ratio: number, se: number, better: 'lower' | 'higher' = 'lower'): DiffCell {
  const fit = { ratio, se, df: 10, na: 6, nb: 6 }
  return { ...diffCell({}, { fit, better }), key }
}

test('the gate compares the one-sided bound with PCT, not the point estimate', () => {
  // +8 % with se 0.03: the point is over 5 %, the 95 % one-sided bound is not
  // (ln 1.08 − 1.812·0.03 = 0.0226 → +2.3 %): no failure. +10 % with se 0.01 fails
  // (ln 1.10 − 1.812·0.01 = 0.0772 → +8.0 % > 5 %).
  const r = diffResult([fitCell('noisy', 1.08, 0.03), fitCell('clear', 1.1, 0.01)])
  const g = gate(r, 5, 'none')
  assert.deepEqual(
    g.failures.map((f) => f.cell.key),
    ['clear'],
  )
  const f = g.failures[0]!
  assert.equal(f.level, 0.95)
  assert.ok(Math.abs(f.bound - 0.0803) < 5e-4, `bound ${f.bound}`)
  assert.ok(Math.abs(worseBound(r.cells[0]!, 0.95) - 0.0229) < 5e-4)
  // Lowering the threshold below the noisy cell's bound makes it fail too, largest bound first.
  assert.deepEqual(
    gate(r, 2, 'none').failures.map((x) => x.cell.key),
    ['clear', 'noisy'],
  )
})

test('bandwidth: worse means lower; the bound is 1 − the upper bound of B/A', () => {
  // B/A = 0.90, se 0.01: upper bound exp(ln 0.9 + 1.812·0.01) = 0.9165 → worse by ≥ 8.35 %.
  const bw = fitCell('bw', 0.9, 0.01, 'higher')
  const g = gate(diffResult([bw]), 5, 'none')
  assert.equal(g.failures.length, 1)
  assert.ok(Math.abs(g.failures[0]!.bound - 0.0835) < 5e-4, `bound ${g.failures[0]!.bound}`)
  // The same fit on a time is an improvement: nothing fails at any threshold.
  assert.equal(gate(diffResult([fitCell('t', 0.9, 0.01)]), 0, 'none').failures.length, 0)
  // A bandwidth cannot fall by 100 % or more.
  assert.equal(gate(diffResult([fitCell('bw', 0.01, 0.01, 'higher')]), 100, 'none').failures.length, 0)
})

test('Benjamini–Hochberg over the m tested cells: a cell that fails alone passes among nine null cells', () => {
  // +6 % with se 0.01 against 5 %: t = (ln 1.06 − ln 1.05)/0.01 = 0.948, p ≈ 0.18: passes at
  // any m. +9 % with se 0.015: t = (0.08618 − 0.04879)/0.015 = 2.49, p ≈ 0.016: fails alone
  // (q = p), not among ten cells (q = 10·p = 0.16).
  const lone = fitCell('lone', 1.09, 0.015)
  assert.equal(gate(diffResult([lone]), 5).failures.length, 1)
  const nulls = Array.from({ length: 9 }, (_, i) => fitCell(`n${i}`, 1, 0.015))
  const among = gate(diffResult([lone, ...nulls]), 5)
  assert.equal(among.cells, 10)
  assert.equal(among.failures.length, 0)
  // Without the control it fails among them too.
  assert.equal(gate(diffResult([lone, ...nulls]), 5, 'none').failures.length, 1)
  // Cells with one launch a side (no fit) count in m and never fail; untested cells do not count.
  const one = { ...fitCell('one', 3, 0.01), fit: null }
  const untested = { ...fitCell('busbw', 3, 0.001), tested: false }
  const g = gate(diffResult([one, untested]), 5)
  assert.equal(g.cells, 1)
  assert.equal(g.failures.length, 0)
})

test('a failing cell is exactly one whose bound at 1 − α·R/m lies beyond PCT', () => {
  const ratios = [1.02, 1.05, 1.07, 1.09, 1.12, 1.2, 1.0, 0.98]
  const cells = ratios.map((x, i) => fitCell(`c${i}`, x, 0.02))
  const r = diffResult(cells)
  const g = gate(r, 5)
  const R = g.failures.length
  assert.ok(R > 0 && R < cells.length, `R = ${R}`)
  const level = 1 - (0.05 * R) / cells.length
  const failed = new Set(g.failures.map((f) => f.cell.key))
  for (const c of cells) {
    const beyond = worseBound(c, level) > 0.05
    assert.equal(failed.has(c.key), beyond, `${c.key}: bound ${worseBound(c, level)}`)
  }
  for (const f of g.failures) assert.equal(f.level, level)
  assert.deepEqual(
    regressions(r, 5).map((c) => c.key),
    g.failures.map((f) => f.cell.key),
  )
})

/** Multiplies every value of launch t by exp(σ·z_t): a state the iterations of one launch share. */
function withLaunchEffect(set: LoadedSet, seed: number, sigma: number): LoadedSet {
  const z = normals(rng(seed))
  const effect = Array.from({ length: 64 }, () => Math.exp(sigma * z()))
  return { ...set, rows: set.rows.map((r) => ({ ...r, value: r.value * (effect[r.trial] as number) })) }
}

test('launches, not iterations: A/A with a 3 % launch effect and 20 iterations a launch: ≤ α flagged', () => {
  let flagged = 0
  let byIteration = 0
  let cells = 0
  let failed = 0
  for (let i = 0; i < 40; i++) {
    const spec = { pairs: 1, sizes: 1, n: 120, launches: 6, sigma: 0.002 }
    const a = withLaunchEffect(genSet({ seed: 100 + i, ...spec }), 300 + i, 0.03)
    const b = withLaunchEffect(genSet({ seed: 200 + i, ...spec }), 400 + i, 0.03)
    const r = diffSets(a, b)
    // Latency only: the bandwidth cell shares the launch effect, so it is no independent case.
    for (const c of r.cells.filter((x) => x.metric === 'latency')) {
      cells++
      assert.equal(c.a.n, 6, 'n counts launches')
      assert.deepEqual(c.values, [120, 120])
      if (c.significant) flagged++
    }
    // What testing the 120 iterations as independent values would say.
    const vals = (s: LoadedSet) => s.rows.filter((x) => x.metric === 'latency').map((x) => x.value)
    if (mannWhitney(vals(a), vals(b)).p <= 0.05) byIteration++
    if (regressions(r, 1).length > 0) failed++
  }
  assert.equal(cells, 40)
  // Launch medians: the exact test at 0.05 flags about 4 % (1.6 of 40; 6 or more has
  // probability 0.02); iterations as independent values: most pairs.
  assert.ok(flagged <= 5, `${flagged} of ${cells} flagged`)
  assert.ok(byIteration >= 24, `by iteration ${byIteration} of 40`)
  assert.ok(failed <= 2, `gate at 1 % failed ${failed} of 40 pairs`)
})

test('on the simulator: a true +3 % fails a 5 % gate in no pair, though every pair has a significant cell past 5 %', () => {
  const spec = { preset: 'seed-vm', trials: 6, p2pGpus: [0, 1, 2, 3], groups: [[0, 1, 2, 3]], sizes: [8, 1 << 20] }
  let fails = 0
  let pointPast = 0
  let aaFails = 0
  for (let i = 0; i < 10; i++) {
    const r = diffSets(simLoaded({ ...spec, seed: 500 + i }), simLoaded({ ...spec, seed: 600 + i, simScale: 1.03 }))
    if (gate(r, 5).failures.length > 0) fails++
    // What the old gate read: a significant cell whose point estimate is past the threshold.
    if (r.cells.some((c) => c.tested && c.significant && c.worse > 0.05)) pointPast++
    const aa = diffSets(simLoaded({ ...spec, seed: 700 + i }), simLoaded({ ...spec, seed: 800 + i }))
    if (gate(aa, 1).failures.length > 0) aaFails++
  }
  assert.ok(pointPast >= 8, `point estimates past 5 % in ${pointPast} of 10 pairs`)
  assert.ok(fails <= 1, `the 5 % gate failed ${fails} of 10 pairs at a true +3 %`)
  assert.ok(aaFails <= 1, `the 1 % gate failed ${aaFails} of 10 A/A pairs`)
})
