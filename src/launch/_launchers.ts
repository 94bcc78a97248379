import type { Command, Launcher, LaunchRequest } from './_types.ts'

const visible = (gpus: readonly number[]): string => gpus.join(',')

/**
 * Local: one process on this host sees only the group's GPUs through
 * CUDA_VISIBLE_DEVICES (so concurrent groups never share a GPU).
 */
export const localLauncher: Launcher = {
  id: 'local',
  description: 'one process on this host, CUDA_VISIBLE_DEVICES set to the group',
  procs: () => 1,
  wrap(req: LaunchRequest): Command {
    const [file, ...args] = req.inv.argv
    return { file: file ?? '', args, env: { ...req.inv.env, CUDA_VISIBLE_DEVICES: visible(req.gpus) } }
  },
}

/**
 * OpenMPI mpirun: -np ranks (one per GPU for collectives), -H hosts, every env variable
 * exported with -x NAME=VALUE, --tag-output so each line names its rank
 * (`[1,0]<stdout>:`; the parsers strip it).
 */
export const mpirunLauncher: Launcher = {
  id: 'mpirun',
  description: 'OpenMPI mpirun: one rank per GPU, env exported with -x, --tag-output',
  procs: (kind, gpus) => (kind === 'pairs' ? 1 : gpus),
  wrap(req: LaunchRequest): Command {
    const env = { ...req.inv.env, CUDA_VISIBLE_DEVICES: visible(req.gpus) }
    const args: string[] = []
    if (req.asRoot) args.push('--allow-run-as-root')
    args.push('--oversubscribe', '-np', String(req.procs))
    if (req.hosts.length) args.push('-H', req.hosts.join(','))
    args.push('--tag-output')
    for (const [k, v] of Object.entries(env)) args.push('-x', `${k}=${v}`)
    args.push(...req.inv.argv)
    return { file: 'mpirun', args, env }
  },
}

/**
 * Slurm srun: --ntasks ranks, GPUs by --gpus-per-task 1 (Slurm then sets
 * CUDA_VISIBLE_DEVICES per task) or --gres gpu:N or not at all, the env exported
 * through srun's own environment (--export=ALL; values may contain commas, which
 * --export=NAME=VALUE cannot carry), unbuffered output, and the step killed when a task fails.
 */
export const srunLauncher: Launcher = {
  id: 'srun',
  description: 'Slurm srun: --ntasks ranks, --gpus-per-task or --gres, env exported',
  procs: (kind, gpus) => (kind === 'pairs' ? 1 : gpus),
  wrap(req: LaunchRequest): Command {
    const env: Record<string, string> = { ...req.inv.env }
    const args = ['--ntasks', String(req.procs), '--export=ALL', '--unbuffered', '--kill-on-bad-exit=1']
    if (req.hosts.length) args.push('--nodelist', req.hosts.join(','))
    if (req.srunGpus === 'gpus-per-task')
      args.push('--gpus-per-task', String(Math.max(1, Math.round(req.gpus.length / req.procs))))
    else {
      if (req.srunGpus === 'gres') args.push('--gres', `gpu:${req.gpus.length}`)
      env.CUDA_VISIBLE_DEVICES = visible(req.gpus)
    }
    args.push(...req.inv.argv)
    return { file: 'srun', args, env }
  },
}
