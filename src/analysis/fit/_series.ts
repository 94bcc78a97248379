/**
 * Rows → series: one series per pair or group and configuration, holding time samples by
 * message size. Time rows are taken as they are; `p2p.bw_uni` rows join the `p2p.latency`
 * series of the same pair as time = size / bandwidth (p2pBandwidthLatencyTest measures the
 * latency at 16 B and the bandwidth at ~160 MB, the two ends of the same α–β line).
 */
import type { IndexedRows, Row } from '../../model/index.ts'
import { isIndexed, rowMemo } from '../../model/index.ts'

/** Identity of a series (the fields a Fit reports). */
export interface SeriesId {
  bench: string
  /** The node(s) the rows ran on, when the set spans several hosts (a fit per host, not pooled). */
  host?: string
  src?: number
  dst?: number
  group?: string
  ranks?: number
  grouping?: string
  p2p: 'enabled' | 'disabled' | null
  peerAccess?: boolean
  copy?: 'ce' | 'sm'
  staging?: 'bounce'
  direction?: 'read' | 'write'
  placement?: 'out-of-place' | 'in-place'
  dtype?: string
  redop?: string
  root?: number
  env?: Record<string, string>
  /** A sweep's host-axis arm (`cstates=shallow`): each arm its own series, never pooled. */
  hostAxis?: Record<string, string>
}

/** A series: its identity and the time samples by size (values only: 8 bytes a sample). */
export interface Series {
  key: string
  id: SeriesId
  benches: Set<string>
  bySize: Map<number, number[]>
  /** Beside each list of `bySize`, the launch (an index into `launches`) of each value. */
  launchOf?: Map<number, number[]>
  /** The launches (sweep point or file, and trial) the values came from, in order of first appearance. */
  launches?: Map<string, number>
  /** Rows without a size, counted as 0 B (a latency of the smallest copy). */
  unsized: number
  /** Time values ≤ 0 or not a number: no measured time, left out of `bySize`. */
  nonPositive: number
  /**
   * `p2p.bw_uni` values (B/s) whose copy size was not recorded (p2pBandwidthLatencyTest does
   * not print it; it copies ≥ 40 MB): they cannot be points on the line but give β directly.
   */
  bandwidths: number[]
  /** Where the rows came from: sweep point ids, or the raw files of imported sources. */
  origins: Set<string>
}

/** The bench a row's series belongs to, or undefined when the row is not time-like. */
function seriesBench(r: Row): string | undefined {
  // p2pBandwidthLatencyTest's CPU matrix is API-call overhead, not transfer time (FORMATS §2.2);
  // nccl-tests' host-timed rows are the real thing.
  if (r.timer === 'cpu' && r.bench.startsWith('p2p.')) return undefined
  if (r.unit === 's' && (r.metric === 'time' || r.metric === 'latency')) return r.bench
  if (r.bench === 'p2p.bw_uni' && r.unit === 'B/s' && r.value > 0) return 'p2p.latency'
  return undefined
}

const sortedEnv = (env: Record<string, string> | undefined): Record<string, string> | undefined =>
  env && Object.keys(env).length
    ? Object.fromEntries(Object.entries(env).sort(([a], [b]) => a.localeCompare(b)))
    : undefined

/** The identity of the series a row belongs to; `byHost`: keyed by the row's host too. */
export function seriesId(r: Row, bench: string, byHost = false): SeriesId {
  const pair = r.src !== null && r.dst !== null
  const id: SeriesId = { bench, ...(byHost && r.host ? { host: r.host } : {}), p2p: r.p2p }
  if (pair) {
    id.src = r.src as number
    id.dst = r.dst as number
  } else if (r.group) id.group = r.group
  if (!pair && r.ranks !== null) id.ranks = r.ranks
  const opt = {
    grouping: r.grouping,
    peerAccess: r.peerAccess,
    copy: r.copy,
    staging: r.staging,
    direction: r.direction,
    placement: r.placement ?? undefined,
    dtype: r.dtype,
    redop: r.redop,
    root: r.root,
    env: sortedEnv(r.env),
    hostAxis: sortedEnv(r.hostAxis ?? undefined),
  }
  for (const [k, v] of Object.entries(opt)) if (v !== undefined) (id as unknown as Record<string, unknown>)[k] = v
  return id
}

/** A stable string key of an identity. */
const idKey = (id: SeriesId): string => JSON.stringify(id)

/**
 * Groups rows into series. In-place nccl series are dropped when the out-of-place twin
 * exists (they measure the same thing; one fit per group is what users read). When the rows
 * ran on several hosts (a cluster sweep, imports from several machines), each host (each
 * job's nodes) has its own series: a node's floor is not pooled with another's. `left`, when
 * given, gets the count of times ≤ 0 of every series, kept or not (a series of nothing else has
 * no size and is dropped).
 */
export function buildSeries(rows: Iterable<Row>, left?: { nonPositive: number }): Series[] {
  const map = new Map<string, Series>()
  const hosts = new Set<string>()
  for (const r of isIndexed(rows) ? rows.reps : rows) if (r.host) hosts.add(r.host)
  const byHost = hosts.size > 1
  // The rows of one group of a SampleSet are one object, its value changed: key it once
  // (the bench depends on the value only through bw_uni's sign, hence one memo per bench).
  const memo = new Map<string, (r: Row) => Series>()
  const seriesOf = (r: Row, bench: string): Series => {
    let f = memo.get(bench)
    if (!f) {
      f = rowMemo((r) => {
        const id = seriesId(r, bench, byHost)
        const key = idKey(id)
        let s = map.get(key)
        if (!s)
          map.set(
            key,
            (s = {
              key,
              id,
              benches: new Set(),
              bySize: new Map(),
              launchOf: new Map(),
              launches: new Map(),
              unsized: 0,
              nonPositive: 0,
              bandwidths: [],
              origins: new Set(),
            }),
          )
        return s
      })
      memo.set(bench, f)
    }
    return f(r)
  }
  if (isIndexed(rows)) addIndexed(rows, seriesOf)
  else
    for (const r of rows) {
      const bench = seriesBench(r)
      if (bench) add(seriesOf(r, bench), r)?.push(timeValue(r, r.value))
    }
  if (left) left.nonPositive = [...map.values()].reduce((a, s) => a + s.nonPositive, 0)
  const all = [...map.values()].filter((s) => s.bySize.size > 0)
  const keys = new Set(all.map((s) => s.key))
  return all.filter((s) => s.id.placement !== 'in-place' || !keys.has(idKey({ ...s.id, placement: 'out-of-place' })))
}

/** Where a row's values go: a size's list (its launch noted beside each value), or `bandwidths`. */
interface Slot {
  push(v: number): unknown
}

/** The launch a row came from: its sweep point (which names the trial), or its file and trial. */
const launchKey = (r: Row): string => `${r.point ?? r.source.file}|${r.trial}`

/**
 * Notes row `r` in series `s`; returns where its value goes (`timeValue` it first), or
 * null for a time that is not > 0 (counted in `nonPositive`: no size gets an empty list).
 */
function add(s: Series, r: Row): Slot | null {
  s.benches.add(r.bench)
  s.origins.add(r.point ?? r.source.file)
  // A time (seriesBench takes a bandwidth only when it is > 0).
  if (!(r.value > 0)) {
    s.nonPositive++
    return null
  }
  if (r.unit === 'B/s' && r.sizeBytes === null) return s.bandwidths
  const size = r.sizeBytes ?? 0
  if (r.sizeBytes === null) s.unsized++
  let list = s.bySize.get(size)
  if (!list) s.bySize.set(size, (list = []))
  const launchOf = (s.launchOf ??= new Map())
  const launches = (s.launches ??= new Map())
  let lanes = launchOf.get(size)
  if (!lanes) launchOf.set(size, (lanes = []))
  const key = launchKey(r)
  let launch = launches.get(key)
  if (launch === undefined) launches.set(key, (launch = launches.size))
  const [values, at, l] = [list, lanes, launch]
  return {
    push: (v: number) => {
      values.push(v)
      at.push(l)
    },
  }
}

/** A row's value as the series keeps it: a time, or size / bandwidth for a sized B/s row. */
const timeValue = (r: Row, v: number): number => (r.unit === 'B/s' && r.sizeBytes !== null ? r.sizeBytes / v : v)

/**
 * The row loop of `buildSeries` over IndexedRows, from the arrays: what a row adds depends on
 * its conditions and the sign of its value (`seriesBench`), so it is found once per group and
 * sign, at the first such row (series and sizes appear in the same order as row by row).
 */
function addIndexed(ix: IndexedRows, seriesOf: (r: Row, bench: string) => Series): void {
  const { reps, group, value, n } = ix
  // Per group and sign (2·g + [v > 0]): the list the value goes to, null when not time-like
  // or a time that is not > 0 (then `nonPositive` counts it, on the series in `dropped`).
  const slots: (Slot | null | undefined)[] = new Array(2 * reps.length)
  const unsized: (Series | undefined)[] = new Array(2 * reps.length)
  const dropped: (Series | undefined)[] = new Array(2 * reps.length)
  for (let i = 0; i < n; i++) {
    const v = value[i] as number
    const at = 2 * (group[i] as number) + (v > 0 ? 1 : 0)
    let list = slots[at]
    const r = reps[group[i] as number] as Row
    if (list === undefined) {
      r.value = v
      const bench = seriesBench(r)
      const s = bench ? seriesOf(r, bench) : undefined
      slots[at] = list = s ? add(s, r) : null
      if (list === null) dropped[at] = s
      else if (s && r.sizeBytes === null && list !== s.bandwidths) unsized[at] = s
    } else if (list !== null) {
      const s = unsized[at]
      if (s) s.unsized++
    } else {
      const s = dropped[at]
      if (s) s.nonPositive++
    }
    if (list !== null) list.push(timeValue(r, v))
  }
}
