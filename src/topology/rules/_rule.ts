/** What a verdict rule is: a stable id and a check over the merged topology. */

import type { HostFacts } from '../../host/index.ts'
import type { Finding, HypervisorInfo, TopoGpu, TopoPair } from '../_types.ts'

/** What every rule sees. */
export interface RuleContext {
  gpus: readonly TopoGpu[]
  pairs: readonly TopoPair[]
  hypervisor: HypervisorInfo
  cpuVendor?: string
  /** The sources describe a simulated machine (gpucomm sim). */
  simulated?: boolean
  /** Host link, power, IOMMU and NUMA facts, when read. */
  host?: HostFacts
}

/** A verdict rule. */
export interface Rule {
  id: string
  check: (c: RuleContext) => Finding | undefined
}

/** What a rule says when it applies: its finding, less the id (the rule's own). */
export type Said = Omit<Finding, 'id'>

/** A rule whose id is written once: the finding it returns carries that id. */
export const rule = (id: string, check: (c: RuleContext) => Said | undefined): Rule => ({
  id,
  check: (c) => {
    const said = check(c)
    return said && { id, ...said }
  },
})

/** The GPUs of some pairs, each once, in the order the pairs name them. */
export const pairGpus = (pairs: readonly TopoPair[]): number[] => [...new Set(pairs.flatMap((p) => [p.a, p.b]))]
