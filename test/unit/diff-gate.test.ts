/**
 * The statistics of `diff` on sets whose truth is known: SIMULATED seed-vm sets (same preset,
 * different seeds: nothing changed) and the same with every time 10 % slower. Plus the parts
 * of the gate one by one: Benjamini–Hochberg, printed resolution, tested metrics, data errors.
 * The 100-pair A/A study is in `npm run bench` (bench/stats.bench.ts); this file runs 20 pairs.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { DiffResult } from '../../src/diff/index.ts'
import {
  benjaminiHochberg,
  canReach,
  diffSets,
  formatDiff,
  isTested,
  printedStep,
  regressions,
  uTestMinN,
  withinResolution,
} from '../../src/diff/index.ts'
import { makeRow } from '../../src/model/index.ts'
import type { LoadedSet } from '../../src/resultset/index.ts'
import { simLoaded } from '../sim-loaded.ts'

const SPEC = {
  preset: 'seed-vm',
  p2pGpus: [0, 1, 2, 3],
  groups: [
    [0, 1, 2, 3, 4, 5, 6, 7],
    [0, 1, 2, 3],
    [4, 5, 6, 7],
  ],
}

/** Share of tested cells flagged, and whether `--fail-on-regression 5` fails, for one pair. */
function study(r: DiffResult): { tested: number; flagged: number; gateFails: boolean } {
  const t = r.cells.filter((c) => c.tested)
  return { tested: t.length, flagged: t.filter((c) => c.significant).length, gateFails: regressions(r, 5).length > 0 }
}

test('A/A on the simulator, 20 pairs at 6 trials: ≤ 5 % of primary-metric cells flagged, the default gate fails ≤ 1 pair', () => {
  let tested = 0
  let flagged = 0
  let fails = 0
  for (let i = 0; i < 20; i++) {
    const s = study(
      diffSets(simLoaded({ ...SPEC, seed: 100 + i, trials: 6 }), simLoaded({ ...SPEC, seed: 900 + i, trials: 6 })),
    )
    tested += s.tested
    flagged += s.flagged
    if (s.gateFails) fails++
  }
  console.log(
    `A/A 6+6: ${flagged} of ${tested} cells flagged (${((flagged / tested) * 100).toFixed(2)} %), gate failed ${fails} of 20 pairs`,
  )
  assert.ok(flagged / tested <= 0.05, `${flagged} of ${tested}`)
  assert.ok(fails <= 1, `gate failed ${fails} of 20 A/A pairs`)
})

test('A/A at the 3 trials of the README example: nothing flagged, and it says once that 3 + 3 cannot reach 0.05', () => {
  const r = diffSets(simLoaded({ ...SPEC, seed: 1, trials: 3 }), simLoaded({ ...SPEC, seed: 2, trials: 3 }))
  assert.equal(study(r).flagged, 0)
  assert.equal(r.testing.unreachable.length, 1)
  assert.equal(r.testing.unreachable[0]?.sizes, '3+3')
  const text = formatDiff(r, 'text')
  assert.equal(text.match(/cannot reach p ≤ 0\.05/g)?.length, 1)
  assert.doesNotMatch(text, /\s~\s+p=/)
  assert.match(text, /\([+-]?\d\S*%\) \[[+-]\S+%, [+-]\S+%\]\s+n=3\+3 launches$/m)
})

/** Share of tested cells a 10 % slowdown is caught in (regression with q ≤ 0.05), and gate failures. */
function shiftStudy(trials: number, pairs: number): { rate: number; gateFails: number } {
  let tested = 0
  let caught = 0
  let gateFails = 0
  for (let i = 0; i < pairs; i++) {
    const r = diffSets(
      simLoaded({ ...SPEC, seed: 300 + i, trials }),
      simLoaded({ ...SPEC, seed: 700 + i, trials, slowdown: 1.1 }),
    )
    for (const c of r.cells.filter((c) => c.tested)) {
      tested++
      if (c.regression && c.q <= 0.05) caught++
    }
    if (regressions(r, 5).length > 0) gateFails++
  }
  console.log(
    `10 % slower, ${trials}+${trials}: ${caught} of ${tested} cells flagged (${((caught / tested) * 100).toFixed(1)} %)`,
  )
  return { rate: caught / tested, gateFails }
}

test('a real 10 % slowdown: ≥ 95 % of primary-metric cells flagged at 6 and at 8 trials, and the gate fails every time', () => {
  const six = shiftStudy(6, 10)
  assert.ok(six.rate >= 0.95, `6 trials: ${six.rate}`)
  assert.equal(six.gateFails, 10)
  const eight = shiftStudy(8, 3)
  assert.ok(eight.rate >= 0.95, `8 trials: ${eight.rate}`)
  assert.equal(eight.gateFails, 3)
})

test('Benjamini–Hochberg q-values (R p.adjust(p, "BH"), worked by hand)', () => {
  // Sorted 0.005, 0.01, 0.03, 0.04 × 4/rank = 0.02, 0.02, 0.04, 0.04; running minimum from the top.
  assert.deepEqual(benjaminiHochberg([0.01, 0.04, 0.03, 0.005]), [0.02, 0.04, 0.04, 0.02])
  // 0.01 0.02 0.03 0.04 0.05 → every q = 0.05; NaN stays NaN and is not counted.
  const q = benjaminiHochberg([0.05, NaN, 0.01, 0.03, 0.02, 0.04])
  assert.ok(Number.isNaN(q[1]))
  for (const i of [0, 2, 3, 4, 5]) assert.ok(Math.abs((q[i] as number) - 0.05) < 1e-15, `q[${i}] = ${q[i]}`)
  assert.deepEqual(benjaminiHochberg([0.9, 0.001]), [0.9, 0.002])
})

test('printed resolution: the last printed digit, in base units', () => {
  assert.equal(printedStep([0.08e9, 0.07e9]), 1e7) // 0.08, 0.07 GB/s
  assert.equal(printedStep([4.012e-5, 3.998e-5]), 1e-8) // 40.12, 39.98 µs
  assert.equal(printedStep([1.2345e-4, 1.002e-4]), 1e-8) // 123.45 and 100.2 µs: the finer one counts
  assert.equal(printedStep([0, 0]), 0)
})

const row = (r: Omit<Parameters<typeof makeRow>[0], 'source'>) =>
  makeRow({ ...r, source: { file: 'gen.txt', line: 1 } })

/** A set of one p2p bandwidth cell and one collective (time, busbw, wrong) with the given values. */
function tiny(bw: number[], time: number[], wrong: number[]): LoadedSet {
  const rows = [
    ...bw.map((v, t) =>
      row({ bench: 'p2p.bw_uni', metric: 'bandwidth', unit: 'B/s', value: v, src: 0, dst: 1, trial: t }),
    ),
    ...time.flatMap((v, t) => [
      row({ bench: 'nccl.all_reduce', metric: 'time', unit: 's', value: v, sizeBytes: 8, ranks: 8, trial: t }),
      row({ bench: 'nccl.all_reduce', metric: 'busbw', unit: 'B/s', value: 8 / v, sizeBytes: 8, ranks: 8, trial: t }),
      row({
        bench: 'nccl.all_reduce',
        metric: 'wrong',
        unit: 'count',
        value: wrong[t] ?? 0,
        sizeBytes: 8,
        ranks: 8,
        trial: t,
      }),
    ]),
  ]
  return { ...simLoaded({ preset: 'seed-vm', seed: 1, trials: 0, groups: [] }), rows }
}

test('a difference within the printed resolution is never a finding, however small p is', () => {
  const ten = (v: number): number[] => Array.from({ length: 10 }, () => v)
  const a = tiny(ten(0.08e9), ten(4e-5), ten(0))
  const b = tiny(ten(0.07e9), ten(4.4e-5), ten(0))
  const r = diffSets(a, b)
  const bw = r.cells.find((c) => c.metric === 'bandwidth')!
  assert.ok(bw.p < 1e-4, `p ${bw.p}`)
  assert.equal(bw.resolution, 1e7)
  assert.equal(bw.significant, false)
  const time = r.cells.find((c) => c.metric === 'time')!
  assert.equal(time.significant, true)
  assert.deepEqual(
    regressions(r, 5).map((c) => c.metric),
    ['time'],
  )
})

test('busbw is shown, not tested, unless --metric picks it; wrong counts are cell errors, never a delta', () => {
  const six = (v: number): number[] => Array.from({ length: 6 }, (_, i) => v * (1 + i * 1e-3))
  const a = tiny(six(20e9), six(4e-5), [0, 0, 0, 0, 0, 0])
  const b = tiny(six(20e9), six(5e-5), [0, 3, 0, 0, 2, 0])
  const r = diffSets(a, b)
  const busbw = r.cells.find((c) => c.metric === 'busbw')!
  assert.equal(busbw.tested, false)
  assert.ok(Number.isNaN(busbw.p) && !busbw.significant)
  assert.ok(!r.cells.some((c) => c.metric === 'wrong'))
  assert.deepEqual(r.errors, [
    'bench=nccl.all_reduce metric=wrong ranks=8 size=8: B: 5 wrong elements in 2 of 6 trials',
  ])
  const time = r.cells.find((c) => c.metric === 'time')!
  assert.deepEqual(time.errors, ['B: 5 wrong elements in 2 of 6 trials'])
  assert.match(formatDiff(r, 'text'), /^ERROR bench=nccl\.all_reduce metric=wrong/m)
  const picked = diffSets(a, b, { metrics: ['busbw'] })
  assert.equal(picked.cells.find((c) => c.metric === 'busbw')?.tested, true)
  assert.equal(picked.cells.find((c) => c.metric === 'time')?.tested, false)
  assert.deepEqual(picked.testing.metrics, ['busbw'])
})

test('the gate at its edges: which metrics are tested, resolution, and the smallest samples that can reach α', () => {
  // A data-check metric is never tested, even when asked for; an empty --metric list means the primary metrics.
  assert.equal(isTested('wrong'), false)
  assert.equal(isTested('wrong', ['wrong', 'time']), false)
  assert.equal(isTested('time', []), true)
  assert.equal(isTested('busbw', []), false)
  assert.equal(isTested('busbw', ['busbw']), true)
  // No printed step (0): equal medians are not "within resolution", there is none.
  assert.equal(withinResolution(1, 1, 0), false)
  assert.equal(withinResolution(1, 1.5, 1), true)
  // Ten and twelve printed digits: a value's quotient by its step is a whole number to within
  // floating error (≈ 1e-16 relative), so a tolerance of 1e-9 relative made 123456.789012 a
  // multiple of 0.001 (quotient 123456789.012: 0.012 ≤ 0.12) and hid its last three digits.
  assert.equal(printedStep([1234567.891, 1234567.892]), 0.001)
  assert.equal(printedStep([1234567.891]), 0.001)
  assert.equal(printedStep([123456.789012]), 10 ** -6)
  // 3 + 3 values reach p = 0.1 exactly (2/C(6,3)), so α = 0.1 is reachable at 3; 30 + 30 is the
  // last size tried: 2/C(60,30) = 1.7e-17.
  assert.equal(uTestMinN(0.1), 3)
  assert.equal(canReach(3, 3, 0.1), true)
  assert.equal(canReach(3, 3, 0.09), false)
  assert.equal(uTestMinN(2e-17), 30)
  assert.equal(uTestMinN(1e-18), Number.POSITIVE_INFINITY)
})
