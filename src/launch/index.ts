/**
 * Launchers: local (CUDA_VISIBLE_DEVICES per group), OpenMPI mpirun and Slurm srun. Each
 * turns an instrument's invocation for one group into the concrete process to spawn
 * (pure); the driver in src/run spawns it.
 */
import type { LauncherId } from '../sweep/index.ts'
import { localLauncher, mpirunLauncher, srunLauncher } from './_launchers.ts'
import type { Launcher } from './_types.ts'

export { expandHostlist, resolveHosts } from '../lists/index.ts'
export type { Command, Launcher, LaunchRequest } from './_types.ts'

/** Every launcher, in one explicit list. */
const LAUNCHERS: readonly Launcher[] = [localLauncher, mpirunLauncher, srunLauncher]

/** The launcher with this id. */
export const launcherById = (id: LauncherId): Launcher => LAUNCHERS.find((l) => l.id === id) ?? localLauncher
