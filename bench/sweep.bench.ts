/**
 * Orchestration overhead of the sweep driver on the simulator: a sweep of about 200
 * points (p2p matrix, all_reduce TP8 and 2×TP4 on the seed-vm preset, 8 B–64 MiB) runs
 * in process; per point, the driver's time (spawn, watchdog, streaming parse, raw files,
 * append with fsync, manifest write) minus the child processes' wall time is the overhead,
 * reported as a percentage of the child wall time (target ≤ 10%). Run with
 * `npm run bench:sweep [-- POINTS]`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runSweep } from '../src/run/index.ts'
import { resolveSpec } from '../src/sweep/index.ts'
import type { Metric } from './_util.ts'
import { round } from './_util.ts'

/** Runs a sim sweep of about `target` points in process; prints the details unless `quiet`. */
export async function sweepBench(target = 200, quiet = false): Promise<Metric[]> {
  const trials = Math.ceil(target / 3)
  const spec = resolveSpec(
    {
      instrument: 'sim',
      preset: 'seed-vm',
      gpus: '0-7',
      pairs: 'all',
      groupings: 'tp8,tp4',
      sizes: '8:64M:x2',
      trials,
      seed: 1,
      retries: 0,
    },
    1,
  )
  const out = join(mkdtempSync(join(tmpdir(), 'gpucomm-bench-')), 'set')
  try {
    const t0 = performance.now()
    const r = await runSweep({ spec, out, command: ['bench/sweep.bench.ts'] })
    const totalS = (performance.now() - t0) / 1000
    const { driverS, childS } = r.timing
    const overheadS = driverS - childS
    const pct = (overheadS / childS) * 100
    const line = (k: string, v: string): void => void (quiet || process.stdout.write(`${k.padEnd(34)} ${v}\n`))
    line(
      'points run',
      `${r.ran} (${Object.entries(r.counts)
        .map(([s, n]) => `${n} ${s}`)
        .join(', ')})`,
    )
    line('sweep wall time', `${totalS.toFixed(1)} s`)
    line(
      'child wall time (sum over points)',
      `${childS.toFixed(2)} s (${((childS / r.ran) * 1000).toFixed(1)} ms per point)`,
    )
    line('driver time (sum over points)', `${driverS.toFixed(2)} s`)
    line('orchestration overhead per point', `${((overheadS / r.ran) * 1000).toFixed(1)} ms`)
    line('overhead / child wall', `${pct.toFixed(2)} % (target ≤ 10 %)`)
    return [
      {
        metric: `sweep overhead on the sim (${r.ran} points): share of child wall time`,
        value: round(pct),
        unit: '%',
        budget: '≤ 10 %',
        holds: pct <= 10,
        note: `${round((overheadS / r.ran) * 1000)} ms per point`,
      },
      {
        metric: 'sweep: child wall time per point',
        value: round((childS / r.ran) * 1000),
        unit: 'ms',
        note: `sweep wall ${round(totalS)} s`,
      },
    ]
  } finally {
    rmSync(join(out, '..'), { recursive: true, force: true })
  }
}

if (process.argv[1] === import.meta.filename) await sweepBench(Number(process.argv[2] ?? 200))
