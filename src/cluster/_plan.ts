/**
 * The cluster plan: which job steps run on which nodes. `per-node` runs the spec's
 * collectives on every node at once (one job step per node); `node-pairs` runs the
 * round-robin schedule, each round's disjoint pairs concurrently, with an inter-node
 * all_reduce (all the nodes' GPUs) and a sendrecv (one GPU per node: the network path
 * alone) per pair; `scaling` runs all_reduce over 2, 4, 8 … N nodes. Steps are repeated
 * `trials` times, trial-major. Faults may be injected whatever the launcher: the instrument is
 * the simulator, which gives the named node the fault. Pure (the allocation comes in through `env`).
 */
import { badInput } from '../errors/index.ts'
import { resolveHosts } from '../launch/index.ts'
import type { Injection } from '../sim/index.ts'
import { FABRIC_IDS, parseInjections } from '../sim/index.ts'
import type { SweepSpec } from '../sweep/index.ts'
import type { Round } from './_schedule.ts'
import { roundRobin, scalingCounts, simNodeNames } from './_schedule.ts'

/** The cluster patterns. */
export const PATTERNS = ['per-node', 'node-pairs', 'scaling'] as const
/** One of PATTERNS. */
export type Pattern = (typeof PATTERNS)[number]

/** One job step: one launch over `hosts`, each driving `gpus`. */
export interface JobStep {
  hosts: string[]
  gpus: number[]
}

/** Job steps that run concurrently (one measurement of the plan). */
export interface ClusterStep {
  /** Stable id, e.g. `node-pairs~r003~sendrecv~t1`. */
  id: string
  pattern: Pattern
  collective: string
  /** node-pairs: the round; scaling: the node count. */
  round?: number
  nodes?: number
  jobs: JobStep[]
  trial: number
}

/** The whole plan of a cluster sweep. */
export interface ClusterPlan {
  /** The nodes used, in order (simulated: node01…; real: the allocation's). */
  nodes: string[]
  /** The allocation the nodes came from (real runs), or the simulated cluster. */
  allocation: string[]
  /** The nodes are simulated (local launcher): names node01…; else Slurm nodes (srun). */
  simulated: boolean
  patterns: Pattern[]
  rounds: Round[]
  inject: Injection[]
  fabric: string
  steps: ClusterStep[]
}

/** The nodes of the sweep: simulated names, or the allocation (checked against --hosts and --nodes). */
function nodesOf(spec: SweepSpec, simulated: boolean, env: Readonly<Record<string, string | undefined>>) {
  const want = spec.cluster?.nodes
  if (simulated) {
    if (want === undefined) throw badInput('--nodes: give the size of the simulated cluster (e.g. --nodes 16)')
    const all = simNodeNames(want)
    const unknown = spec.hosts.filter((h) => !all.includes(h))
    if (unknown.length)
      throw badInput(`--hosts: ${unknown.join(',')} not in the simulated cluster (${all[0]}…${all[all.length - 1]})`)
    return { nodes: spec.hosts.length ? [...spec.hosts] : all, allocation: all }
  }
  const allocation = resolveHosts([], env)
  const unknown = allocation.length ? spec.hosts.filter((h) => !allocation.includes(h)) : []
  if (unknown.length)
    throw badInput(`--hosts: ${unknown.join(',')} not in the Slurm allocation (${allocation.join(',')})`)
  const list = spec.hosts.length ? [...spec.hosts] : allocation
  if (list.length === 0) throw badInput('cluster sweep: no nodes (run it inside a Slurm allocation, or give --hosts)')
  if (want !== undefined && want > list.length)
    throw badInput(`--nodes ${want}: the allocation has only ${list.length} node(s) (${list.join(',')})`)
  return { nodes: list.slice(0, want ?? list.length), allocation }
}

/** Checks the spec's cluster flags against its nodes and expands the steps. */
export function planCluster(spec: SweepSpec, env: Readonly<Record<string, string | undefined>>): ClusterPlan {
  const c = spec.cluster
  if (!c) throw badInput('not a cluster sweep (give --nodes and --pattern)')
  if (!spec.instruments.every((i) => i === 'sim'))
    throw badInput(
      `cluster sweeps run the simulator (--instrument sim); "${spec.instruments.join(',')}" is not yet supported`,
    )
  // Launched locally, the nodes are simulated too (node01…); through srun/mpirun they are real.
  const simulated = spec.launcher === 'local'
  const bad = c.patterns.find((p) => !(PATTERNS as readonly string[]).includes(p))
  if (bad) throw badInput(`--pattern: unknown pattern "${bad}" (known: ${PATTERNS.join(', ')})`)
  const patterns = c.patterns as Pattern[]
  const { nodes, allocation } = nodesOf(spec, simulated, env)
  const needs = patterns.some((p) => p !== 'per-node') ? 2 : 1
  if (nodes.length < needs)
    throw badInput(`--pattern ${patterns.join(',')} needs at least ${needs} nodes; the sweep has ${nodes.length}`)
  if (spec.launcher === 'mpirun')
    throw badInput(
      'cluster sweeps launch through Slurm (--launcher srun) or on simulated nodes (--launcher local), not mpirun',
    )
  const fabric = c.fabric ?? 'ib'
  if (!(FABRIC_IDS as string[]).includes(fabric))
    throw badInput(`--fabric ${fabric}: expected one of ${FABRIC_IDS.join(', ')}`)
  if (c.pairsPerNode !== undefined && !patterns.includes('node-pairs'))
    throw badInput('--pairs-per-node: only the node-pairs pattern pairs nodes')
  const rounds = patterns.includes('node-pairs') ? roundRobin(nodes, c.pairsPerNode) : []
  const inject = parseInjections(c.inject, nodes)
  const configs = patterns.flatMap((p) => configsOf(p, spec, nodes, rounds))
  const steps: ClusterStep[] = []
  for (let t = 1; t <= spec.trials; t++) for (const s of configs) steps.push({ ...s, id: `${s.id}~t${t}`, trial: t })
  return { nodes, allocation, simulated, patterns, rounds, inject, fabric, steps }
}

const pad = (n: number, total: number): string => String(n).padStart(Math.max(2, String(total).length), '0')

function configsOf(p: Pattern, spec: SweepSpec, nodes: string[], rounds: Round[]): Omit<ClusterStep, 'trial'>[] {
  const gpus = spec.gpus
  if (p === 'per-node') {
    return spec.collectives.map((coll) => ({
      id: `per-node~${coll}`,
      pattern: p,
      collective: coll,
      jobs: nodes.map((n) => ({ hosts: [n], gpus })),
    }))
  }
  if (p === 'node-pairs') {
    // all_reduce over both nodes' GPUs, and sendrecv between one GPU per node (the network alone).
    const kinds: [string, number[]][] = [
      ['all_reduce', gpus],
      ['sendrecv', gpus.slice(0, 1)],
    ]
    return rounds.flatMap((r) =>
      kinds.map(([coll, g]) => ({
        id: `node-pairs~r${pad(r.round, rounds.length)}~${coll}`,
        pattern: p,
        collective: coll,
        round: r.round,
        jobs: r.pairs.map((pair) => ({ hosts: [...pair], gpus: g })),
      })),
    )
  }
  return scalingCounts(nodes.length).map((k) => ({
    id: `scaling~n${pad(k, nodes.length)}~all_reduce`,
    pattern: p,
    collective: 'all_reduce',
    nodes: k,
    jobs: [{ hosts: nodes.slice(0, k), gpus }],
  }))
}
