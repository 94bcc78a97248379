/**
 * The scaling pattern against NCCL's model: all_reduce over m nodes of g GPUs each (n = m·g
 * ranks), per node count the measured busbw (large sizes) and time (smallest sizes) beside
 * the curve NCCL's own cost model (tuning.cc) draws from the network's α and β
 * (bands-network.ts) and the intra-node step the smallest run shows.
 *
 * Bandwidth, at the largest size S: the ring's time is α + f·S/B (f = 2(n−1)/n), with NCCL's
 * Simple-protocol α = base + (2(n−1) − 2m)·PCI hop + 2m·NET_HOP.simpleS (NCCL_MODEL
 * 'PCI/Simple'); B is solved from the anchor (the fewest nodes measured) and capped by the
 * fabric's NET bandwidth (line rate × efficiency × NICs per node); the model's busbw is
 * f·S / (α + f·S/B), which falls with the node count as α grows.
 * Latency (LL): Ring = base + (2(n−1) − 2m)·intra + 2m·NET_HOP.llS (2m of the steps cross a node
 * boundary, tuning.cc's nInterSteps); Tree = tree base + 2·((g−1)·intra + log2(m)·tree NET
 * step). `intra` is solved from the anchor's time with the Ring formula. NCCL picks the faster;
 * each point's gap is measured over model − 1, against both curves and NCCL's pick. Pure.
 */

import { FABRICS, NCCL_MODEL, NCCL_TREE, NET_HOP, NICS_PER_NODE } from '../../bands/index.ts'
import type { Row } from '../../model/index.ts'
import { medianOf, sortSample } from '../../stats/index.ts'
import { byHost, units } from './_fleet-units.ts'

const US = 1e-6

/** all_reduce over `nodes` nodes, measured and as NCCL's model has it. */
export interface FleetScaling {
  nodes: number
  gpusPerNode: number
  busbwBps: number
  latencyS: number
  /** The size the busbw is taken at (the largest). */
  sizeBytes: number
  /** busbw over the model's busbw at that size: 1 is NCCL's ring model. */
  vsModel: number
  model: {
    busbwBps: number
    ringS: number
    treeS: number
    /** The faster of the two, which NCCL's tuner would pick for a small message. */
    algorithm: 'ring' | 'tree'
    latencyS: number
  }
  /** measured / model − 1: busbw (negative: slower), latency against Ring, Tree and NCCL's pick. */
  gap: { busbw: number; ring: number; tree: number; latency: number }
}

const ringSteps = (n: number): number => 2 * (n - 1)
const interSteps = (n: number, m: number): number => Math.min(ringSteps(n), 2 * m)

/** The scaling pattern's all_reduce per node count against NCCL's model (see the module comment). */
export function scalingOf(rows: readonly Row[], fabric = 'ib'): FleetScaling[] {
  const points = scalingPoints(rows)
  const anchor = points[0]
  if (!anchor) return []
  const cal = calibrate(anchor, fabric)
  return points.map(({ timeS: _t, ...p }) => {
    const n = p.nodes * p.gpusPerNode
    const moved = share(n) * p.sizeBytes
    const busbwBps = moved / (alphaSimple(n, p.nodes) + moved / cal.beta)
    const inter = interSteps(n, p.nodes)
    const ringS = cal.base + (ringSteps(n) - inter) * cal.intra + inter * NET_HOP.llS
    const treeS = NCCL_TREE.baseLLS + 2 * ((p.gpusPerNode - 1) * cal.intra + Math.log2(p.nodes) * NCCL_TREE.netLLS)
    const algorithm = treeS < ringS ? 'tree' : 'ring'
    const latencyS = Math.min(ringS, treeS)
    return {
      ...p,
      vsModel: p.busbwBps / busbwBps,
      model: { busbwBps, ringS, treeS, algorithm, latencyS },
      gap: {
        busbw: p.busbwBps / busbwBps - 1,
        ring: p.latencyS / ringS - 1,
        tree: p.latencyS / treeS - 1,
        latency: p.latencyS / latencyS - 1,
      },
    }
  })
}

interface ScalingPoint {
  nodes: number
  gpusPerNode: number
  busbwBps: number
  timeS: number
  sizeBytes: number
  latencyS: number
}

/** Each node count's measured all_reduce: busbw and time at its largest size, small-message latency. */
function scalingPoints(rows: readonly Row[]): ScalingPoint[] {
  const scaling = rows.filter((r) => r.grouping === 'scaling' && r.bench === 'nccl.all_reduce')
  const lat = new Map(
    units(byHost(scaling, 'scaling', 'nccl.all_reduce', 'time'), 'small').map((u) => [u.key, u.value]),
  )
  return [...byHost(scaling, 'scaling', 'nccl.all_reduce', 'busbw')]
    .map(([key, rs]) => {
      const m = key.split(',').length
      const size = Math.max(...rs.map((r) => r.sizeBytes as number))
      const at = (metric: Row['metric']) =>
        medianOf(
          sortSample(
            scaling.filter((r) => r.host === key && r.sizeBytes === size && r.metric === metric).map((r) => r.value),
          ),
        )
      const n = rs[0]?.ranks ?? m
      return {
        nodes: m,
        gpusPerNode: Math.max(1, Math.round(n / m)),
        busbwBps: at('busbw'),
        timeS: at('time'),
        sizeBytes: size,
        latencyS: lat.get(key) ?? NaN,
      }
    })
    .sort((a, b) => a.nodes - b.nodes)
}

const simple = NCCL_MODEL['PCI/Simple']
const alphaSimple = (n: number, m: number): number =>
  simple.base * US + (ringSteps(n) - interSteps(n, m)) * simple.hop * US + interSteps(n, m) * NET_HOP.simpleS
const share = (n: number): number => (2 * (n - 1)) / n

/**
 * The model fitted to the smallest node count: β from its large-message time (at most the
 * fabric's rate), the LL intra-node step from its small-message time with the Ring formula.
 */
function calibrate(anchor: ScalingPoint, fabric: string): { beta: number; intra: number; base: number } {
  const f = FABRICS[fabric as keyof typeof FABRICS] ?? FABRICS.ib
  const netBps = f.lineRateBps * f.efficiency * NICS_PER_NODE
  const n0 = anchor.nodes * anchor.gpusPerNode
  const moved0 = share(n0) * anchor.sizeBytes
  const wire = anchor.timeS - alphaSimple(n0, anchor.nodes)
  const beta = Math.min(netBps, moved0 / (wire > 0 ? wire : anchor.timeS))
  const base = NCCL_MODEL['PCI/LL'].base * US
  const intraSteps0 = ringSteps(n0) - interSteps(n0, anchor.nodes)
  const intra =
    intraSteps0 > 0
      ? Math.max(0, (anchor.latencyS - base - interSteps(n0, anchor.nodes) * NET_HOP.llS) / intraSteps0)
      : 0
  return { beta, intra, base }
}
