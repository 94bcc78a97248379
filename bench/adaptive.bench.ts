/**
 * Adaptive repetition on the simulator: launches per point `--target-ci 2` needs (6 to 20
 * trials) for all_reduce on 4 GPUs at 5 sizes, per preset, over 50 seeds, with the real
 * nccl-tests parser and the sweep's AdaptiveTracker, against a fixed 20-trial schedule; and
 * how often the final CI covers the simulator's true time. In process (no child launches).
 * Run alone with `npx tsx bench/adaptive.bench.ts`.
 */

import { AdaptiveTracker } from '../src/adaptive/index.ts'
import type { Row } from '../src/model/index.ts'
import type { Parser } from '../src/parsers/index.ts'
import { parserById } from '../src/parsers/index.ts'
import { simulate, trueTime } from '../src/sim/index.ts'
import { medianCI, sortSample } from '../src/stats/index.ts'
import type { Metric } from './_util.ts'
import { round } from './_util.ts'

const GPUS = [0, 1, 2, 3]
const SIZES = [8, 1024, 65536, 1048576, 16777216]

const NCCL_TEXT = parserById('nccl-tests-text') as Parser

function launch(preset: string, seed: number, trial: number): Row[] {
  const rows: Row[] = []
  const lp = NCCL_TEXT.open({ file: 'sim.txt', trial }, (r) => void rows.push({ ...r, point: `p~t${trial}` }))
  simulate({ preset, format: 'nccl-tests', collective: 'all_reduce', gpus: GPUS, sizes: SIZES, seed, trial })
    .split('\n')
    .forEach((l, i) => lp.line(l, i + 1))
  lp.end()
  return rows
}

/** Mean launches, share of points that met ±2 %, and coverage, for one preset. */
function study(preset: string, seeds: number): { launches: number; reached: number; coverage: number } {
  let launches = 0
  let reached = 0
  let covered = 0
  let cells = 0
  for (let seed = 1; seed <= seeds; seed++) {
    const t = new AdaptiveTracker({ targetCiPct: 2, minTrials: 6, maxTrials: 20 })
    const times = new Map<number, number[]>()
    let trial = 1
    for (; trial <= 20 && t.skipReason({ id: `p~t${trial}` } as never) === undefined; trial++) {
      const rows = launch(preset, seed, trial)
      t.add(rows)
      for (const r of rows)
        if (r.metric === 'time' && r.placement === 'out-of-place')
          times.set(r.sizeBytes as number, [...(times.get(r.sizeBytes as number) ?? []), r.value])
    }
    launches += trial - 1
    if (t.state('p~t1').worstPct <= 2) reached++
    for (const [size, v] of times) {
      const [lo, hi] = medianCI(sortSample(v))
      const truth = trueTime(preset, { kind: 'collective', collective: 'all_reduce', gpus: GPUS, sizeBytes: size })
      cells++
      if (lo <= truth && truth <= hi) covered++
    }
  }
  return { launches: launches / seeds, reached: reached / seeds, coverage: covered / cells }
}

/** Runs the adaptive study for the sim presets. */
export async function adaptiveBench(seeds = 50): Promise<Metric[]> {
  return ['nvlink', 'baremetal-turin', 'seed-vm'].map((preset) => {
    const s = study(preset, seeds)
    return {
      metric: `--target-ci 2 on sim ${preset} (all_reduce 4 GPUs, 5 sizes, ${seeds} seeds): launches per point`,
      value: round(s.launches),
      unit: 'launches',
      note: `vs 20 fixed; ±2 % met in ${round(s.reached * 100)} %; CI coverage ${round(s.coverage * 100)} %`,
    }
  })
}

if (process.argv[1] === import.meta.filename) console.table(await adaptiveBench())
