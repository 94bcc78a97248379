import { describeClusterPlan, planCluster, runCluster, slurmNodeNames } from '../cluster/index.ts'
import { badInput } from '../errors/index.ts'
import type { SweepSpec } from '../sweep/index.ts'
import { stagesFor } from './_stages.ts'
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
  const plan = planCluster(spec, env)
  // Outside an allocation the nodes come from --hosts: Slurm must know them all (inside one,
  // planCluster has checked them against the allocation).
  if (!plan.simulated && !(env.SLURM_JOB_NODELIST ?? env.SLURM_NODELIST)) {
    const known = await slurmNodeNames(env)
    const unknown = known ? plan.nodes.filter((n) => !known.includes(n)) : []
    if (unknown.length)
      throw badInput(`--hosts: Slurm knows no node ${unknown.join(',')} (sinfo lists ${known?.join(',')})`)
  }
  if (req.dryRun) {
    io.stdout(describeClusterPlan(plan, spec.trials, spec.gpus))
    return { code: 0 }
  }
  const out = req.resume ?? req.out ?? defaultOutDir(req.root, plan.simulated)
  // Each step's start on stderr: one redrawn line on a terminal, a plain line per step elsewhere.
  const progress = stagesFor('cluster', { stderr: io.stderr, isTTY: io.tty !== undefined })
  let r: Awaited<ReturnType<typeof runCluster>>
  try {
    r = await runCluster({
      spec,
      plan,
      out,
      command: req.command,
      resume: req.resume !== undefined,
      onStep: (p) => progress.stage(p.id, p.index, p.total),
      ...(io.signal ? { signal: io.signal } : {}),
    })
  } catch (e) {
    progress.stop()
    throw e
  }
  progress.done()
  const rows = r.manifest.outcomes
    ? Object.values(r.manifest.outcomes).reduce((s, o) => s + ('rows' in o ? o.rows : 0), 0)
    : 0
  io.stdout(
    `cluster: ${plan.nodes.length} nodes${plan.simulated ? ' (SIMULATED)' : ''}, ` +
      `${plan.steps.length} steps, ${rows} rows\n`,
  )
  if (r.dropped) io.stderr(`resume: dropped ${r.dropped} rows of steps that had not finished; they ran again\n`)
  const failed = r.counts.failed ?? 0
  if (failed) io.stdout(`cluster: ${failed} step(s) failed; see the manifest's outcomes and raw/ for their output\n`)
  if (r.interrupted) io.stdout(`interrupted: continue with: gpucomm sweep --resume ${out}\n`)
  io.stdout(`result set: ${out}\n`)
  return { code: r.interrupted ? 130 : failed ? 1 : 0, dir: out }
}
