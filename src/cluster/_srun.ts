/**
 * Launching one job step of a cluster plan through Slurm: `srun` with one task per node on
 * exactly the job's nodes (concurrent steps of one round use disjoint nodes of the
 * allocation), each task running the instrument: `gpucomm sim --fabric F`, which reads its
 * nodes from the step (SLURM_STEP_NODELIST) and prints from rank 0 the text a multi-node
 * nccl-tests run prints. Never a home-made remote runner.
 */
import { readFileSync } from 'node:fs'
import { execa } from 'execa'
import type { Executor } from '../exec/index.ts'
import type { Command } from '../launch/index.ts'
import type { SweepSpec } from '../sweep/index.ts'
import { formatGpuList, sizesArg } from '../sweep/index.ts'
import type { ClusterPlan, ClusterStep, JobStep } from './_plan.ts'

/** This gpucomm: the node binary and bin/gpucomm.js (the tasks run the same checkout). */
export interface SelfCommand {
  node: string
  bin: string
}

/** The srun command of one job (see the module comment). Pure. */
export function srunJobCommand(
  spec: SweepSpec,
  plan: ClusterPlan,
  step: ClusterStep,
  job: JobStep,
  self: SelfCommand,
): Command {
  const k = String(job.hosts.length)
  const args = ['--nodes', k, '--ntasks', k, '--ntasks-per-node', '1', '--nodelist', job.hosts.join(',')]
  args.push('--job-name', `gpucomm-${step.pattern}`, '--export=ALL', '--unbuffered', '--kill-on-bad-exit=1')
  const env: Record<string, string> = {}
  if (spec.srunGpus === 'gpus-per-task') args.push('--gpus-per-task', String(job.gpus.length))
  else {
    if (spec.srunGpus === 'gres') args.push('--gres', `gpu:${job.gpus.length}`)
    env.CUDA_VISIBLE_DEVICES = job.gpus.join(',')
  }
  args.push(self.node, self.bin, 'sim', '--preset', spec.preset ?? 'seed-vm', '--format', 'nccl-tests')
  args.push('--collective', step.collective, '--gpus', formatGpuList(job.gpus), '--sizes', sizesArg(spec.sizes))
  args.push('--iters', String(spec.iters), '--warmup', String(spec.warmup), '--seed', String(spec.seed))
  args.push('--trial', String(step.trial), '--fabric', plan.fabric)
  for (const i of plan.inject) args.push('--inject', `${i.kind}@${i.node}`)
  return { file: 'srun', args, env }
}

/** What one launched job left: its raw output (already on disk) and why it failed, if it did. */
export interface JobRun {
  stdout: string
  exitCode: number | null
  reason?: string
}

/**
 * Runs one job command through the sweep's executor (its own process group under the
 * watchdog, raw output written as it arrives, the group killed on a stop signal or when the
 * harness dies), then reads back what it printed.
 */
export async function launchJob(
  executor: Executor,
  cmd: Command,
  spec: SweepSpec,
  paths: { stdout: string; stderr: string },
  signal?: AbortSignal,
): Promise<JobRun> {
  const r = await executor.run({
    command: cmd,
    noOutputMs: spec.noOutputTimeoutS * 1000,
    hardMs: spec.hardTimeoutS * 1000,
    stdoutPath: paths.stdout,
    stderrPath: paths.stderr,
    ...(signal ? { signal } : {}),
  })
  const reason = r.spawnError
    ? `${cmd.file} could not start (${r.spawnError})`
    : r.killed === 'no-output'
      ? `killed: no output for ${spec.noOutputTimeoutS} s`
      : r.killed === 'hard-cap'
        ? `killed after the ${spec.hardTimeoutS} s hard timeout`
        : r.killed === 'abort'
          ? 'stopped'
          : r.signal
            ? `killed by ${r.signal}`
            : r.exitCode !== 0
              ? `${cmd.file} exited ${r.exitCode}`
              : undefined
  return { stdout: readFileSync(paths.stdout, 'utf8'), exitCode: r.exitCode, ...(reason ? { reason } : {}) }
}

/**
 * The node names Slurm knows (`sinfo -h -N -o %N`), or undefined when sinfo cannot answer
 * (then srun itself judges the names).
 */
export async function slurmNodeNames(env: Readonly<Record<string, string | undefined>>): Promise<string[] | undefined> {
  const r = await execa('sinfo', ['-h', '-N', '-o', '%N'], { reject: false, timeout: 20_000, env, extendEnv: false })
  if (r.exitCode !== 0) return undefined
  return [
    ...new Set(
      String(r.stdout)
        .split('\n')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ]
}
