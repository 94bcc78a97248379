/**
 * `gpucomm sim --fabric F`: one process of a multi-node nccl-tests job, launched one task per
 * node (srun --ntasks-per-node 1). The job's nodes are the launch's own (srun's
 * SLURM_STEP_NODELIST) or --cluster-hosts; every task computes the same text and rank 0 prints
 * it, as nccl-tests does. Pure but for the environment it is handed.
 */

import { badInput } from '../../errors/index.ts'
import { expandHostlist } from '../../lists/index.ts'
import { parseSizes } from '../_args.ts'
import { presetByName } from '../_physics.ts'
import type { ClusterJob } from './_cluster.ts'
import { parseInjections, simulateClusterJob } from './_cluster.ts'
import type { LaunchContext } from './_mpi.ts'
import { stepHosts } from './_mpi.ts'

/** What `gpucomm sim --fabric` is given. */
export interface LaunchedJobInput extends Omit<ClusterJob, 'hosts' | 'gpus' | 'sizes' | 'inject'> {
  /** A hostlist; default: the job step's nodes. */
  hosts?: string
  gpus?: readonly number[]
  sizes?: readonly number[]
  /** KIND@NODE items naming any node of the cluster (those outside the job change nothing). */
  inject: readonly string[]
}

/** The text of one multi-node job as its launch sees it (see the module comment). */
export function simulateLaunchedJob(
  input: LaunchedJobInput,
  launch: LaunchContext,
  env: Readonly<Record<string, string | undefined>>,
): string {
  const hosts = input.hosts !== undefined ? expandHostlist(input.hosts) : stepHosts(env)
  if (hosts.length === 0)
    throw badInput(
      '--fabric: a multi-node job needs its nodes: run it under srun (one task per node) or give --cluster-hosts',
    )
  if (launch.size > 1 && launch.size !== hosts.length)
    throw badInput(
      `--fabric: ${launch.size} tasks on ${hosts.length} nodes; run one task per node (srun --ntasks-per-node 1)`,
    )
  const preset = presetByName(input.preset)
  return simulateClusterJob({
    ...input,
    hosts,
    gpus: input.gpus ?? preset.pciBus.map((_, i) => i),
    sizes: input.sizes ?? parseSizes('8:64M:x2').sizes,
    inject: parseInjections(input.inject),
  })
}
