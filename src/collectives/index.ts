/**
 * The NCCL collectives, one file each, in one registry read by the nccl-tests parsers
 * (shapes, bus factors), the simulator (shapes, ring steps), the native instrument and the
 * help. A new collective is its file plus one line in COLLECTIVE_DEFS.
 */

import type { CollectiveDef } from './_types.ts'
import { allGather } from './all_gather.ts'
import { allReduce } from './all_reduce.ts'
import { alltoall } from './alltoall.ts'
import { alltoallv } from './alltoallv.ts'
import { broadcast } from './broadcast.ts'
import { gather } from './gather.ts'
import { hypercube } from './hypercube.ts'
import { reduce } from './reduce.ts'
import { reduceScatter } from './reduce_scatter.ts'
import { scatter } from './scatter.ts'
import { sendrecv } from './sendrecv.ts'

export type { BusFactor, CollectiveDef } from './_types.ts'
export { busFactor } from './_types.ts'

/** Every collective, in the order the parsers' inference reports candidates. */
export const COLLECTIVE_DEFS: readonly CollectiveDef[] = [
  allReduce,
  reduceScatter,
  reduce,
  allGather,
  alltoall,
  broadcast,
  gather,
  scatter,
  sendrecv,
  alltoallv,
  hypercube,
]

/** The collective called `name`, or undefined. */
export const collectiveDef = (name: string): CollectiveDef | undefined => COLLECTIVE_DEFS.find((c) => c.name === name)

/** Names of the collectives the simulator models (those with ring steps). */
export const SIMULATED_COLLECTIVES: readonly string[] = COLLECTIVE_DEFS.filter((c) => c.ringSteps).map((c) => c.name)

/** Names of the collectives coll_bench runs. */
export const NATIVE_COLLECTIVES: readonly string[] = COLLECTIVE_DEFS.filter((c) => c.native).map((c) => c.name)
