/**
 * The simulated cluster: N nodes of one preset joined by an inter-node network (NCCL's NET
 * transport over InfiniBand, RoCE or TCP sockets; figures and sources in
 * src/bands/bands-network.ts), with faults injected on named nodes. One job step (one
 * nccl-tests run over one or more nodes) becomes the text nccl-tests prints in a multi-node
 * run: one process per node, rank lines naming the hosts. Pure.
 */
// The network figures are a pure data table; imported from their file, not the analysis door, so
// that `gpucomm sim` (a process per sweep point) does not load the whole analysis.
import type { Fabric } from '../../bands/index.ts'
import { FABRICS, FAULT_FACTORS, NET_HOP, NICS_PER_NODE } from '../../bands/index.ts'
import { badInput } from '../../errors/index.ts'
import { GBPS, US } from '../../units/index.ts'
import { renderNccl } from '../_nccl.ts'
import { busFactor, collectiveModel, presetByName, ringSteps } from '../_physics.ts'
import { hash53 } from '../_prng.ts'
import type { Run } from '../_run.ts'
import { applyFault } from '../_simulate.ts'
import type { AlphaBeta, Collective, CollectiveModel, Preset } from '../_types.ts'

/** Faults a simulated node can carry (`sweep --inject KIND@NODE`). */
export const INJECT_KINDS = ['slow-nic', 'flapping-nic', 'no-p2p', 'pcie-gen3', 'straggler-gpu'] as const
/** One of INJECT_KINDS. */
export type InjectKind = (typeof INJECT_KINDS)[number]

/** A fault on one node. */
export interface Injection {
  kind: InjectKind
  node: string
}

/** The fabrics `--fabric` takes. */
export const FABRIC_IDS = Object.keys(FABRICS) as Fabric['id'][]

/**
 * Parses `KIND@NODE` items against the cluster's nodes (none given: any node name, as one job
 * step of a larger cluster sees the whole cluster's list); bad input names the item.
 */
export function parseInjections(items: readonly string[], nodes?: readonly string[]): Injection[] {
  return items.map((t) => {
    const m = /^([\w-]+)@(.+)$/.exec(t)
    if (!m) throw badInput(`--inject: "${t}" is not KIND@NODE (kinds: ${INJECT_KINDS.join(', ')})`)
    const kind = m[1] as InjectKind
    if (!INJECT_KINDS.includes(kind))
      throw badInput(`--inject: unknown fault "${m[1]}" (known: ${INJECT_KINDS.join(', ')})`)
    const node = m[2] as string
    if (nodes && !nodes.includes(node))
      throw badInput(`--inject: node ${node} is not in the cluster (${nodes[0]}…${nodes[nodes.length - 1]})`)
    return { kind, node }
  })
}

/** One job step of a simulated cluster. */
export interface ClusterJob {
  preset: string
  fabric: Fabric['id']
  hosts: readonly string[]
  /** GPUs each node drives (physical indices, the same on every node). */
  gpus: readonly number[]
  collective: Collective
  sizes: readonly number[]
  iters: number
  warmup: number
  seed: number
  trial: number
  env?: Readonly<Record<string, string>>
  inject: readonly Injection[]
}

const has = (inj: readonly Injection[], node: string, kind: InjectKind): boolean =>
  inj.some((i) => i.node === node && i.kind === kind)

const scaleLine = (ab: AlphaBeta, timeFactor: number, bwFactor: number): AlphaBeta => ({
  alphaS: ab.alphaS * timeFactor,
  betaBps: (ab.betaBps * bwFactor) / timeFactor,
  busBwBps: (ab.busBwBps * bwFactor) / timeFactor,
})

/**
 * The intra-node model of one node: the preset's NCCL model, with P2P off (no-p2p: NCCL
 * falls back to SHM), the PCIe bandwidth cut to Gen3 (pcie-gen3) or every step slowed by a
 * throttled GPU (straggler-gpu).
 */
function nodeModel(p: Preset, job: ClusterJob, node: string, c: Collective, gpus: readonly number[]): CollectiveModel {
  const env = { ...(job.env ?? {}), ...(has(job.inject, node, 'no-p2p') ? { NCCL_P2P_DISABLE: '1' } : {}) }
  const m = collectiveModel(p, c, gpus, env)
  const bw = has(job.inject, node, 'pcie-gen3') ? FAULT_FACTORS.pcieGen3 : 1
  const slow = has(job.inject, node, 'straggler-gpu') ? 1 / FAULT_FACTORS.stragglerClock : 1
  return { ...m, ll: scaleLine(m.ll, slow, bw), simple: scaleLine(m.simple, slow, bw) }
}

/**
 * What one node's NIC path moves (B/s) and adds per NET step (s): the fabric's line rate ×
 * efficiency × NICs, a quarter with a slow NIC (a flapping NIC: in the cells it is down,
 * `flapped`); with P2P off, GPUDirect RDMA is off too (the
 * same PCIe setting blocks peer access to the NIC), so NET data is staged through host memory:
 * capped at the preset's host-staged bandwidth, plus one staged copy per step.
 */
function nicOf(p: Preset, job: ClusterJob, node: string, flapped: boolean): { bps: number; extraS: number } {
  const f = FABRICS[job.fabric]
  let bps = f.lineRateBps * f.efficiency * NICS_PER_NODE
  if (has(job.inject, node, 'slow-nic') || (flapped && has(job.inject, node, 'flapping-nic')))
    bps *= FAULT_FACTORS.slowNic
  if (!has(job.inject, node, 'no-p2p')) return { bps, extraS: 0 }
  const staged = p.nccl.shmMemcpy
  return { bps: Math.min(bps, staged.busBwSimpleGBs * GBPS), extraS: staged.hopLLUs * US }
}

/**
 * The α–β model of a job across nodes, after NCCL's ring: every step costs the intra-node
 * step, and the steps that cross a node boundary (2·nodes for all_reduce, nodes−1 otherwise,
 * tuning.cc's nInterSteps) cost NCCL's NET step instead; the ring runs at the slowest of
 * the nodes' rings and the NICs on it.
 */
export function clusterModel(job: ClusterJob, flapped = false): CollectiveModel {
  const p = presetByName(job.preset)
  const c = job.collective
  const nodes = job.hosts.map((h) => nodeModel(p, job, h, c, job.gpus))
  const first = nodes[0] as CollectiveModel
  if (job.hosts.length === 1) return first
  const m = job.hosts.length
  const n = m * job.gpus.length
  const steps = ringSteps(c, n)
  const factor = busFactor(c, n)
  const inter = Math.min(steps, c === 'all_reduce' ? 2 * m : m - 1)
  const nics = job.hosts.map((h) => nicOf(p, job, h, flapped))
  const netBps = Math.min(...nics.map((x) => x.bps))
  const extraS = Math.max(...nics.map((x) => x.extraS))
  const line = (proto: 'll' | 'simple', baseUs: number, netHopS: number, netShare: number): AlphaBeta => {
    // Per-step intra cost: the node's own α less NCCL's base, over its own steps.
    const intraStep = Math.max(...nodes.map((x) => (x.steps > 0 ? (x[proto].alphaS - baseUs * US) / x.steps : 0)))
    const alphaS = baseUs * US + (steps - inter) * intraStep + inter * (netHopS + extraS)
    const busBwBps = Math.min(...nodes.map((x) => (x.steps > 0 ? x[proto].busBwBps : Infinity)), netBps * netShare)
    return { alphaS, betaBps: factor > 0 ? busBwBps / factor : Infinity, busBwBps }
  }
  const ll = line('ll', p.nccl.baseLLUs, NET_HOP.llS, 0.5)
  const simple = line('simple', p.nccl.baseSimpleUs, NET_HOP.simpleS, 1)
  const slope = 1 / ll.betaBps - 1 / simple.betaBps
  return {
    collective: c,
    ranks: n,
    transport: FABRICS[job.fabric].label,
    steps,
    busFactor: factor,
    ll,
    simple,
    breakpointBytes: slope > 0 ? Math.max(0, (simple.alphaS - ll.alphaS) / slope) : Infinity,
  }
}

/** The nccl-tests text of one job step (SIMULATED marker first, rank lines naming the hosts). */
export function simulateClusterJob(job: ClusterJob): string {
  const preset = presetByName(job.preset)
  if (!(job.fabric in FABRICS)) throw badInput(`--fabric ${job.fabric}: expected one of ${FABRIC_IDS.join(', ')}`)
  const run: Run = {
    preset,
    format: 'nccl-tests',
    collective: job.collective,
    gpus: job.gpus,
    sizes: job.sizes,
    bwSizes: [],
    pairs: 'all',
    copies: ['ce'],
    p2pModes: ['enabled', 'disabled'],
    step: '2(factor)',
    iters: job.iters,
    warmup: job.warmup,
    seed: job.seed,
    trial: job.trial,
    env: { ...(job.env ?? {}) },
    host: {},
    fault: undefined,
    processes: job.hosts.length,
    pid: 1000 + (hash53(`pid|${job.trial}|${job.hosts.join(',')}`, job.seed) % 90000),
    cluster: {
      hosts: job.hosts,
      model: clusterModel(job),
      // A flapping NIC in the job: the model while it is down, for the share of cells it is.
      ...(job.hosts.length > 1 && job.hosts.some((h) => has(job.inject, h, 'flapping-nic'))
        ? { flap: { model: clusterModel(job, true), share: FAULT_FACTORS.flapShare } }
        : {}),
    },
  }
  return applyFault(run, renderNccl(run))
}
