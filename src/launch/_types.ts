import type { Invocation } from '../instruments/index.ts'
import type { LauncherId, SrunGpus } from '../sweep/index.ts'

/** What to launch for one group of a point. */
export interface LaunchRequest {
  inv: Invocation
  /** Physical GPU indices of the group. */
  gpus: number[]
  /** Processes (ranks) to start. */
  procs: number
  /** Hosts to run on; empty = the local host (mpirun) or wherever Slurm places the tasks. */
  hosts: string[]
  srunGpus: SrunGpus
  /** True when gpucomm runs as root (mpirun then needs --allow-run-as-root). */
  asRoot: boolean
}

/** A concrete process to spawn: program, arguments and the env to add to the parent's. */
export interface Command {
  file: string
  args: string[]
  env: Record<string, string>
}

/** A launcher: turns an instrument's invocation for one group into the process to spawn. Pure. */
export interface Launcher {
  readonly id: LauncherId
  readonly description: string
  /** Processes to start for a group of `gpus` GPUs: 1 (one process drives all) or one per GPU. */
  procs(kind: 'pairs' | 'collective', gpus: number): number
  wrap(req: LaunchRequest): Command
}
