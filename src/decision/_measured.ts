/**
 * What a result set measured that the step model can use: NCCL collective times per size by
 * rank count, environment arm, host-axis arm and launch (trial), and the P2P floor and bandwidth
 * of the pairs whose peer access worked.
 */

import type { XY } from '../analysis/index.ts'
import { buildSeries, fitSeries, timeAt } from '../analysis/index.ts'
import type { Row } from '../model/index.ts'
import { medianOf, sortSample } from '../stats/index.ts'

/** Bidirectional bandwidth benches (p2p.bw_bi, nvbandwidth *_bidirectional_*): not one direction's bandwidth. */
const BIDIRECTIONAL = /[._]bi/

const med = (v: readonly number[]): number => medianOf(sortSample(v))

/** An arm of the set: its NCCL environment and host knobs (`{}` when none). */
export interface Arm {
  env: Record<string, string>
  host: Record<string, string>
}

/** Collective times: bench → ranks → arm key → trial → size → values. */
type Times = Map<string, Map<number, Map<string, Map<number, Map<number, number[]>>>>>

/** Median floor (s) and bandwidth (B/s) of a set's cross-GPU pairs of one kind. */
export interface PairFloor {
  alpha: number
  bw: number | null
  pairs: number
}

/** The measurements of a set. */
export interface Measured {
  times: Times
  arms: Map<string, Arm>
  /** P2P pairs whose peer access worked: median floor (s) and bandwidth (B/s); null when none. */
  p2p: PairFloor | null
  /** Cross-GPU pairs without peer access (copies staged through host memory); null when none. */
  staged: PairFloor | null
  trials: number[]
}

export const armKey = (a: Arm): string => JSON.stringify([a.env, a.host])

const at = <K, V>(m: Map<K, V>, k: K, make: () => V): V => {
  let v = m.get(k)
  if (v === undefined) m.set(k, (v = make()))
  return v
}

/** Reads the set's rows once. */
export function measure(rows: Iterable<Row>): Measured {
  const times: Times = new Map()
  const arms = new Map<string, Arm>()
  const trials = new Set<number>()
  const peer = { rows: [] as Row[], bws: [] as number[] }
  const staged = { rows: [] as Row[], bws: [] as number[] }
  for (const r of rows) {
    if (r.src !== null && r.dst !== null && r.src !== r.dst) {
      const to = r.p2p === 'enabled' && r.peerAccess !== false ? peer : staged
      if (r.unit === 's' && (r.metric === 'time' || r.metric === 'latency')) to.rows.push(r)
      else if (r.unit === 'B/s' && r.direction !== 'read' && !BIDIRECTIONAL.test(r.bench)) to.bws.push(r.value)
    }
    if (!r.bench.startsWith('nccl.') || r.metric !== 'time' || r.unit !== 's') continue
    if (r.sizeBytes === null || r.ranks === null || r.placement === 'in-place' || !(r.value > 0)) continue
    const arm: Arm = { env: r.env ?? {}, host: r.hostAxis ?? {} }
    const key = armKey(arm)
    arms.set(key, arm)
    trials.add(r.trial)
    const byRanks = at(times, r.bench, () => new Map())
    const byArm = at(byRanks, r.ranks, () => new Map())
    const byTrial = at(byArm, key, () => new Map())
    at(
      at(byTrial, r.trial, () => new Map<number, number[]>()),
      r.sizeBytes,
      (): number[] => [],
    ).push(r.value)
  }
  return {
    times,
    arms,
    p2p: floorOf(peer.rows, peer.bws),
    staged: floorOf(staged.rows, staged.bws),
    trials: [...trials].sort((a, b) => a - b),
  }
}

/** The median floor and bandwidth of pair rows (their time fits, their bandwidth rows when any). */
function floorOf(rows: readonly Row[], bws: readonly number[]): PairFloor | null {
  const fits = buildSeries(rows).map((s) => fitSeries(s, { replicates: 0 }))
  if (fits.length === 0) return null
  return {
    alpha: med(fits.map((f) => f.alpha)),
    bw: bws.length ? med(bws) : med(fits.map((f) => f.beta ?? Number.NaN).filter(Number.isFinite)) || null,
    pairs: fits.length,
  }
}

/** The median curve of one bench, rank count and arm, over the given trials (all when undefined). */
export function curveOf(m: Measured, bench: string, ranks: number, arm: string, trial?: number): XY[] {
  const byTrial = m.times.get(bench)?.get(ranks)?.get(arm)
  if (!byTrial) return []
  const bySize = new Map<number, number[]>()
  for (const [t, sizes] of byTrial) {
    if (trial !== undefined && t !== trial) continue
    for (const [s, v] of sizes) at(bySize, s, () => []).push(...v)
  }
  return [...bySize].sort(([a], [b]) => a - b).map(([x, v]) => ({ x, y: med(v) }))
}

/** Time on a curve at `bytes` (exact, interpolated or extrapolated), or NaN. */
export const curveTime = (c: readonly XY[], bytes: number): number => timeAt(c, bytes).t

/** The rank counts measured for a bench. */
export const ranksOf = (m: Measured, bench: string): number[] =>
  [...(m.times.get(bench)?.keys() ?? [])].sort((a, b) => b - a)
