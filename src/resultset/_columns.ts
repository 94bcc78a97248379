/**
 * The columns of a samples part (schema 2): one column per Row field, so pandas, polars,
 * DuckDB or Arrow read the parts directly. Strings are dictionary-encoded by the Parquet
 * writer; `env` and `hostAxis` are JSON text.
 */
import type { Row } from '../model/index.ts'

/** How a column is encoded in the engine before it becomes Parquet. */
export type ColumnKind = 'str' | 'json' | 'num' | 'int' | 'bool'

type Value = string | number | boolean | null | Record<string, string> | undefined

/** One column: its name, kind, and how a row yields its value. */
interface Column {
  name: string
  kind: ColumnKind
  get: (r: Row) => Value
}

/** The columns, in file order. Numbers that are not always integers are DOUBLE, so they round-trip exactly. */
export const COLUMNS: readonly Column[] = [
  { name: 'bench', kind: 'str', get: (r) => r.bench },
  { name: 'metric', kind: 'str', get: (r) => r.metric },
  { name: 'unit', kind: 'str', get: (r) => r.unit },
  { name: 'value', kind: 'num', get: (r) => r.value },
  { name: 'sizeBytes', kind: 'num', get: (r) => r.sizeBytes },
  { name: 'ranks', kind: 'num', get: (r) => r.ranks },
  { name: 'src', kind: 'num', get: (r) => r.src },
  { name: 'dst', kind: 'num', get: (r) => r.dst },
  { name: 'placement', kind: 'str', get: (r) => r.placement },
  { name: 'p2p', kind: 'str', get: (r) => r.p2p },
  { name: 'timer', kind: 'str', get: (r) => r.timer },
  { name: 'trial', kind: 'int', get: (r) => r.trial },
  { name: 'file', kind: 'str', get: (r) => r.source.file },
  { name: 'line', kind: 'int', get: (r) => r.source.line },
  { name: 'dtype', kind: 'str', get: (r) => r.dtype },
  { name: 'redop', kind: 'str', get: (r) => r.redop },
  { name: 'root', kind: 'num', get: (r) => r.root },
  { name: 'peerAccess', kind: 'bool', get: (r) => r.peerAccess },
  { name: 'copy', kind: 'str', get: (r) => r.copy },
  { name: 'staging', kind: 'str', get: (r) => r.staging },
  { name: 'batch', kind: 'num', get: (r) => r.batch },
  { name: 'direction', kind: 'str', get: (r) => r.direction },
  { name: 'iteration', kind: 'num', get: (r) => r.iteration },
  { name: 'group', kind: 'str', get: (r) => r.group },
  { name: 'grouping', kind: 'str', get: (r) => r.grouping },
  { name: 'point', kind: 'str', get: (r) => r.point },
  { name: 'env', kind: 'json', get: (r) => r.env },
  { name: 'hostAxis', kind: 'json', get: (r) => r.hostAxis },
  { name: 'host', kind: 'str', get: (r) => r.host },
  { name: 'requestedBytes', kind: 'num', get: (r) => r.requestedBytes },
]

/**
 * Every Row field and the column that stores it: adding a field to Row without a column
 * here fails to compile, so a row never loses a field on its way to disk.
 */
export const FIELD_COLUMN: Record<keyof Row, string> = {
  bench: 'bench',
  metric: 'metric',
  unit: 'unit',
  value: 'value',
  sizeBytes: 'sizeBytes',
  ranks: 'ranks',
  src: 'src',
  dst: 'dst',
  placement: 'placement',
  p2p: 'p2p',
  timer: 'timer',
  trial: 'trial',
  source: 'file',
  dtype: 'dtype',
  redop: 'redop',
  root: 'root',
  peerAccess: 'peerAccess',
  copy: 'copy',
  staging: 'staging',
  batch: 'batch',
  direction: 'direction',
  iteration: 'iteration',
  group: 'group',
  grouping: 'grouping',
  point: 'point',
  env: 'env',
  hostAxis: 'hostAxis',
  host: 'host',
  requestedBytes: 'requestedBytes',
}

/**
 * One column of a batch, encoded for the engine without nulls: strings (and JSON objects)
 * as codes into `dict` (0 = null, k = dict[k-1]), nullable numbers as doubles with NaN for
 * null (row numbers are finite, so NaN is free), booleans as 0 null, 1 false, 2 true.
 */
export interface Encoded {
  kind: ColumnKind
  data: Float64Array | Int32Array
  dict: string[]
}

/**
 * The fields of `rows`, one plain array per column (COLUMNS order), read with direct
 * property accesses: one pass, each access site seeing few row shapes, which is several
 * times faster than calling each column's `get` per row.
 */
export function extract(rows: readonly Row[]): unknown[][] {
  const n = rows.length
  const out = COLUMNS.map(() => new Array<unknown>(n))
  const [bench, metric, unit, value, sizeBytes, ranks, src, dst, placement, p2p, timer, trial, file, line] = out
  const [dtype, redop, root, peerAccess, copy, staging, batch, direction, iteration, group, grouping, point] =
    out.slice(14)
  const [env, hostAxis, host, requestedBytes] = out.slice(26)
  for (let i = 0; i < n; i++) {
    const r = rows[i] as Row
    ;(bench as unknown[])[i] = r.bench
    ;(metric as unknown[])[i] = r.metric
    ;(unit as unknown[])[i] = r.unit
    ;(value as unknown[])[i] = r.value
    ;(sizeBytes as unknown[])[i] = r.sizeBytes
    ;(ranks as unknown[])[i] = r.ranks
    ;(src as unknown[])[i] = r.src
    ;(dst as unknown[])[i] = r.dst
    ;(placement as unknown[])[i] = r.placement
    ;(p2p as unknown[])[i] = r.p2p
    ;(timer as unknown[])[i] = r.timer
    ;(trial as unknown[])[i] = r.trial
    ;(file as unknown[])[i] = r.source.file
    ;(line as unknown[])[i] = r.source.line
    ;(dtype as unknown[])[i] = r.dtype
    ;(redop as unknown[])[i] = r.redop
    ;(root as unknown[])[i] = r.root
    ;(peerAccess as unknown[])[i] = r.peerAccess
    ;(copy as unknown[])[i] = r.copy
    ;(staging as unknown[])[i] = r.staging
    ;(batch as unknown[])[i] = r.batch
    ;(direction as unknown[])[i] = r.direction
    ;(iteration as unknown[])[i] = r.iteration
    ;(group as unknown[])[i] = r.group
    ;(grouping as unknown[])[i] = r.grouping
    ;(point as unknown[])[i] = r.point
    ;(env as unknown[])[i] = r.env
    ;(hostAxis as unknown[])[i] = r.hostAxis
    ;(host as unknown[])[i] = r.host
    ;(requestedBytes as unknown[])[i] = r.requestedBytes
  }
  return out
}

function encodeNumbers(kind: ColumnKind, v: readonly unknown[]): Encoded {
  const data = new Float64Array(v.length)
  for (let i = 0; i < v.length; i++) {
    const x = v[i]
    data[i] = x === null || x === undefined ? Number.NaN : (x as number)
  }
  return { kind, data, dict: [] }
}

function encodeSmall(kind: ColumnKind, v: readonly unknown[]): Encoded {
  const data = new Int32Array(v.length)
  for (let i = 0; i < v.length; i++) {
    const x = v[i]
    data[i] = kind === 'int' ? (x as number) : x === undefined || x === null ? 0 : x ? 2 : 1
  }
  return { kind, data, dict: [] }
}

function encodeStrings(kind: ColumnKind, v: readonly unknown[]): Encoded {
  const data = new Int32Array(v.length)
  const dict: string[] = []
  // Keyed by the value, and for JSON objects also by identity (the rows of a point share one env object).
  const codes = new Map<unknown, number>()
  let last: unknown
  let lastCode = 0
  for (let i = 0; i < v.length; i++) {
    const x = v[i]
    if (x === undefined || x === null) {
      data[i] = 0
      continue
    }
    if (x !== last) {
      let code = codes.get(x)
      if (code === undefined) {
        const text = kind === 'json' ? JSON.stringify(x) : (x as string)
        code = codes.get(text)
        if (code === undefined) {
          dict.push(text)
          code = dict.length
          codes.set(text, code)
        }
        codes.set(x, code)
      }
      last = x
      lastCode = code
    }
    data[i] = lastCode
  }
  return { kind, data, dict }
}

/** Encodes `rows` column by column, in COLUMNS order. */
export function encode(rows: readonly Row[]): Encoded[] {
  return extract(rows).map((v, j) => {
    const kind = (COLUMNS[j] as Column).kind
    return kind === 'num'
      ? encodeNumbers(kind, v)
      : kind === 'int' || kind === 'bool'
        ? encodeSmall(kind, v)
        : encodeStrings(kind, v)
  })
}
