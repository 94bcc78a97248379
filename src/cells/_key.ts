/**
 * Cell keys. A cell is every row that measures the same thing under the same conditions,
 * so its values form one sample. The key is the benchmark × who (pair, group or ranks) ×
 * size × environment × placement × metric, plus every other condition a row carries.
 */
import type { Metric, Row, Unit } from '../model/index.ts'

/**
 * The conditions that define a cell. Everything a row says except the value itself, the
 * trial, the iteration, the source line, the sweep point id and the host (so cells of
 * two result sets taken on different hosts or runs line up for `diff`).
 */
export interface CellConfig {
  bench: string
  metric: Metric
  unit: Unit
  src: number | null
  dst: number | null
  group?: string
  ranks: number | null
  grouping?: string
  sizeBytes: number | null
  /** The requested size where it differs from the printed one (see Row); the key's `size=` is this. */
  requestedBytes?: number
  placement: Row['placement']
  p2p: Row['p2p']
  peerAccess?: boolean
  copy?: Row['copy']
  staging?: Row['staging']
  direction?: Row['direction']
  timer: Row['timer']
  dtype?: string
  redop?: string
  root?: number
  env?: Record<string, string>
  /** Host knob values the point ran with (sweep --host-axis). */
  hostAxis?: Record<string, string>
}

/** The conditions of a row, in key order. */
export function cellConfig(r: Row): CellConfig {
  const c: CellConfig = {
    bench: r.bench,
    metric: r.metric,
    unit: r.unit,
    src: r.src,
    dst: r.dst,
    ranks: r.ranks,
    sizeBytes: r.sizeBytes,
    placement: r.placement,
    p2p: r.p2p,
    timer: r.timer,
  }
  if (r.requestedBytes !== undefined) c.requestedBytes = r.requestedBytes
  if (r.group !== undefined) c.group = r.group
  if (r.grouping !== undefined) c.grouping = r.grouping
  if (r.peerAccess !== undefined) c.peerAccess = r.peerAccess
  if (r.copy !== undefined) c.copy = r.copy
  if (r.staging !== undefined) c.staging = r.staging
  if (r.direction !== undefined) c.direction = r.direction
  if (r.dtype !== undefined) c.dtype = r.dtype
  if (r.redop !== undefined) c.redop = r.redop
  if (r.root !== undefined) c.root = r.root
  if (r.env !== undefined && Object.keys(r.env).length > 0) c.env = r.env
  if (r.hostAxis !== undefined) c.hostAxis = r.hostAxis
  return c
}

/**
 * Conditions a row reports that the machine gave rather than the user asked for (whether the
 * copy ran with peer access). `diff` matches cells without them and shows a change beside the cell.
 */
export const OBSERVED = ['peerAccess'] as const
/** One of OBSERVED. */
export type ObservedField = (typeof OBSERVED)[number]

/** The requested configuration of a row: its cell config without the OBSERVED conditions. */
export function requestedConfig(r: Row): CellConfig {
  const c = cellConfig(r)
  for (const f of OBSERVED) delete c[f]
  return c
}

/** A value in a key: bare when it is plain, JSON-quoted when it holds a space, `=` or a quote. */
const v = (s: string): string => (s === '' || /[\s="]/.test(s) ? JSON.stringify(s) : s)

/**
 * The key of a row's cell: space-separated `name=value` pairs in a fixed order, only
 * those present, e.g. `bench=nccl.all_reduce metric=time ranks=8 size=1048576
 * placement=out-of-place timer=gpu dtype=float redop=sum`, or `bench=p2p.latency
 * metric=latency src=0 dst=1 size=1 p2p=disabled copy=ce`. Environment variables follow as
 * `env.NAME=value`, sorted by name. Sizes are bytes, the requested size where the source
 * said it (see `keySize`). Equal conditions give equal keys, in
 * any result set.
 */
export function cellKey(row: Row): string {
  return keyOf(row)
}

/** The key of a row's requested configuration: `cellKey` without the OBSERVED conditions. */
export const requestedKey = (row: Row): string => keyOf(row, false)

/**
 * The key of a cell config (see `cellKey`). A `Row` has the same field names, so rows are
 * keyed without building a config first (the hot path of grouping a million rows).
 */
export function keyOf(c: CellConfig | Row, observed = true): string {
  let k = `bench=${v(c.bench)} metric=${c.metric}`
  if (c.src !== null) k += ` src=${c.src}`
  if (c.dst !== null) k += ` dst=${c.dst}`
  if (c.group !== undefined) k += ` group=${v(c.group)}`
  if (c.ranks !== null) k += ` ranks=${c.ranks}`
  if (c.grouping !== undefined) k += ` grouping=${v(c.grouping)}`
  const size = c.requestedBytes ?? c.sizeBytes
  if (size !== null) k += ` size=${size}`
  if (c.placement !== null) k += ` placement=${c.placement}`
  if (c.p2p !== null) k += ` p2p=${c.p2p}`
  if (observed && c.peerAccess !== undefined) k += ` peerAccess=${c.peerAccess}`
  if (c.copy !== undefined) k += ` copy=${c.copy}`
  if (c.staging !== undefined) k += ` staging=${c.staging}`
  if (c.direction !== undefined) k += ` direction=${c.direction}`
  if (c.timer !== null) k += ` timer=${c.timer}`
  if (c.dtype !== undefined) k += ` dtype=${v(c.dtype)}`
  if (c.redop !== undefined) k += ` redop=${v(c.redop)}`
  if (c.root !== undefined) k += ` root=${c.root}`
  if (c.env !== undefined) for (const name of Object.keys(c.env).sort()) k += ` env.${name}=${v(c.env[name] as string)}`
  if (c.hostAxis !== undefined)
    for (const name of Object.keys(c.hostAxis).sort()) k += ` host.${name}=${v(c.hostAxis[name] as string)}`
  return k
}

/** The size a cell is keyed by: the requested one where the source said it, else the printed one. */
export const keySize = (c: CellConfig | Row): number | null => c.requestedBytes ?? c.sizeBytes

/** The key without its bench and metric: the row label inside a bench × metric table. */
export function keyLabel(key: string): string {
  const rest = key.replace(/^bench=(?:"(?:[^"\\]|\\.)*"|\S+) metric=\S+ ?/, '')
  return rest === '' ? '-' : rest
}

/** True for metrics where a smaller value is better (times, latencies). */
export function lowerIsBetter(metric: Metric, unit: Unit): boolean {
  if (unit === 's') return true
  if (unit === 'B/s') return false
  return metric === 'time' || metric === 'latency' || metric === 'wrong'
}
