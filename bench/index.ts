/**
 * `npm run bench`: every bench of the suite, one table (metric, value, budget, holds) and
 * bench/results.json (git-ignored) with the machine's facts. Budgets are ratios or absolute
 * limits that should hold on any machine: import ≤ 2 × parse-only and its samples ≤ 1 × the
 * input bytes; `gpucomm --help` ≤ 2 × `node -e 0`; sweep overhead ≤ 10 % of child wall
 * time; analyze over 1,000,000 samples under 1 GB peak RSS (and cells/diff over 1,000,000
 * samples under 1 GiB); at 10,000,000 samples per set (`scale`), diff and analyze ≤ 1 GiB
 * peak RSS and analyze ≤ 3 × a bare engine per-cell median query; at 10,000,000 samples
 * (`stream`), export, show, compare, plot and report ≤ 1 GiB peak RSS each.
 * `npm run bench -- --only startup,charts` runs a subset. See BENCHMARKS.md.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Metric } from './_util.ts'
import { machineFacts, ROOT } from './_util.ts'
import { adaptiveBench } from './adaptive.bench.ts'
import { aimedBench } from './aimed.bench.ts'
import { analyzeBench } from './analyze.bench.ts'
import { armsBench } from './arms.bench.ts'
import { chartBench } from './chart.bench.ts'
import { clusterBench } from './cluster.bench.ts'
import { diffBench, SCENARIOS } from './diff.bench.ts'
import { fuzzBench } from './fuzz.bench.ts'
import { importBench } from './import.bench.ts'
import { parseBench } from './parse.bench.ts'
import { partHashBench } from './part-hash.bench.ts'
import { scaleBench } from './scale.bench.ts'
import { startupBench } from './startup.bench.ts'
import { statsBench } from './stats.bench.ts'
import { streamBench } from './stream.bench.ts'
import { sweepBench } from './sweep.bench.ts'

/** The benches in the order they run (cheap and sensitive ones first). */
const BENCHES: [string, () => Promise<Metric[]>][] = [
  ['startup', () => startupBench()],
  ['parse', () => parseBench(50e6, false, true)],
  ['fuzz', () => fuzzBench(100_000)],
  ['aimed', () => aimedBench()],
  ['part-hash', () => partHashBench(2_000_000)],
  ['import', () => importBench(200)],
  ['analyze', () => analyzeBench(1_000_000)],
  ['diff', () => diffBench(SCENARIOS.slice(0, 3), true)],
  ['sweep', () => sweepBench(150, true)],
  ['charts', () => chartBench()],
  ['adaptive', () => adaptiveBench()],
  ['stats', () => statsBench()],
  ['arms', async () => armsBench()],
  ['cluster', () => clusterBench()],
  ['scale', () => scaleBench(10_000_000)],
  ['stream', () => streamBench(10_000_000)],
]

const fmt = (v: number): string =>
  Math.abs(v) >= 1000 ? v.toLocaleString('en', { maximumFractionDigits: 0 }) : String(v)

/** One plain-text table of every metric. */
function table(metrics: readonly Metric[]): string {
  const rows = [
    ['metric', 'value', 'budget', 'holds', 'note'],
    ...metrics.map((m) => [
      m.metric,
      `${fmt(m.value)} ${m.unit}`,
      m.budget ?? '',
      m.holds === undefined ? '' : m.holds ? 'yes' : 'NO',
      m.note ?? '',
    ]),
  ]
  const w = [0, 1, 2, 3].map((c) => Math.max(...rows.map((r) => (r[c] as string).length)))
  return rows
    .map((r) =>
      r
        .map((c, i) => (i < 4 ? (i === 1 ? c.padStart(w[i] as number) : c.padEnd(w[i] as number)) : c))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--only')
  const only = at >= 0 ? (process.argv[at + 1] ?? '').split(',') : undefined
  const machine = machineFacts()
  const metrics: Metric[] = []
  const timings: Record<string, number> = {}
  for (const [name, run] of BENCHES) {
    if (only && !only.includes(name)) continue
    process.stderr.write(`bench: ${name} …\n`)
    const t0 = performance.now()
    metrics.push(...(await run()))
    timings[name] = Number(((performance.now() - t0) / 1000).toFixed(1))
  }
  const facts = `${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}, load ${machine.loadAverage1mAtStart} at start`
  process.stdout.write(`\n${table(metrics)}\n\n${facts}\n`)
  const budgets = metrics.filter((m) => m.holds !== undefined)
  process.stdout.write(`budgets: ${budgets.filter((m) => m.holds).length} of ${budgets.length} hold\n`)
  writeFileSync(
    join(ROOT, 'bench', 'results.json'),
    `${JSON.stringify({ machine, secondsPerBench: timings, metrics }, null, 2)}\n`,
  )
  process.stdout.write('written: bench/results.json\n')
}

await main()
