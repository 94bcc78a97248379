/**
 * The statistics of `diff` on the simulator, whose truth is known (SIMULATED seed-vm sets:
 * p2p matrices of 8 GPUs and all_reduce on tp8 and both tp4 groups, 8 B … 64 MiB):
 * - A/A: 100 pairs of sets of the same preset with different seeds at the sweep's default
 *   trials; the share of primary-metric cells flagged at α = 0.05 (budget ≤ 5 %) and the
 *   pairs on which `--fail-on-regression 5` (Benjamini–Hochberg) fails (budget ≤ 5 of 100);
 * - a real 10 % slowdown (every time ×1.1, printed again): the share of cells flagged
 *   (budget ≥ 95 %) and the pairs the gate fails on (budget: all).
 * In process. Run alone with `npx tsx bench/stats.bench.ts`.
 */

import { diffSets, regressions } from '../src/diff/index.ts'
import { SPEC_DEFAULTS } from '../src/sweep/index.ts'
import { simLoaded } from '../test/sim-loaded.ts'
import type { Metric } from './_util.ts'
import { round } from './_util.ts'

const SPEC = {
  preset: 'seed-vm',
  p2pGpus: [0, 1, 2, 3, 4, 5, 6, 7],
  groups: [
    [0, 1, 2, 3, 4, 5, 6, 7],
    [0, 1, 2, 3],
    [4, 5, 6, 7],
  ],
}

/** Flagged share of tested cells and gate failures over `pairs` pairs. */
function study(pairs: number, trials: number, slowdown: number): { rate: number; fails: number; cells: number } {
  let tested = 0
  let flagged = 0
  let fails = 0
  for (let i = 0; i < pairs; i++) {
    const r = diffSets(
      simLoaded({ ...SPEC, seed: 10_000 + i, trials }),
      simLoaded({ ...SPEC, seed: 20_000 + i, trials, slowdown }),
    )
    const t = r.cells.filter((c) => c.tested)
    tested += t.length
    flagged += t.filter((c) => (slowdown === 1 ? c.significant : c.regression && c.q <= r.alpha)).length
    if (regressions(r, 5).length > 0) fails++
  }
  return { rate: flagged / tested, fails, cells: tested }
}

/** The A/A and shift studies as bench metrics. */
export async function statsBench(pairs = 100): Promise<Metric[]> {
  const trials = SPEC_DEFAULTS.trials
  const aa = study(pairs, trials, 1)
  const shift = study(20, trials, 1.1)
  const note = `seed-vm, ${trials} trials, ${aa.cells / pairs} tested cells per pair`
  return [
    {
      metric: `diff A/A: primary-metric cells flagged at α = 0.05 (${pairs} pairs)`,
      value: round(aa.rate * 100, 3),
      unit: '%',
      budget: '≤ 5 %',
      holds: aa.rate <= 0.05,
      note,
    },
    {
      metric: `diff A/A: --fail-on-regression 5 fails (${pairs} pairs)`,
      value: aa.fails,
      unit: 'pairs',
      budget: `≤ ${pairs / 20}`,
      holds: aa.fails <= pairs / 20,
      note: 'Benjamini–Hochberg q ≤ 0.05',
    },
    {
      metric: 'diff, 10 % slower: cells flagged (20 pairs)',
      value: round(shift.rate * 100, 3),
      unit: '%',
      budget: '≥ 95 %',
      holds: shift.rate >= 0.95,
      note,
    },
    {
      metric: 'diff, 10 % slower: --fail-on-regression 5 fails (20 pairs)',
      value: shift.fails,
      unit: 'pairs',
      budget: '20',
      holds: shift.fails === 20,
    },
  ]
}

if (process.argv[1] === import.meta.filename) console.table(await statsBench())
