import type { Point } from '../sweep/index.ts'
import type { NcclAccount } from './_account.ts'
import { mergeAccounts } from './_account.ts'

/** An env axis whose values made no visible difference for one bench and grouping. */
export interface NoEffectFlag {
  axis: string
  values: string[]
  bench: string
  grouping: string
  /** Values of the other env axes in this comparison. */
  others: Record<string, string>
  /** What the judgement rests on: NCCL's own account, or the measured times. */
  basis: 'nccl-info' | 'timing'
  detail: string
  points: string[]
}

/** Per ok point: NCCL's account (if any) and the out-of-place time per size (seconds). */
export interface PointEvidence {
  account?: NcclAccount
  times: Map<number, number[]>
}

/**
 * Timing test of "no visible difference": the geometric mean over sizes of the ratio of
 * median times (each value against the first) within ±TIMING_TOLERANCE, so row noise
 * averages out, and no single size apart by more than TIMING_MAX_SPREAD.
 */
export const TIMING_TOLERANCE = 0.05
/** Largest per-size spread of median times still compatible with "no visible difference". */
export const TIMING_MAX_SPREAD = 0.25

/**
 * Flags env axes that changed nothing visible: for every axis with two or more values,
 * points that differ only in that axis (same bench, grouping, other axes) are compared
 * across all trials. With NCCL INFO accounts on every side, equal transports, algorithms,
 * protocols and channel counts flag the axis; without them, median times that agree (see
 * TIMING_TOLERANCE and TIMING_MAX_SPREAD) do.
 */
export function findNoEffect(
  axes: readonly [string, string[]][],
  points: readonly Point[],
  evidence: ReadonlyMap<string, PointEvidence>,
): NoEffectFlag[] {
  const flags: NoEffectFlag[] = []
  for (const [axis, values] of axes) {
    if (values.length < 2) continue
    const groups = new Map<string, Point[]>()
    for (const p of points) {
      if (p.kind !== 'collective' || !evidence.has(p.id) || !(axis in p.env)) continue
      const others = Object.fromEntries(Object.entries(p.env).filter(([k]) => k !== axis))
      const key = JSON.stringify([p.bench, p.grouping, others])
      groups.set(key, [...(groups.get(key) ?? []), p])
    }
    for (const [key, ps] of groups) {
      const flag = judge(axis, values, ps, evidence)
      if (!flag) continue
      const [bench, grouping, others] = JSON.parse(key) as [string, string, Record<string, string>]
      flags.push({ axis, values, bench, grouping, others, ...flag, points: ps.map((p) => p.id) })
    }
  }
  return flags
}

function judge(
  axis: string,
  values: readonly string[],
  ps: readonly Point[],
  ev: ReadonlyMap<string, PointEvidence>,
): Pick<NoEffectFlag, 'basis' | 'detail'> | undefined {
  const byValue = values.map((v) => ps.filter((p) => p.env[axis] === v).map((p) => ev.get(p.id) as PointEvidence))
  if (byValue.some((list) => list.length === 0)) return undefined
  const accounts = byValue.map((list) => mergeAccounts(list.map((e) => e.account)))
  if (accounts.every((a) => a !== undefined)) {
    const sig = (a: NcclAccount) => JSON.stringify([a.transports, a.algos, a.protos, a.channels ?? null])
    const first = accounts[0] as NcclAccount
    if (!accounts.every((a) => sig(a as NcclAccount) === sig(first))) return undefined
    const what = [
      `transports ${first.transports.join('+') || '?'}`,
      `algorithms ${first.algos.join('+') || '?'}`,
      `protocols ${first.protos.join('+') || '?'}`,
    ]
    if (first.channels !== undefined) what.push(`${first.channels} channels`)
    return { basis: 'nccl-info', detail: `NCCL reported the same ${what.join(', ')} for ${axis}=${values.join(',')}` }
  }
  const medians = byValue.map((list) => medianTimes(list))
  const sizes = [...(medians[0]?.keys() ?? [])].filter((s) => medians.every((m) => m.has(s)))
  if (sizes.length === 0) return undefined
  let spread = 0
  const logRatio = medians.map(() => 0)
  for (const s of sizes) {
    const v = medians.map((m) => m.get(s) as number)
    if (v.some((x) => !(x > 0))) return undefined
    spread = Math.max(spread, Math.max(...v) / Math.min(...v) - 1)
    v.forEach((x, i) => (logRatio[i] = (logRatio[i] as number) + Math.log(x / (v[0] as number)) / sizes.length))
  }
  const shift = Math.max(...logRatio.map((l) => Math.abs(Math.expm1(l))))
  if (shift > TIMING_TOLERANCE || spread > TIMING_MAX_SPREAD) return undefined
  return {
    basis: 'timing',
    detail:
      `median times agree within ${(shift * 100).toFixed(1)}% on average over ` +
      `${sizes.length} sizes (at most ${(spread * 100).toFixed(1)}% at one size) for ${axis}=` +
      `${values.join(',')}; no NCCL INFO account to compare`,
  }
}

function medianTimes(list: readonly PointEvidence[]): Map<number, number> {
  const all = new Map<number, number[]>()
  for (const e of list) for (const [s, ts] of e.times) all.set(s, [...(all.get(s) ?? []), ...ts])
  const out = new Map<number, number>()
  for (const [s, ts] of all) {
    const sorted = [...ts].sort((a, b) => a - b)
    const mid = sorted.length >> 1
    out.set(
      s,
      sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2,
    )
  }
  return out
}
