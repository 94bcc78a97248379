/**
 * The decode-step communication model. Megatron-style TP does `allreducesPerLayer`
 * all-reduces per layer per forward pass, each of batch × hidden × dtype bytes; a decode
 * step runs every layer once, so TP8 does layers × allreducesPerLayer all-reduces over 8
 * GPUs, and TP4×PP2 does the same count over 4 GPUs (two stages in sequence) plus one
 * pipeline-boundary send/recv of the same payload. Times are the measured medians at the
 * payload, read between the two measured sizes around it on the log-size grid along the
 * α–β line through them (time linear in size: exact within one protocol's segment; time
 * linear in log size would overshoot by up to ~4 % between ×2 sizes); when the two lie on
 * either side of a protocol breakpoint, the faster of the two fitted segment lines. The ceiling is
 * batch / communication time per step: what the GPUs could not beat even with free compute.
 */

import { NCCL_MODEL } from '../../bands/index.ts'
import type { Row } from '../../model/index.ts'
import { rowArm, rowMemo } from '../../model/index.ts'
import type { ReadSet } from '../../resultset/index.ts'
import { medianOf, sortSample } from '../../stats/index.ts'
import { US } from '../../units/index.ts'
import type { DecodeModel, DecodePlan, ModelPreset, P2pReading } from '../_types.ts'
import { fitSeries } from '../fit/_alphabeta.ts'
import type { SegmentFit, XY } from '../fit/_fit.ts'
import { segmentedFit } from '../fit/_fit.ts'
import { buildSeries } from '../fit/_series.ts'
import { judgedFloor } from './_decode-floor.ts'

const med = (v: readonly number[]): number => medianOf(sortSample(v))
const isTime = (r: Row): boolean =>
  r.unit === 's' && r.metric === 'time' && r.sizeBytes !== null && r.placement !== 'in-place'

/** Time values by size. */
type BySize = Map<number, number[]>
/** The all_reduce times by grouping name (`tpN`, or `ranks=N`), with the rank counts of its rows. */
type ByGrouping = Map<string, { ranks: Set<number | null>; bySize: BySize }>

/** One arm's all_reduce and sendrecv times. */
type Times = { ar: ByGrouping; arCount: number; sr: BySize }

/**
 * The all_reduce and sendrecv times of a set by arm (NCCL env and host-axis values, "" for none),
 * in one pass that keeps values, not rows (rows replayed from a SampleSet, one shared object per
 * group of conditions, work as well). Arms are never pooled: a curve over arms is one no arm has.
 */
function timesOf(rows: Iterable<Row>): Map<string, Times> {
  const arms = new Map<string, Times>()
  const add = (by: BySize, size: number): number[] => {
    let v = by.get(size)
    if (v === undefined) by.set(size, (v = []))
    return v
  }
  const target = rowMemo((r): { t: Times; into: number[] } | undefined => {
    if (!isTime(r) || (r.bench !== 'nccl.sendrecv' && r.bench !== 'nccl.all_reduce')) return undefined
    const arm = rowArm(r)
    let t = arms.get(arm)
    if (t === undefined) arms.set(arm, (t = { ar: new Map(), arCount: 0, sr: new Map() }))
    if (r.bench === 'nccl.sendrecv') return { t, into: add(t.sr, r.sizeBytes as number) }
    const name = r.grouping ?? `ranks=${r.ranks}`
    let g = t.ar.get(name)
    if (g === undefined) t.ar.set(name, (g = { ranks: new Set(), bySize: new Map() }))
    g.ranks.add(r.ranks)
    return { t, into: add(g.bySize, r.sizeBytes as number) }
  })
  for (const r of rows) {
    const hit = target(r)
    if (hit === undefined) continue
    hit.into.push(r.value)
    if (r.bench === 'nccl.all_reduce') hit.t.arCount++
  }
  return arms
}

/** The arm the decode table reads: the one without env or host-axis settings when there is one. */
function baseArm(arms: Map<string, Times>): { arm: string; times: Times; others: string[] } {
  const names = [...arms.keys()].sort()
  const arm = names.includes('') ? '' : (names[0] ?? '')
  const times = arms.get(arm) ?? { ar: new Map(), arCount: 0, sr: new Map() }
  return { arm, times, others: names.filter((n) => n !== arm) }
}

/** Median time per size, sorted by size. */
function curve(by: BySize | undefined): XY[] {
  return [...(by ?? [])].sort(([a], [b]) => a - b).map(([x, v]) => ({ x, y: med(v) }))
}

/** Time at `size` on a measured curve: exact, on the α–β line through its neighbours, or from the fit beyond it. */
export function timeAt(c: readonly XY[], size: number): { t: number; from: DecodePlan['allreduceFrom'] } {
  if (c.length === 0) return { t: NaN, from: 'none' }
  const exact = c.find((p) => p.x === size)
  if (exact) return { t: exact.y, from: 'measured' }
  const segs = segmentedFit(c)
  const segOf = (i: number): SegmentFit => segs.find((g) => g.from <= i && i <= g.to) as SegmentFit
  for (let i = 0; i + 1 < c.length; i++) {
    const [a, b] = [c[i] as XY, c[i + 1] as XY]
    if (!(a.x < size && size < b.x)) continue
    const [sa, sb] = [segOf(i), segOf(i + 1)]
    // Within one protocol's segment: the α–β line through the two neighbours.
    if (sa === sb) return { t: a.y + ((size - a.x) * (b.y - a.y)) / (b.x - a.x), from: 'interpolated' }
    // Across a protocol switch: the faster of the two segments' lines, as NCCL's tuner picks.
    return { t: Math.min(sa.fit.alpha + sa.fit.slope * size, sb.fit.alpha + sb.fit.slope * size), from: 'interpolated' }
  }
  const s = size < (c[0] as XY).x ? segs[0] : segs[segs.length - 1]
  return s ? { t: s.fit.alpha + s.fit.slope * size, from: 'fit-extrapolated' } : { t: NaN, from: 'none' }
}

/** The grouping whose all_reduce rows ran on `ranks` GPUs (by name tpN first, then by ranks). */
function groupingFor(ar: ByGrouping, ranks: number): string | null {
  const names = [...ar.keys()]
  return names.find((g) => g.toLowerCase() === `tp${ranks}`) ?? names.find((g) => ar.get(g)?.ranks.has(ranks)) ?? null
}

/** The p2p floor: median α over cross-GPU pair fits (P2P-enabled ones when measured), and the pair time at a payload. */
function p2pFloor(rows: Iterable<Row>, payload: number): { alpha: number; at: number } | null {
  const pairs = buildSeries(rows).filter(
    (s) => s.id.src !== undefined && s.id.dst !== undefined && s.id.src !== s.id.dst,
  )
  // The P2P=Enabled measurement is what a serving stack gets (host-staged anyway where peer access is missing).
  const enabled = pairs.filter((s) => s.id.p2p === 'enabled')
  const fits = (enabled.length ? enabled : pairs).map((s) => fitSeries(s, { replicates: 0 }))
  if (fits.length === 0) return null
  return { alpha: med(fits.map((f) => f.alpha)), at: med(fits.map((f) => f.alpha + (f.beta ? payload / f.beta : 0))) }
}

function plan(
  name: DecodePlan['plan'],
  tp: number,
  pp: number,
  m: ModelPreset,
  payload: number,
  ar: ByGrouping,
  sendRecv: { t: number | null; from: string },
): DecodePlan {
  const grouping = groupingFor(ar, tp)
  const at = timeAt(curve(grouping ? ar.get(grouping)?.bySize : undefined), payload)
  const allreduces = m.layers * m.allreducesPerLayer
  const sendRecvs = pp - 1
  const allreduceTime = Number.isFinite(at.t) ? at.t : null
  const srTime = sendRecvs > 0 ? sendRecv.t : 0
  const commTime = allreduceTime === null ? null : allreduces * allreduceTime + sendRecvs * (srTime ?? 0)
  return {
    plan: name,
    tp,
    pp,
    grouping,
    allreduces,
    allreduceTime,
    allreduceFrom: at.from,
    sendRecvs,
    sendRecvTime: sendRecvs > 0 ? sendRecv.t : null,
    sendRecvFrom: sendRecvs > 0 ? sendRecv.from : 'no pipeline boundary',
    commTime,
    tokPerSec: commTime ? m.batch / commTime : null,
  }
}

/**
 * The decode model's readings (docs/REFERENCE.md) of a p2p floor α for TP8 and TP4. The
 * whole-transfer reading (α is the cost of the whole all-reduce) is left out when α is below
 * NCCL's own base latency (tuning.cc): no NCCL all-reduce runs in less, so its ceiling would be
 * no bound at all.
 */
export function p2pReadings(alpha: number, m: ModelPreset): P2pReading[] {
  const steps = m.layers * m.allreducesPerLayer
  const base = NCCL_MODEL['PCI/LL'].base * US
  const mk = (reading: P2pReading['reading'], formula: string, ar: (n: number) => number): P2pReading => {
    const one = (n: number) => ({ allreduce: ar(n), step: steps * ar(n), tokPerSec: m.batch / (steps * ar(n)) })
    return { reading, formula, tp8: one(8), tp4: one(4) }
  }
  const perHop = mk(
    'per-hop',
    'all_reduce = 6.6 µs + 2(n−1)·α (α paid on every ring step)',
    (n) => base + 2 * (n - 1) * alpha,
  )
  if (alpha < base) return [perHop]
  return [perHop, mk('whole-transfer', 'all_reduce = α (α is the cost of the whole all-reduce)', () => alpha)]
}

/** Which reading the measured small-message all_reduce supports (closest within 2×). */
function supported(
  readings: P2pReading[],
  measured: { n: 8 | 4; t: number } | null,
): { supported: 'per-hop' | 'whole-transfer' | 'undecided'; why: string } {
  if (!measured)
    return {
      supported: 'undecided',
      why: 'only p2p latency was measured; measure nccl all_reduce over the groupings (e.g. tp8, tp4) to decide',
    }
  const key = measured.n === 8 ? 'tp8' : 'tp4'
  const d = readings.map((r) => ({ r, ratio: measured.t / r[key].allreduce }))
  const best = d.reduce((a, b) => (Math.abs(Math.log(b.ratio)) < Math.abs(Math.log(a.ratio)) ? b : a))
  const txt = d.map((x) => `${x.ratio.toFixed(2)}× the ${x.r.reading} reading`).join(', ')
  const line = `measured smallest-size all_reduce on ${measured.n} GPUs ${(measured.t / US).toFixed(1)} µs is ${txt}`
  if (Math.abs(Math.log(best.ratio)) > Math.log(2))
    return { supported: 'undecided', why: `${line}; neither is within 2×` }
  return { supported: best.r.reading, why: `${line}; the ${best.r.reading} reading is closer` }
}

/** The readings of the floor on the all_reduce's own transport, judged where the set shows that transport. */
function judgedReadings(set: ReadSet, m: ModelPreset, tp: DecodePlan | undefined): DecodeModel['p2pReadings'] {
  const floor = judgedFloor(set.rows, (r) => (r.grouping ?? `ranks=${r.ranks}`) === tp?.grouping)
  if (!floor) return null
  const rs = p2pReadings(floor.alpha, m)
  const pairs = `${floor.via === 'P2P' ? 'P2P' : 'host-staged'} pairs`
  if (floor.smallest && tp) {
    const j = supported(rs, { n: tp.tp as 8 | 4, t: floor.smallest.t })
    return {
      alpha: floor.alpha,
      readings: rs,
      ...j,
      why: `${floor.via} all_reduce against the ${pairs}' floor: ${j.why}`,
    }
  }
  if (!tp) return { alpha: floor.alpha, readings: rs, ...supported(rs, null) }
  return {
    alpha: floor.alpha,
    readings: rs,
    supported: 'undecided',
    why: `not judged: the floor is the ${pairs}', and no all_reduce of this set is known to have run over ${floor.via === 'P2P' ? 'P2P (NCCL across CPU sockets defaults to SHM; measure with NCCL_P2P_LEVEL=SYS)' : 'host-staged copies (measure with NCCL_P2P_DISABLE=1)'}`,
  }
}

/** The decode-step model for a set and a resolved preset. */
export function decodeModel(set: ReadSet, m: ModelPreset): DecodeModel {
  const payloadBytes = m.batch * m.hidden * m.dtypeBytes
  const base = baseArm(timesOf(set.rows))
  const { ar, arCount, sr } = base.times
  const notes: string[] = []
  if (base.others.length > 0)
    notes.push(
      `the plans read the arm ${base.arm ? `"${base.arm}"` : 'without env or host-axis settings'}; ` +
        `not pooled with ${base.others.map((a) => `"${a}"`).join(', ')} (compare --by env.NAME or host-axis sets arms side by side)`,
    )
  const p2p = p2pFloor(set.rows, payloadBytes)
  let sendRecv: { t: number | null; from: string } = { t: null, from: 'not measured (no nccl.sendrecv or p2p rows)' }
  if (sr.size > 0) sendRecv = { t: timeAt(curve(sr), payloadBytes).t, from: 'nccl.sendrecv median at the payload' }
  else if (p2p) sendRecv = { t: p2p.at, from: 'median p2p pair time α + payload/β' }
  const plans = [plan('TP8', 8, 1, m, payloadBytes, ar, sendRecv), plan('TP4×PP2', 4, 2, m, payloadBytes, ar, sendRecv)]
  if (arCount === 0) notes.push('no nccl all_reduce rows: the plans have no measured all-reduce time')
  const readings = p2p
    ? judgedReadings(
        set,
        m,
        plans.find((p) => p.grouping !== null),
      )
    : null
  if (readings && !readings.readings.some((r) => r.reading === 'whole-transfer'))
    notes.push(
      `no whole-transfer reading: α ${(readings.alpha / US).toFixed(2)} µs is below NCCL's ${NCCL_MODEL['PCI/LL'].base} µs base latency (tuning.cc), so it cannot be a whole all-reduce's cost`,
    )
  notes.push(
    'communication only: compute, kernel launches and MoE all-to-all are not counted, so real ' +
      'tok/s is lower than the ceiling',
  )
  return {
    model: m,
    payloadBytes,
    allreducesPerStep: m.layers * m.allreducesPerLayer,
    plans,
    p2pReadings: readings,
    notes,
  }
}
