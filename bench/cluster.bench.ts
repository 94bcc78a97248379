/**
 * Cluster scale (issue 16): the node-pairs plan of 256 simulated nodes (255 rounds of 128
 * pairs × all_reduce and sendrecv × 6 trials; budget: under 1 s, median of 5), and the fleet
 * analysis of 256 simulated nodes (per-node and a 16-regular node-pairs subset, two faults
 * injected; the simulation runs in-process and is timed apart). Run alone with
 * `npx tsx bench/cluster.bench.ts`.
 */
import { analyzeFleet } from '../src/analysis/index.ts'
import { planCluster, runCluster } from '../src/cluster/index.ts'
import { resolveSpec } from '../src/sweep/index.ts'
import type { Metric } from './_util.ts'
import { median, round } from './_util.ts'

const NODES = 256

/** Runs the cluster bench. */
export async function clusterBench(): Promise<Metric[]> {
  const spec = resolveSpec(
    { instrument: 'sim', preset: 'seed-vm', gpus: '0-7', nodes: NODES, pattern: 'node-pairs', trials: 6 },
    1,
  )
  const times: number[] = []
  let steps = 0
  let rounds = 0
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now()
    const plan = planCluster(spec, {})
    times.push(performance.now() - t0)
    steps = plan.steps.length
    rounds = plan.rounds.length
  }
  const planMs = median(times)
  const fleetSpec = resolveSpec(
    {
      instrument: 'sim',
      preset: 'seed-vm',
      gpus: '0-7',
      sizes: '8,32,128,8M,32M,128M',
      trials: 1,
      nodes: NODES,
      pattern: 'per-node,node-pairs',
      pairsPerNode: 16,
      inject: 'slow-nic@node017,no-p2p@node200',
    },
    1,
  )
  const plan = planCluster(fleetSpec, {})
  const t1 = performance.now()
  const { rows } = await runCluster({ spec: fleetSpec, plan, out: '', command: [], write: false })
  const simS = (performance.now() - t1) / 1000
  const t2 = performance.now()
  const fleet = analyzeFleet(rows, plan.nodes)
  const analyzeS = (performance.now() - t2) / 1000
  const named = fleet.outliers.map((o) => o.hosts.join('+')).join(', ')
  return [
    {
      metric: `cluster plan: ${NODES} nodes node-pairs (${rounds} rounds, ${steps} steps), median of 5`,
      value: round(planMs),
      unit: 'ms',
      budget: '< 1000 ms',
      holds: planMs < 1000,
    },
    {
      metric: `fleet analysis: ${NODES} SIMULATED nodes (${rows.length.toLocaleString('en')} rows)`,
      value: round(analyzeS),
      unit: 's',
      note: `outliers: ${named || 'none'}; simulating the rows took ${round(simS)} s`,
    },
  ]
}

if (process.argv[1] === import.meta.filename) console.table(await clusterBench())
