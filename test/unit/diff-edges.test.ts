/**
 * diffSets at its edges, on generated sets (seeded log-normal samples): the relative delta's
 * zeros, alpha's bounds, the warnings a diff prints about its sets and cells, cells with a
 * wrong-count metric and the counts of each side (the gate: diff-evidence.test.ts).
 * Expected values are worked out from the definitions in the comments, not from the code.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { RowGroup } from '../../src/cells/index.ts'
import { attachErrors, testingOf } from '../../src/diff/_findings.ts'
import { observedChanges } from '../../src/diff/_observed.ts'
import type { DiffCell } from '../../src/diff/index.ts'
import { diffSets, relDelta } from '../../src/diff/index.ts'
import { makeRow } from '../../src/model/index.ts'
import type { LoadedSet } from '../../src/resultset/index.ts'
import { genSet } from '../diff-gen.ts'

const harness = (re: RegExp) => (e: Error & { code?: number }) =>
  e.name === 'HarnessError' && e.code === 2 && re.test(e.message)

test('relDelta: (b − a)/a; 0 when both are 0; ±∞ when only a is 0', () => {
  assert.equal(relDelta(4, 5), 0.25)
  assert.equal(relDelta(4, 3), -0.25)
  assert.equal(relDelta(-2, -3), 0.5)
  assert.equal(relDelta(0, 0), 0)
  assert.equal(relDelta(0, 5), Infinity)
  assert.equal(relDelta(0, -5), -Infinity)
})

test('alpha must lie strictly between 0 and 1 (exit 2); 0.5 and 0.001 are taken', () => {
  const a = genSet({ seed: 1, pairs: 1, sizes: 1, n: 6 })
  for (const alpha of [0, 1, -0.1, 1.5, Number.NaN])
    assert.throws(() => diffSets(a, a, { alpha }), harness(/alpha must be between 0 and 1/))
  assert.equal(diffSets(a, a, { alpha: 0.5 }).alpha, 0.5)
  assert.equal(diffSets(a, a, { alpha: 0.001 }).alpha, 0.001)
})

test('each side: its id, origin, rows and cells (wrong-count cells included); one simulated side needs allowSim', () => {
  const a = genSet({ seed: 2, pairs: 2, sizes: 2, n: 6 })
  const b = genSet({ seed: 3, pairs: 1, sizes: 3, n: 5 })
  const wrongB = makeRow({
    bench: 'p2p.latency',
    metric: 'wrong',
    unit: 'count',
    value: 1,
    source: { file: 'x', line: 1 },
  })
  const r = diffSets(a, { ...b, rows: [...b.rows, wrongB] })
  // A: 2 pairs × 2 sizes × 2 metrics = 8 cells of 6 rows; B: 1 × 3 × 2 = 6 cells of 5, + 1 wrong cell.
  assert.deepEqual([r.a.cells, r.a.rows, r.a.id, r.a.origin, r.a.simulated], [8, 48, a.manifest.id, 'sweep', false])
  assert.deepEqual([r.b.cells, r.b.rows, r.b.dir], [7, 31, b.dir])
  // In both: pair 0 at sizes 8 B and 32 B, two metrics. Only A: pair 1 (4 cells). Only B: pair 0 at
  // 128 B (2 cells). The wrong cell is neither compared nor listed as only-B: it is an error.
  assert.deepEqual([r.cells.length, r.onlyA.length, r.onlyB.length], [4, 4, 2])
  assert.equal(r.errors.length, 1)
  assert.ok(
    r.onlyB.every((k) => k.includes('size=128')),
    'r.onlyB.every((k) => k.includes("size=128"))',
  )
  // Two real sets: not simulated, no SIMULATED line.
  assert.equal(r.simulated, false)
  assert.ok(!r.warnings.some((w) => w.includes('SIMULATED')), '!r.warnings.some((w) => w.includes("SIMULATED"))')
})

test('warnings: unreadable lines, an empty side, SIMULATED sides, nothing in common, no geomean, folded cell warnings', () => {
  const a = genSet({ seed: 4, pairs: 1, sizes: 2, n: 6 })
  const diag = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ line: i + 1, severity: 'warn' as const, code: 'x', message: 'x' }))
  const withDiag = (s: LoadedSet, n: number): LoadedSet => ({ ...s, diagnostics: diag(n) }) as LoadedSet
  let r = diffSets(withDiag(a, 1), withDiag(a, 2))
  assert.ok(r.warnings.includes(`A: 1 unreadable line in ${a.dir} skipped`), r.warnings.join('\n'))
  assert.ok(r.warnings.includes(`B: 2 unreadable lines in ${a.dir} skipped`), r.warnings.join('\n'))
  assert.ok(
    !r.warnings.some((w) => /holds no rows|nothing to compare/.test(w)),
    '!r.warnings.some((w) => /holds no rows|nothing to compare/.test(w))',
  )

  const empty: LoadedSet = { ...a, dir: 'empty-set', rows: [] }
  r = diffSets(a, empty)
  assert.ok(r.warnings.includes('B: empty-set holds no rows'), r.warnings.join('\n'))
  assert.ok(!r.warnings.some((w) => w.startsWith('A:')), '!r.warnings.some((w) => w.startsWith("A:"))')
  assert.ok(
    r.warnings.some((w) => w.startsWith('no cell is found in both sets')),
    'r.warnings.some((w) => w.startsWith("no cell is found in both sets"))',
  )
  assert.deepEqual(r.geomeans, [])

  const simA = genSet({ seed: 5, pairs: 1, sizes: 1, n: 6 }, { simulated: true, dir: 'sim-a' })
  const simB = genSet({ seed: 6, pairs: 1, sizes: 1, n: 6 }, { simulated: true, dir: 'sim-b' })
  assert.ok(
    diffSets(simA, simB).warnings.includes('SIMULATED data: sim-a and sim-b'),
    'diffSets(simA, simB).warnings.includes("SIMULATED data: sim-a and s...',
  )
  assert.ok(
    diffSets(a, simB, { allowSim: true }).warnings.includes('SIMULATED data: sim-b'),
    'diffSets(a, simB, { allowSim: true }).warnings.includes("SIMULATED ...',
  )
  assert.ok(
    diffSets(simA, a, { allowSim: true }).warnings.includes('SIMULATED data: sim-a'),
    'diffSets(simA, a, { allowSim: true }).warnings.includes("SIMULATED ...',
  )

  // A zero median in one latency cell: no latency geomean (and a warning), bandwidth's stays.
  const zeroed = {
    ...a,
    rows: a.rows.map((x) => (x.metric === 'latency' && x.sizeBytes === 8 ? { ...x, value: 0 } : x)),
  }
  r = diffSets(zeroed, a)
  assert.deepEqual(
    r.geomeans.map((g) => g.metric),
    ['bandwidth'],
  )
  assert.ok(
    r.warnings.includes('no geomean for metric latency: some medians are zero or negative'),
    'r.warnings.includes("no geomean for metric latency: some medians ar...',
  )

  // n = 3 a side: every one of the 4 cells warns on each side, folded into one line per side.
  const small = genSet({ seed: 7, pairs: 1, sizes: 2, n: 3 })
  const one = genSet({ seed: 8, pairs: 1, sizes: 1, n: 3 })
  r = diffSets(small, genSet({ seed: 9, pairs: 1, sizes: 2, n: 6 }))
  const folded = r.warnings.filter((w) => w.startsWith('A: n = 3'))
  assert.equal(folded.length, 1)
  assert.match(folded[0] as string, /\(4 cells\)$/)
  assert.ok(!r.warnings.some((w) => w.startsWith('B: n =')), '!r.warnings.some((w) => w.startsWith("B: n ="))')
  // One size: 2 cells; one cell of one metric gives "(1 cell)".
  r = diffSets(one, one)
  assert.match(r.warnings.find((w) => w.startsWith('A: n = 3')) as string, /\(2 cells\)$/)
  const oneCell = { ...one, rows: one.rows.filter((x) => x.metric === 'latency') }
  r = diffSets(oneCell, oneCell)
  assert.match(r.warnings.find((w) => w.startsWith('B: n = 3')) as string, /\(1 cell\)$/)
})

test('a cell: delta and direction, exact p, regression or improvement; busbw untested keeps p NaN', () => {
  // Latency 20 % slower in B and bandwidth 20 % lower: both significant regressions.
  const a = genSet({ seed: 10, pairs: 1, sizes: 1, n: 12, sigma: 0.01 })
  const b = genSet({ seed: 11, pairs: 1, sizes: 1, n: 12, sigma: 0.01, shift: 0.25 })
  const r = diffSets(a, b)
  const lat = r.cells.find((c) => c.metric === 'latency')!
  const bw = r.cells.find((c) => c.metric === 'bandwidth')!
  assert.deepEqual([lat.better, bw.better], ['lower', 'higher'])
  assert.ok(
    Math.abs(lat.delta - 0.25) < 0.02 && Math.abs(lat.worse - lat.delta) < 1e-15,
    'Math.abs(lat.delta - 0.25) < 0.02 && Math.abs(lat.worse - lat.delta...',
  )
  assert.ok(
    Math.abs(bw.delta + 0.2) < 0.02 && Math.abs(bw.worse + bw.delta) < 1e-15,
    'Math.abs(bw.delta + 0.2) < 0.02 && Math.abs(bw.worse + bw.delta) < ...',
  )
  for (const c of [lat, bw]) {
    assert.ok(c.tested && c.reachable && c.significant && c.regression && c.p <= 0.05, c.key)
    assert.equal(c.exact, true)
    assert.equal(c.delta, relDelta(c.a.median, c.b.median))
  }
  // The other way round: significant, and an improvement, not a regression.
  const back = diffSets(b, a)
  assert.ok(
    back.cells.every((c) => c.significant && !c.regression && c.worse < 0),
    'back.cells.every((c) => c.significant && !c.regression && c.worse < 0)',
  )
  // An untested metric keeps p NaN: busbw rows are shown without a test unless asked for.
  const bus = (s: LoadedSet): LoadedSet => ({
    ...s,
    rows: s.rows
      .filter((x) => x.metric === 'bandwidth')
      .map((x) => ({ ...x, bench: 'nccl.all_reduce', metric: 'busbw' as const })),
  })
  const rb = diffSets(bus(a), bus(b))
  assert.ok(
    rb.cells.length > 0 && rb.cells.every((c) => !c.tested && Number.isNaN(c.p) && !c.significant),
    'rb.cells.length > 0 && rb.cells.every((c) => !c.tested && Number.is...',
  )
  const asked = diffSets(bus(a), bus(b), { metrics: ['busbw'] })
  assert.ok(
    asked.cells.every((c) => c.tested && c.p <= 0.05),
    'asked.cells.every((c) => c.tested && c.p <= 0.05)',
  )
})

test('p = alpha exactly is significant: 3 vs 3 fully apart has the exact p 2/C(6,3) = 0.1', () => {
  const a = genSet({ seed: 12, pairs: 1, sizes: 1, n: 3, sigma: 0.01 })
  const b = genSet({ seed: 13, pairs: 1, sizes: 1, n: 3, sigma: 0.01, shift: 0.5 })
  const at = diffSets(a, b, { alpha: 0.1 })
  for (const c of at.cells) {
    assert.ok(Math.abs(c.p - 0.1) < 1e-12 && c.exact, `${c.key}: p ${c.p}`)
    assert.ok(c.reachable && c.significant, c.key)
  }
  // Just below it, the same cells cannot reach alpha.
  assert.ok(
    diffSets(a, b, { alpha: 0.099 }).cells.every((c) => !c.reachable && !c.significant),
    'diffSets(a, b, { alpha: 0.099 }).cells.every((c) => !c.reachable &&...',
  )
})

test('the SIMULATED refusal names the simulated set whichever side it is on', () => {
  const real = genSet({ seed: 14, pairs: 1, sizes: 1, n: 6 }, { dir: 'real-set' })
  const sim = genSet({ seed: 15, pairs: 1, sizes: 1, n: 6 }, { simulated: true, dir: 'sim-set' })
  const named = harness(/^diff: sim-set is SIMULATED and real-set is real/)
  assert.throws(() => diffSets(sim, real), named)
  assert.throws(() => diffSets(real, sim), named)
})

test('an untested cell has no p and no exact flag; a tested one never has p NaN', () => {
  const a = genSet({ seed: 16, pairs: 1, sizes: 1, n: 6 })
  const bus = {
    ...a,
    rows: a.rows.filter((x) => x.metric === 'bandwidth').map((x) => ({ ...x, metric: 'busbw' as const })),
  }
  const [c] = diffSets(bus, bus).cells
  assert.ok(
    c && !c.tested && Number.isNaN(c.p) && c.exact === false,
    'c && !c.tested && Number.isNaN(c.p) && c.exact === false',
  )
  assert.ok(
    diffSets(a, a).cells.every((x) => x.tested && x.p === 1),
    'diffSets(a, a).cells.every((x) => x.tested && x.p === 1)',
  )
})

test('a clean diff warns of nothing; cells, only-A and only-B come in cell order whatever the rows’ order', () => {
  const a = genSet({ seed: 17, pairs: 3, sizes: 2, n: 6, sigma: 0 })
  const b = genSet({ seed: 18, pairs: 2, sizes: 3, n: 6, sigma: 0 })
  const r = diffSets(a, b)
  assert.deepEqual(r.warnings, [])
  const rev = (s: LoadedSet): LoadedSet => ({ ...s, rows: [...s.rows].reverse() })
  const back = diffSets(rev(a), rev(b))
  assert.deepEqual(
    back.cells.map((c) => c.key),
    r.cells.map((c) => c.key),
  )
  assert.deepEqual(back.onlyA, r.onlyA)
  assert.deepEqual(back.onlyB, r.onlyB)
  // Cell order: by pair, then size (8 B before 32 B), latency before bandwidth within a size is
  // whatever compareCells says, but the same in both runs; sizes rise within a pair.
  const sizes = r.cells.filter((c) => c.metric === 'latency').map((c) => c.config.sizeBytes)
  assert.deepEqual(sizes, [8, 32, 8, 32])
  assert.equal(r.onlyB.length, 2 * 1 * 2)
  assert.ok(r.onlyA.length === 4 && r.onlyB.every((k) => k.includes('size=128')), r.onlyB.join('\n'))
})

test('what the tests can say: tested metrics, expected false positives, unreachable sizes most cells first', () => {
  const cell = (metric: string, tested: boolean, reachable: boolean, n: number) =>
    ({ metric, tested, reachable, a: { n }, b: { n } }) as unknown as DiffCell
  const cells = [
    cell('latency', true, true, 6),
    cell('latency', true, false, 2),
    cell('bandwidth', true, false, 3),
    cell('bandwidth', true, false, 3),
    cell('bandwidth', true, true, 6),
    cell('busbw', false, true, 6),
  ]
  const t = testingOf(cells, 0.05)
  assert.deepEqual(t.metrics, ['latency', 'bandwidth'])
  assert.equal(t.cells, 5)
  // Two reachable tested cells at α = 0.05: 0.1 expected false positives.
  assert.ok(Math.abs(t.expectedFalsePositives - 0.1) < 1e-12, `${t.expectedFalsePositives}`)
  // 3+3 (two cells, least p 2/C(6,3) = 0.1) before 2+2 (one cell, 2/C(4,2) = 1/3).
  assert.deepEqual(
    t.unreachable.map((u) => [u.sizes, u.cells]),
    [
      ['3+3', 2],
      ['2+2', 1],
    ],
  )
  assert.ok(Math.abs((t.unreachable[0]?.minP ?? 0) - 0.1) < 1e-12, 'minP 3+3')
  // Nothing tested: the metrics a test would have taken, chosen or the primary ones.
  assert.deepEqual(testingOf([cells[5] as DiffCell], 0.05).metrics, ['time', 'latency', 'bandwidth'])
  assert.deepEqual(testingOf([], 0.05, ['busbw']).metrics, ['busbw'])
})

test('wrong-count lines: one element or several, on the cells of the same measurement', () => {
  const g = (values: number[]) => ({ values }) as unknown as RowGroup
  const key = 'bench=nccl.all_reduce metric=wrong size=8'
  const time = { key: 'bench=nccl.all_reduce metric=time size=8', metric: 'time', errors: [] as string[] }
  const lines = attachErrors([time as unknown as DiffCell], [{ key, a: g([0, 1, 0]), b: g([2, 0, 1]) }])
  assert.deepEqual(lines, [
    `${key}: A: 1 wrong element in 1 of 3 trials`,
    `${key}: B: 3 wrong elements in 2 of 3 trials`,
  ])
  assert.deepEqual(time.errors, ['A: 1 wrong element in 1 of 3 trials', 'B: 3 wrong elements in 2 of 3 trials'])
})

test('an observed condition a side saw both ways reads yes/no, whatever order the rows came in', () => {
  const g = (...seen: string[]) => ({ observed: { peerAccess: new Set(seen) } }) as unknown as RowGroup
  assert.deepEqual(observedChanges(g('false', 'true'), g('false')), [{ field: 'peerAccess', a: 'yes/no', b: 'no' }])
  assert.deepEqual(observedChanges(g('true', 'false'), g('true')), [{ field: 'peerAccess', a: 'yes/no', b: 'yes' }])
})

test('launches that all print one value on each side: the printed step floors the CI of the change', () => {
  // 6 launches × 2 iterations; latency 10.0 µs on A, 10.5 µs on B, bandwidth 20.07 GB/s on both.
  const flat = (seed: number, us: number) => {
    const s = genSet({ seed, pairs: 1, sizes: 1, n: 12, launches: 6 })
    return { ...s, rows: s.rows.map((r) => ({ ...r, value: r.metric === 'latency' ? us * 1e-6 : 20.07e9 })) }
  }
  const r = diffSets(flat(16, 10), flat(17, 10.5))
  const lat = r.cells.find((c) => c.metric === 'latency')!
  // Step 0.1 µs: se = hypot(0.05/10, 0.05/10.5) = 0.006906, df 10, t 2.228 → ±0.01539 on the log:
  // 1.05·e^±0.01539 − 1 = [+3.40%, +6.63%] (the old code: se 0, [+5%, +5%]).
  assert.equal(lat.resolution, 1e-7)
  assert.ok(Math.abs(lat.fit!.se - 0.006906) < 1e-5, `se ${lat.fit!.se}`)
  assert.ok(Math.abs(lat.deltaCi![0] - 0.03397) < 2e-4, `lo ${lat.deltaCi![0]}`)
  assert.ok(Math.abs(lat.deltaCi![1] - 0.06628) < 2e-4, `hi ${lat.deltaCi![1]}`)
  // No change and no spread: an interval around 0 of the printed step, not [0%, 0%].
  const bw = r.cells.find((c) => c.metric === 'bandwidth')!
  assert.ok(bw.deltaCi![0] < 0 && bw.deltaCi![1] > 0, `${bw.deltaCi}`)
})
