/**
 * Network figures for clusters: what NCCL's NET transport costs between nodes, each with its
 * public source. The simulator's cluster model (src/sim/cluster/_cluster.ts) draws its inter-node α
 * and β from here, and docs/REFERENCE.md lists them (generated, kept equal by a test). Units:
 * bytes/second and seconds.
 */

import { GBPS, US } from '../units/index.ts'
import type { Band } from './_types.ts'
import { NCCL_MODEL } from './bands-collective.ts'

/** An inter-node fabric as NCCL's NET transport sees it. */
export interface Fabric {
  id: 'ib' | 'roce' | 'socket'
  /** What NCCL_DEBUG=INFO calls the transport (RoCE runs NCCL's IB verbs plug-in too). */
  label: string
  /** Line rate of one NIC port (B/s). */
  lineRateBps: number
  /** Share of the line rate NCCL's ring reaches at large sizes. */
  efficiency: number
  source: string
  conditions: string
}

/** NCCL's per-step latency on the NET transport, Ring LL / Ring Simple (tuning.cc hwLat, NET row). */
export const NET_HOP = {
  llS: 2.7 * US,
  simpleS: 14.0 * US,
  source: 'github.com/NVIDIA/nccl src/graph/tuning.cc (hwLat, NCCL_HW_NET, Ring: LL 2.7 µs, Simple 14.0 µs)',
}

/**
 * NCCL's Tree across nodes, LL protocol: base latency per call and NET step latency; with the
 * Ring LL base of bands-collective's NCCL_MODEL these give tuning.cc's small-message model of
 * an all_reduce over nodes: Ring base + (steps − 2·nodes)·intra + 2·nodes·NET_HOP.llS, Tree
 * base + 2·((GPUs per node − 1)·intra + log2(nodes)·treeNetLL).
 */
export const NCCL_TREE = {
  baseLLS: 6.8 * US,
  netLLS: 5.0 * US,
  source:
    'github.com/NVIDIA/nccl src/graph/tuning.cc (baseLat Tree LL 6.8 µs; hwLat NCCL_HW_NET ' +
    'Tree LL 5.0 µs; latency of Tree all_reduce 2·((nRanks/nNodes−1)·intraLat + ' +
    'log2(nNodes)·interLat))',
}

/**
 * NCCL's small-message model of an all_reduce over `nodes` hosts of `ranks` GPUs in all, LL
 * protocol, as two reference bands: Ring = base + (2(n−1) − 2m)·intra hop + 2m·NET_HOP.llS
 * (2m of the ring's steps cross a host boundary), Tree = NCCL_TREE.baseLLS + 2·((n/m − 1)·intra
 * hop + log2(m)·NCCL_TREE.netLLS). NCCL's tuner picks the faster. `nvlink`: the intra-host hop is
 * NVLink's, else PCI's (NCCL_MODEL).
 */
export function ncclNetModelBands(ranks: number, nodes: number, nvlink: boolean): Band[] {
  const key = nvlink ? 'NVLink/LL' : 'PCI/LL'
  const m = NCCL_MODEL[key]
  const steps = 2 * (ranks - 1)
  const inter = Math.min(steps, 2 * nodes)
  const ring = m.base * US + (steps - inter) * m.hop * US + inter * NET_HOP.llS
  const perNode = Math.max(1, Math.round(ranks / nodes))
  const tree = NCCL_TREE.baseLLS + 2 * ((perNode - 1) * m.hop * US + Math.log2(nodes) * NCCL_TREE.netLLS)
  const band = (id: string, label: string, t: number, source: string): Band => ({
    id,
    label,
    kind: 'collective-model',
    metric: 'allreduce-time',
    path: 'NET',
    p2p: 'any',
    vm: null,
    gpuFamily: 'any',
    low: t,
    high: t,
    unit: 's',
    ranks,
    source,
    conditions: `NCCL's own latency model across ${nodes} hosts, intra-host hop ${key}`,
  })
  return [
    band(
      `nccl-model-net-ring-ll-n${ranks}-m${nodes}`,
      `NCCL model, NET, ring LL, ${ranks} GPUs on ${nodes} hosts: ${m.base} + (2(n−1)−2m)×${m.hop} + 2m×${NET_HOP.llS / US} µs`,
      ring,
      NET_HOP.source,
    ),
    band(
      `nccl-model-net-tree-ll-n${ranks}-m${nodes}`,
      `NCCL model, NET, tree LL, ${ranks} GPUs on ${nodes} hosts: ${NCCL_TREE.baseLLS / US} + 2((n/m−1)×${m.hop} + log2(m)×${NCCL_TREE.netLLS / US}) µs`,
      tree,
      NCCL_TREE.source,
    ),
  ]
}

/** NICs per node the cluster model gives each simulated node (the presets describe GPUs, not NICs). */
export const NICS_PER_NODE = 1

/** The fabrics `sweep --fabric` knows. */
export const FABRICS: Readonly<Record<Fabric['id'], Fabric>> = {
  ib: {
    id: 'ib',
    label: 'NET/IB',
    lineRateBps: 50 * GBPS,
    efficiency: 0.9,
    source: 'InfiniBand NDR 4x = 400 Gb/s per port (NVIDIA ConnectX-7 product brief)',
    conditions: 'one NIC per node; 0.9 of line rate at large sizes is an assumption (RDMA headers, no measurement)',
  },
  roce: {
    id: 'roce',
    label: 'NET/IB',
    lineRateBps: 25 * GBPS,
    efficiency: 0.9,
    source: '200 GbE per port (NVIDIA ConnectX-6 Dx product brief); NCCL drives RoCE through its IB plug-in',
    conditions: 'one NIC per node; 0.9 of line rate is an assumption (no measurement)',
  },
  socket: {
    id: 'socket',
    label: 'NET/Socket',
    lineRateBps: 12.5 * GBPS,
    efficiency: 0.5,
    source: '100 GbE (IEEE 802.3ba); NCCL falls back to TCP sockets without an RDMA NIC',
    conditions: 'one NIC per node; half the line rate through the kernel TCP stack is an assumption',
  },
}

/**
 * Injected-fault magnitudes. slow-nic: a 400 Gb/s port trained at 100 Gb/s (a quarter).
 * flapping-nic: the port drops to that rate for a share of the measurements (each row's
 * out-of-place and in-place cell on its own; an assumption: link flaps and error bursts are
 * intermittent, so the median of a node's links can stay normal while its tail is not). pcie-gen3:
 * a Gen5 x16 link trained at Gen3, 15.75 of 63.0 GB/s (PCIe spec arithmetic, docs/REFERENCE.md).
 * straggler-gpu: one GPU at 0.7 of its clock paces every ring step it is in (an assumption).
 */
export const FAULT_FACTORS = {
  slowNic: 100 / 400,
  flapShare: 1 / 3,
  pcieGen3: 15.75 / 63.0,
  stragglerClock: 0.7,
}

/** The figures as reference rows (docs/REFERENCE.md's network table). */
export function networkReferenceRows(): string[] {
  const rows = Object.values(FABRICS).map(
    (f) =>
      `| \`net-${f.id}\` | ${f.label} line rate per NIC | ${f.lineRateBps / GBPS} GB/s (× ` +
      `${f.efficiency}) | ${f.conditions} | ${f.source} |`,
  )
  rows.push(
    `| \`net-hop\` | NCCL NET step latency (Ring) | LL ${NET_HOP.llS / US} µs, Simple ` +
      `${NET_HOP.simpleS / US} µs | NCCL's own cost model | ${NET_HOP.source} |`,
  )
  rows.push(
    `| \`net-tree\` | NCCL Tree across nodes, LL: base, NET step | ` +
      `${NCCL_TREE.baseLLS / US} µs, ` +
      `${NCCL_TREE.netLLS / US} µs | NCCL's own cost model (the scaling pattern's model curve) | ` +
      `${NCCL_TREE.source} |`,
  )
  return ['| id | what | value | conditions | source |', '|---|---|---|---|---|', ...rows]
}
