/** Where this process sits in an MPI or Slurm launch, from the variables the launchers set. */
import { expandHostlist } from '../../lists/index.ts'

/** Rank of this process and the number of processes (1 when not launched by MPI/Slurm). */
export interface LaunchContext {
  rank: number
  size: number
  /** Which launcher's variables were found. */
  via: 'openmpi' | 'pmi' | 'slurm' | 'none'
}

const num = (v: string | undefined): number | undefined => (v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined)

/**
 * Reads OMPI_COMM_WORLD_RANK/SIZE (Open MPI's mpirun), PMI_RANK/PMI_SIZE (MPICH, Hydra, srun
 * --mpi=pmi2) or SLURM_PROCID with SLURM_STEP_NUM_TASKS / SLURM_NTASKS (srun), in that order.
 */
export function launchContext(env: Readonly<Record<string, string | undefined>>): LaunchContext {
  const pairs: [LaunchContext['via'], string | undefined, string | undefined][] = [
    ['openmpi', env.OMPI_COMM_WORLD_RANK, env.OMPI_COMM_WORLD_SIZE],
    ['pmi', env.PMI_RANK, env.PMI_SIZE],
    ['slurm', env.SLURM_PROCID, env.SLURM_STEP_NUM_TASKS ?? env.SLURM_NTASKS],
  ]
  for (const [via, r, s] of pairs) {
    const rank = num(r)
    const size = num(s)
    if (rank !== undefined && size !== undefined && size >= 1 && rank < size) return { rank, size, via }
  }
  return { rank: 0, size: 1, via: 'none' }
}

/**
 * The nodes of this Slurm job step in task order (srun's SLURM_STEP_NODELIST, a hostlist such
 * as `node[02,04]`, expanded; with one task per node, task i runs on the i-th), or none
 * outside a job step.
 */
export function stepHosts(env: Readonly<Record<string, string | undefined>>): string[] {
  const list = env.SLURM_STEP_NODELIST
  return list ? expandHostlist(list) : []
}
