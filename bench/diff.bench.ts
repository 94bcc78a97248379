/**
 * Benchmark of the statistics path on generated samples (seeded log-normal, see
 * test/diff-gen.ts): `cells` (grouping + per-cell summaries) over 1,000,000 samples, and
 * `diffSets` (grouping both sets, summaries, Mann-Whitney per cell, geomeans) over
 * 1,000,000 samples in all (500,000 per side) and over 1,000,000 per side. Each scenario
 * runs in its own process so its peak RSS (input rows included) is its own; target:
 * under 1 GiB for 1,000,000 samples. Run with `npm run bench:diff`.
 *
 * Two shapes: "large cells" (1,120 cells of ~900 values: the normal-approximation U test)
 * and "small cells" (100,000 cells of 10 values: the exact U distribution).
 */
import { cpuUsage, resourceUsage } from 'node:process'
import { fileURLToPath } from 'node:url'
import { execa } from 'execa'
import { Bench } from 'tinybench'
import { cells } from '../src/cells/index.ts'
import { diffSets } from '../src/diff/index.ts'
import type { GenSpec } from '../test/diff-gen.ts'
import { genSet } from '../test/diff-gen.ts'
import type { Metric } from './_util.ts'
import { round } from './_util.ts'

type Shape = 'large' | 'small'
type Task = 'cells' | 'diff'

/** Generation spec with about `samples` values per set. */
function spec(shape: Shape, samples: number): Omit<GenSpec, 'seed'> {
  // large: 56 pairs × 10 sizes × 2 metrics = 1,120 cells; small: 20 sizes × 2 metrics × pairs, 10 values each.
  return shape === 'large'
    ? { pairs: 56, sizes: 10, n: Math.ceil(samples / 1120), launches: 5 }
    : { pairs: Math.ceil(samples / 400), sizes: 20, n: 10, launches: 2 }
}

/** One scenario in this process: prints one JSON line with timings and peak RSS. */
async function child(shape: Shape, task: Task, perSet: number): Promise<void> {
  const a = genSet({ seed: 1, ...spec(shape, perSet) })
  const b = task === 'diff' ? genSet({ seed: 2, ...spec(shape, perSet), shift: 0.02 }) : undefined
  let info = ''
  const bench = new Bench({ iterations: 3, time: 0, warmup: false, throws: true })
  let cpu = 0
  bench.add(task, () => {
    const t0 = cpuUsage()
    if (b) {
      const r = diffSets(a, b)
      info = `${r.cells.length} cells compared, ${r.cells.filter((c) => c.significant).length} significant at a 2 % shift`
    } else info = `${cells(a.rows).length} cells`
    const t = cpuUsage(t0)
    cpu += (t.user + t.system) / 1e6
  })
  await bench.run()
  const lat = (bench.tasks[0]?.result as { latency?: { mean: number; min: number } }).latency
  const out = {
    shape,
    task,
    samples: a.rows.length + (b?.rows.length ?? 0),
    info,
    meanS: (lat?.mean ?? NaN) / 1000,
    minS: (lat?.min ?? NaN) / 1000,
    cpuS: cpu / 3,
    peakRssMiB: (resourceUsage().maxRSS * 1024) / 2 ** 20,
  }
  console.log(JSON.stringify(out))
}

type Scenario = [Shape, Task, number]

/** Every scenario; `npm run bench` runs the first three (the 1,000,000-sample ones). */
export const SCENARIOS: readonly Scenario[] = [
  ['large', 'cells', 1_000_000],
  ['large', 'diff', 500_000],
  ['small', 'diff', 500_000],
  ['small', 'cells', 1_000_000],
  ['large', 'diff', 1_000_000],
  ['small', 'diff', 1_000_000],
]

/** Runs `scenarios` each in a child process; prints one line per scenario unless `quiet`. */
export async function diffBench(scenarios: readonly Scenario[] = SCENARIOS, quiet = false): Promise<Metric[]> {
  const me = fileURLToPath(import.meta.url)
  const metrics: Metric[] = []
  for (const [shape, task, perSet] of scenarios) {
    const r = await execa(process.execPath, ['--import', 'tsx', me, '--child', shape, task, String(perSet)], {
      stderr: 'inherit',
    })
    const o = JSON.parse(r.stdout.trim().split('\n').pop() as string) as {
      samples: number
      info: string
      meanS: number
      minS: number
      cpuS: number
      peakRssMiB: number
    }
    const inBudget = task === 'cells' || perSet * 2 <= 1_000_000
    const over = inBudget ? (o.peakRssMiB < 1024 ? 'ok' : 'OVER 1 GiB') : '(2M samples)'
    if (!quiet)
      console.log(
        `${`${shape} cells`.padEnd(12)} ${task.padEnd(6)} ${o.samples.toLocaleString('en').padStart(10)} samples  wall mean ${o.meanS.toFixed(2)} s (min ${o.minS.toFixed(2)})  cpu ${o.cpuS.toFixed(2)} s  peak RSS ${o.peakRssMiB.toFixed(0)} MiB ${over}  — ${o.info}`,
      )
    const name = `${task === 'cells' ? 'cells' : 'diff'} over ${o.samples.toLocaleString('en')} samples (${shape} cells)`
    metrics.push({ metric: `${name}: wall`, value: round(o.meanS), unit: 's', note: `CPU ${round(o.cpuS)} s` })
    metrics.push({
      metric: `${name}: peak RSS`,
      value: round(o.peakRssMiB, 4),
      unit: 'MiB',
      ...(inBudget ? { budget: '< 1 GiB', holds: o.peakRssMiB < 1024 } : {}),
    })
  }
  return metrics
}

const i = process.argv.indexOf('--child')
if (i >= 0) await child(process.argv[i + 1] as Shape, process.argv[i + 2] as Task, Number(process.argv[i + 3]))
else if (process.argv[1] === import.meta.filename) await diffBench()
