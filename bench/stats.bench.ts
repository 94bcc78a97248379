/**
 * The statistics of `diff` calibrated on the simulator, whose truth is known (issue 31; sets
 * in bench/_stats-study.ts: SIMULATED, 6 trials, p2p matrices and p2p_bench latency of 4 GPUs,
 * all_reduce on 4), for each preset named (default seed-vm and baremetal-turin):
 * - A/A, 100 pairs of the same preset with different seeds: cells flagged at α = 0.05 per
 *   class, same-GPU p2p, cross-GPU p2p, NCCL (budget ≤ 5 % each); pairs on which
 *   `--fail-on-regression 1` fails (budget ≤ 5 %);
 * - B made with `--sim-scale 1.03` (every time × 1.03): `--fail-on-regression 5` fails ≤ 5 % of 100 pairs, and
 *   the 95 % CI of the change holds the true +3 % in ≥ 93 % of cells of each class;
 * - B with `--sim-scale 1.10`: `--fail-on-regression 5` fails on ≥ 95 % of 100 pairs.
 * In process, about 15 s a study. Run alone with `npx tsx bench/stats.bench.ts [PRESET…]`.
 */

import type { Tally } from './_stats-study.ts'
import { CLASSES, share, study } from './_stats-study.ts'
import type { Metric } from './_util.ts'
import { round } from './_util.ts'

const PAIRS = 100

function classMetrics(t: Tally, what: 'flagged' | 'covered'): Metric[] {
  return CLASSES.map((k) => {
    const [num, den] = what === 'flagged' ? [t.flagged[k], t.tested[k]] : [t.covered[k], t.withCi[k]]
    const rate = den ? num / den : NaN
    const flagged = what === 'flagged'
    return {
      metric: flagged
        ? `diff ${t.preset} A/A: ${k} cells flagged at α = 0.05 (${t.pairs} pairs)`
        : `diff ${t.preset} ×${t.scale}: ${k} cells whose 95 % CI of the change holds +${round((t.scale - 1) * 100)} %`,
      value: round(rate * 100, 3),
      unit: '%',
      budget: flagged ? '≤ 5 %' : '≥ 93 %',
      holds: flagged ? rate <= 0.05 : rate >= 0.93,
      note: share(num, den),
    }
  })
}

function gateMetric(t: Tally, budget: 'at most 5 %' | 'at least 95 %'): Metric {
  const rate = t.gateFails / t.pairs
  const low = budget === 'at most 5 %'
  return {
    metric: `diff ${t.preset} ${t.scale === 1 ? 'A/A' : `×${t.scale}`}: --fail-on-regression ${t.gatePct} fails`,
    value: round(rate * 100, 3),
    unit: '% of pairs',
    budget: low ? '≤ 5 %' : '≥ 95 %',
    holds: low ? rate <= 0.05 : rate >= 0.95,
    note: `${t.gateFails} of ${t.pairs} pairs; Benjamini–Hochberg over the tested cells`,
  }
}

/** The three studies for each preset, as bench metrics (seeds apart, so the studies are independent). */
export async function statsBench(presets = ['seed-vm', 'baremetal-turin'], pairs = PAIRS): Promise<Metric[]> {
  const out: Metric[] = []
  for (const preset of presets) {
    const aa = study(preset, pairs, 1, 1, 10_000)
    const small = study(preset, pairs, 1.03, 5, 20_000)
    const large = study(preset, pairs, 1.1, 5, 30_000)
    out.push(...classMetrics(aa, 'flagged'), gateMetric(aa, 'at most 5 %'))
    out.push(gateMetric(small, 'at most 5 %'), ...classMetrics(small, 'covered'))
    out.push(gateMetric(large, 'at least 95 %'))
  }
  return out
}

if (process.argv[1] === import.meta.filename) {
  const presets = process.argv.slice(2)
  console.table(await statsBench(presets.length ? presets : undefined))
}
