/**
 * Fleet analysis of a cluster sweep: which node is slower than its peers, and which node
 * pair's link. Per node (per-node pattern: the intra-node collective; node-pairs: the
 * sendrecv between one GPU per node, the network path alone) and per pair, a bandwidth value
 * (busbw at the largest sizes) and a latency value (time at the smallest sizes), each the
 * median of its samples. A unit is an outlier when it is worse than the fleet's median with a
 * modified z-score beyond DEFAULT_THRESHOLDS.outlierZ (median and MAD across units), by at least
 * MIN_FLEET_DELTA, and its samples differ from the others' by the Mann-Whitney U test at
 * DEFAULT_THRESHOLDS.alpha: the statistics `diff` uses; a unit with fewer than
 * DEFAULT_THRESHOLDS.minCiSamples samples (no bounded CI of its median) is not judged. A pair is a link outlier only when
 * neither of its nodes is already one. Each outlier names its mechanism from which metrics
 * moved (see `mechanismOf`). Pure.
 */
import { relDelta } from '../../diff/index.ts'
import type { Row } from '../../model/index.ts'
import { DEFAULT_THRESHOLDS, mannWhitney, medianOf, modifiedZ, sortSample } from '../../stats/index.ts'
import type { FleetLaunch } from '../_fleet-import.ts'
import type { FleetScaling } from './_fleet-scaling.ts'
import { scalingOf } from './_fleet-scaling.ts'
import type { LinkCells, TailFlag } from './_fleet-tail.ts'
import { intermittentNodes, tailMechanism } from './_fleet-tail.ts'
import type { Unit } from './_fleet-units.ts'
import { byHost, units } from './_fleet-units.ts'

/** Smallest relative change called an outlier: below it, noise of a healthy fleet (σ ≈ 3 % per value). */
export const MIN_FLEET_DELTA = 0.1

/** One outlier node or link. */
export interface FleetOutlier {
  kind: 'node' | 'link'
  hosts: string[]
  /**
   * The metric that flagged it: intra.busbw, intra.latency, net.busbw, net.latency, or
   * net.busbw.tail (a share of its links' cells slow while their median is not: delta is then
   * the slow cells' median against the fleet's, z the modified z-score of the node's spread).
   */
  metric: string
  /** (value − fleet median) / fleet median of that metric. */
  delta: number
  value: number
  fleetMedian: number
  z: number
  p: number
  mechanism: string
  /** Every metric that moved for this unit, in words. */
  evidence: string[]
}

/** Pairwise bandwidth between nodes (the heatmap's cells). */
export interface FleetPair {
  hosts: [string, string]
  busbwBps: number
}

/** The fleet part of an analysis. */
export interface Fleet {
  nodes: string[]
  outliers: FleetOutlier[]
  pairs: FleetPair[]
  scaling: FleetScaling[]
  notes: string[]
  /** Imported multi-host launches (absent for a cluster sweep). */
  launches?: FleetLaunch[]
}

/** Per node from per-pair units: the median of its pairs' values, its pairs' values as samples. */
function perNode(pairs: readonly Unit[]): Unit[] {
  const m = new Map<string, number[]>()
  for (const u of pairs)
    for (const h of u.hosts) {
      let l = m.get(h)
      if (!l) m.set(h, (l = []))
      l.push(u.value)
    }
  return [...m].map(([h, vals]) => ({ key: h, hosts: [h], value: medianOf(sortSample(vals)), samples: vals }))
}

interface Flag {
  unit: Unit
  metric: string
  delta: number
  ratio: number
  fleetMedian: number
  z: number
  p: number
}

/** The units worse than the fleet (see the module comment); `higherIsWorse` for latency. */
function flag(list: readonly Unit[], metric: string, higherIsWorse: boolean, thin?: Set<string>): Flag[] {
  if (list.length < 3) return []
  const values = list.map((u) => u.value)
  const z = modifiedZ(values)
  const med = medianOf(sortSample(values))
  const out: Flag[] = []
  list.forEach((u, i) => {
    const d = relDelta(med, u.value)
    const worse = higherIsWorse ? d : -d
    const zi = z[i] as number
    if (worse < MIN_FLEET_DELTA || Math.abs(zi) <= DEFAULT_THRESHOLDS.outlierZ) return
    // Too few samples for a bounded CI of the unit's median: two noisy values could make it.
    if (u.samples.length < DEFAULT_THRESHOLDS.minCiSamples) {
      thin?.add(metric)
      return
    }
    const others = list.flatMap((o, j) => (j === i ? [] : o.samples))
    const p = mannWhitney(u.samples, others).p
    if (!(p <= DEFAULT_THRESHOLDS.alpha)) return
    out.push({ unit: u, metric, delta: d, ratio: med > 0 ? u.value / med : Infinity, fleetMedian: med, z: zi, p })
  })
  return out
}

const pct = (ratio: number): string => `×${ratio.toFixed(2)}`

/**
 * The mechanism behind a node's flags. Network latency up (with or without bandwidth): NET data
 * staged through host memory, i.e. no GPUDirect RDMA, which the same PCIe setting that turns P2P
 * off also blocks. Network bandwidth alone: the NIC. Intra-node latency and bandwidth moved by
 * one factor: a slow GPU pacing the ring. Intra-node latency up otherwise: P2P off (SHM).
 * Intra-node bandwidth alone: a PCIe link trained below its speed.
 */
function mechanismOf(flags: readonly Flag[]): { mechanism: string; primary: Flag } {
  const get = (m: string): Flag | undefined => flags.find((f) => f.metric === m)
  const netLat = get('net.latency')
  const netBw = get('net.busbw')
  const lat = get('intra.latency')
  const bw = get('intra.busbw')
  if (netLat)
    return {
      primary: netLat,
      mechanism:
        `no P2P on this node: network latency ${pct(netLat.ratio)}` +
        `${netBw ? `, bandwidth ${pct(netBw.ratio)}` : ''} on every link, as when NCCL's NET data is staged through host memory (no GPUDirect RDMA; ` +
        `the PCIe setting that blocks GPU peer access blocks the NIC's too)`,
    }
  if (lat && bw && Math.abs(lat.ratio * bw.ratio - 1) < 0.1)
    return {
      primary: lat,
      mechanism:
        `a straggler GPU: intra-node latency ${pct(lat.ratio)} and bandwidth ` +
        `${pct(bw.ratio)}, every size slower by one factor, as when one GPU runs at lower clocks and paces the ring`,
    }
  if (lat)
    return {
      primary: lat,
      mechanism:
        `no P2P on this node: intra-node latency ${pct(lat.ratio)}` +
        `${bw ? `, bandwidth ${pct(bw.ratio)}` : ''}, as when NCCL falls back from P2P to SHM through host memory`,
    }
  if (bw)
    return {
      primary: bw,
      mechanism:
        `a degraded PCIe link: intra-node bandwidth ` +
        `${pct(bw.ratio)} at unchanged latency, as when a link trains below its generation or width (e.g. Gen3 ` +
        `instead of Gen5)`,
    }
  const f = netBw as Flag
  return {
    primary: f,
    mechanism:
      `the node's NIC: network bandwidth ` +
      `${pct(f.ratio)} on every link of this node at unchanged latency (a port trained at a lower rate, or link ` +
      `errors)`,
  }
}

const words = (f: Flag): string =>
  `${f.metric} ${pct(f.ratio)} of the fleet median (z ${f.z.toFixed(1)}, p ${f.p.toPrecision(2)})`

/** Fleet analysis of the rows of a cluster sweep (see the module comment). */
export function analyzeFleet(rows: readonly Row[], nodes: readonly string[], fabric?: string): Fleet {
  const intra = [...new Set(rows.filter((r) => r.grouping === 'per-node').map((r) => r.bench))].sort()[0]
  const flags: Flag[] = []
  const thin = new Set<string>()
  if (intra) {
    flags.push(...flag(units(byHost(rows, 'per-node', intra, 'busbw'), 'large'), 'intra.busbw', false, thin))
    flags.push(...flag(units(byHost(rows, 'per-node', intra, 'time'), 'small'), 'intra.latency', true, thin))
  }
  const pairBw = units(byHost(rows, 'node-pairs', 'nccl.sendrecv', 'busbw'), 'large')
  const pairLat = units(byHost(rows, 'node-pairs', 'nccl.sendrecv', 'time'), 'small')
  flags.push(...flag(perNode(pairBw), 'net.busbw', false, thin), ...flag(perNode(pairLat), 'net.latency', true, thin))
  const outliers: FleetOutlier[] = []
  const tails = new Map(intermittentNodes(linkCells(rows)).map((t) => [t.node, t]))
  const medianBad = [...new Set(flags.map((f) => f.unit.key))]
  for (const node of medianBad) {
    const mine = flags.filter((f) => f.unit.key === node)
    const { mechanism, primary } = mechanismOf(mine)
    const tail = tails.get(node)
    // A flapping NIC slow often enough to move the median: named for the flapping.
    const flapping = tail && mine.every((f) => f.metric === 'net.busbw')
    outliers.push(outlier('node', primary, flapping ? tailMechanism(tail) : mechanism, mine))
    tails.delete(node)
  }
  const linkMedian = medianOf(sortSample(pairBw.map((u) => u.value)))
  for (const t of tails.values()) outliers.push(tailOutlier(t, linkMedian))
  outliers.sort((a, b) => (a.hosts[0] as string).localeCompare(b.hosts[0] as string))
  const bad = outliers.map((o) => o.hosts[0] as string)
  const healthy = (u: Unit): boolean => !u.hosts.some((h) => bad.includes(h))
  const linkFlags = [
    ...flag(pairBw.filter(healthy), 'net.busbw', false, thin),
    ...flag(pairLat.filter(healthy), 'net.latency', true, thin),
  ]
  for (const key of [...new Set(linkFlags.map((f) => f.unit.key))].sort()) {
    const mine = linkFlags.filter((f) => f.unit.key === key)
    const primary = mine[0] as Flag
    const mechanism =
      `this link only: ` +
      `${mine.map((f) => `${f.metric} ${pct(f.ratio)}`).join(', ')} while both nodes are normal with their other peers (the path between them: cable, switch ` +
      `port or routing)`
    outliers.push(outlier('link', primary, mechanism, mine))
  }
  return {
    nodes: [...nodes],
    outliers,
    pairs: pairBw.map((u) => ({ hosts: [u.hosts[0], u.hosts[1]] as [string, string], busbwBps: u.value })),
    scaling: scalingOf(rows, fabric),
    notes: [
      ...(intra ? [] : ['no per-node rows: intra-node mechanisms (P2P, PCIe, GPUs) cannot be told apart']),
      ...[...thin].map(
        (m) =>
          `${m}: a unit looked worse than the fleet but has fewer than ` +
          `${DEFAULT_THRESHOLDS.minCiSamples} samples, too few to judge (more --trials or --sizes)`,
      ),
    ],
  }
}

function outlier(kind: 'node' | 'link', f: Flag, mechanism: string, all: readonly Flag[]): FleetOutlier {
  return {
    kind,
    hosts: f.unit.hosts,
    metric: f.metric,
    delta: f.delta,
    value: f.unit.value,
    fleetMedian: f.fleetMedian,
    z: f.z,
    p: f.p,
    mechanism,
    evidence: all.map(words),
  }
}

/** The node-pairs sendrecv busbw cells at the large sizes, per link. */
function linkCells(rows: readonly Row[]): LinkCells[] {
  return [...byHost(rows, 'node-pairs', 'nccl.sendrecv', 'busbw')].map(([key, rs]) => {
    const edge = Math.max(...rs.map((r) => r.sizeBytes as number)) / 16
    const cells = rs
      .filter((r) => (r.sizeBytes as number) >= edge)
      .map((r) => ({ size: r.sizeBytes as number, value: r.value }))
    return { hosts: key.split(','), cells }
  })
}

function tailOutlier(t: TailFlag, fleetMedian: number): FleetOutlier {
  return {
    kind: 'node',
    hosts: [t.node],
    metric: 'net.busbw.tail',
    delta: t.slowRatio - 1,
    value: t.slowRatio * fleetMedian,
    fleetMedian,
    z: t.spreadZ,
    p: t.p,
    mechanism: tailMechanism(t),
    evidence: [
      `net.busbw: ${t.slow} of ${t.cells} cells ${pct(t.slowRatio)} of the fleet median on ` +
        `${t.slowLinks} of ${t.links} links (binomial p ` +
        `${t.p.toPrecision(2)} at the other links' rate), median ${pct(t.medianRatio)}, IQR/median ` +
        `${t.spread.toFixed(2)} vs ${t.fleetSpread.toFixed(2)} (z ${t.spreadZ.toFixed(1)})`,
    ],
  }
}
