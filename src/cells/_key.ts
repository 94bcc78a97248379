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
  placement: Row['placement']
  p2p: Row['p2p']
  peerAccess?: boolean
  copy?: Row['copy']
  direction?: Row['direction']
  timer: Row['timer']
  dtype?: string
  redop?: string
  root?: number
  env?: Record<string, string>
}

/** The conditions of a row, in key order. */
export function cellConfig(r: Row): CellConfig {
  const c: CellConfig = { bench: r.bench, metric: r.metric, unit: r.unit, src: r.src, dst: r.dst, ranks: r.ranks, sizeBytes: r.sizeBytes, placement: r.placement, p2p: r.p2p, timer: r.timer }
  if (r.group !== undefined) c.group = r.group
  if (r.grouping !== undefined) c.grouping = r.grouping
  if (r.peerAccess !== undefined) c.peerAccess = r.peerAccess
  if (r.copy !== undefined) c.copy = r.copy
  if (r.direction !== undefined) c.direction = r.direction
  if (r.dtype !== undefined) c.dtype = r.dtype
  if (r.redop !== undefined) c.redop = r.redop
  if (r.root !== undefined) c.root = r.root
  if (r.env !== undefined && Object.keys(r.env).length > 0) c.env = r.env
  return c
}

/** A value in a key: bare when it is plain, JSON-quoted when it holds a space, `=` or a quote. */
const v = (x: string | number | boolean): string => {
  const s = String(x)
  return /[\s="]/.test(s) || s === '' ? JSON.stringify(s) : s
}

/**
 * The key of a row's cell: space-separated `name=value` pairs in a fixed order, only
 * those present, e.g. `bench=nccl.all_reduce metric=time ranks=8 size=1048576
 * placement=out-of-place timer=gpu dtype=float redop=sum`, or `bench=p2p.latency
 * metric=latency src=0 dst=1 size=1 p2p=disabled copy=ce`. Environment variables follow as
 * `env.NAME=value`, sorted by name. Sizes are bytes. Equal conditions give equal keys, in
 * any result set.
 */
export function cellKey(row: Row): string {
  return keyOf(cellConfig(row))
}

/** The key of a cell config (see `cellKey`). */
export function keyOf(c: CellConfig): string {
  const parts = [`bench=${v(c.bench)}`, `metric=${c.metric}`]
  const add = (name: string, x: string | number | boolean | null | undefined): void => {
    if (x !== null && x !== undefined) parts.push(`${name}=${v(x)}`)
  }
  add('src', c.src)
  add('dst', c.dst)
  add('group', c.group)
  add('ranks', c.ranks)
  add('grouping', c.grouping)
  add('size', c.sizeBytes)
  add('placement', c.placement)
  add('p2p', c.p2p)
  add('peerAccess', c.peerAccess)
  add('copy', c.copy)
  add('direction', c.direction)
  add('timer', c.timer)
  add('dtype', c.dtype)
  add('redop', c.redop)
  add('root', c.root)
  if (c.env) for (const name of Object.keys(c.env).sort()) add(`env.${name}`, c.env[name])
  return parts.join(' ')
}

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
