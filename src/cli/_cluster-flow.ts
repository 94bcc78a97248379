import { describeClusterPlan, planCluster, runCluster } from '../cluster/index.ts'
import type { SweepSpec } from '../sweep/index.ts'
import { defaultOutDir } from './_sweep-defaults.ts'
import type { SweepIo, SweepOutcome, SweepRequest } from './_sweep-flow.ts'

/**
 * `gpucomm sweep --nodes/--pattern`: plan the cluster sweep (bad input exits 2 before anything
 * is written), print it for a dry run, or run it into a result set.
 */
export async function clusterFlow(
  req: SweepRequest,
  io: SweepIo,
  spec: SweepSpec,
  env: Readonly<Record<string, string | undefined>>,
): Promise<SweepOutcome> {
  if (req.resume !== undefined) throw new Error('unreachable: --resume is refused for cluster sweeps')
  const plan = planCluster(spec, env)
  if (req.dryRun) {
    io.stdout(describeClusterPlan(plan, spec.trials, spec.gpus))
    return { code: 0 }
  }
  const out = req.out ?? defaultOutDir(req.root, plan.simulated)
  const r = await runCluster({
    spec,
    plan,
    out,
    command: req.command,
    onStep: (p) => {
      if (io.isTTY) io.stderr(`\r[${p.index + 1}/${p.total}] ${p.id}`)
    },
    ...(io.signal ? { signal: io.signal } : {}),
  })
  if (io.isTTY) io.stderr('\n')
  const rows = r.manifest.outcomes
    ? Object.values(r.manifest.outcomes).reduce((s, o) => s + ('rows' in o ? o.rows : 0), 0)
    : 0
  io.stdout(
    `cluster: ${plan.nodes.length} nodes${plan.simulated ? ' (SIMULATED)' : ''}, ${plan.steps.length} steps, ${rows} rows\n`,
  )
  io.stdout(`result set: ${out}\n`)
  return { code: r.interrupted ? 130 : 0, dir: out }
}
