/**
 * Coverage of `analyze`'s α (latency floor) 95 % CI on the simulator, whose truth is known
 * (issue 31): independent SIMULATED sets (seeds apart), each 6 launches of p2p_bench latency
 * (CE, P2P on, 20 iterations a launch) at 8 B … 32 KiB on GPUs 0-3; every pair's fit (same-GPU
 * and cross-GPU) is checked against the model's α (the noise-free copy time's intercept).
 */

import type { Series } from '../src/analysis/index.ts'
import { buildSeries, fitSeries } from '../src/analysis/index.ts'
import { trueLatency } from '../src/sim/index.ts'
import { simLoaded } from '../test/sim-loaded.ts'

/** What the study found, per class of pair. */
export interface AlphaCoverage {
  preset: string
  /** Launches per set. */
  trials: number
  sets: number
  same: { covered: number; fits: number }
  cross: { covered: number; fits: number }
  /** Fits with a zero-width interval (must be none with 6 launches). */
  zeroWidth: number
}

const SIZES = [8, 64, 512, 4096, 32768]

/** `launchLevel` false: the old bootstrap (iterations resampled within sizes), for the before number. */
export function alphaStudy(
  preset: string,
  sets: number,
  seedBase: number,
  launchLevel = true,
  trials = 6,
): AlphaCoverage {
  const out: AlphaCoverage = {
    preset,
    trials,
    sets,
    same: { covered: 0, fits: 0 },
    cross: { covered: 0, fits: 0 },
    zeroWidth: 0,
  }
  for (let k = 0; k < sets; k++) {
    const set = simLoaded({
      preset,
      seed: seedBase + k,
      trials,
      p2pGpus: [0, 1, 2, 3],
      groups: [],
      bench: { sizes: SIZES, iters: 20 },
    })
    const rows = set.rows.filter((r) => r.source.file.startsWith('p2p-bench') && r.p2p === 'enabled')
    for (const s of buildSeries(rows)) {
      if (s.id.bench !== 'p2p.latency' || s.id.src === undefined || s.id.dst === undefined) continue
      const series: Series = launchLevel ? s : { ...s, launches: undefined, launchOf: undefined }
      const f = fitSeries(series, { seed: seedBase + k })
      const truth = trueLatency(preset, s.id.src, s.id.dst as number, 'enabled')
      const hit = f.alphaCi[0] <= truth && truth <= f.alphaCi[1]
      const c = s.id.src === s.id.dst ? out.same : out.cross
      c.fits++
      if (hit) c.covered++
      if (f.alphaCi[0] === f.alphaCi[1]) out.zeroWidth++
    }
  }
  return out
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const preset of process.argv.slice(2).length ? process.argv.slice(2) : ['seed-vm']) {
    for (const launchLevel of [false, true])
      console.log(
        launchLevel ? 'launch-level' : 'iterations',
        JSON.stringify(alphaStudy(preset, 50, 40_000, launchLevel)),
      )
  }
}
