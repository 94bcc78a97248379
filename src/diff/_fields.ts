/**
 * The fields of a cell that `diff --filter`, `--row`, `--col` and `--ignore` name: the
 * requested configuration of a row (bench, metric, pair, size, …), each with how it prints
 * and, for numbers, how a filter bound is read ("1KiB", "64K", "8").
 */
import type { CellConfig } from '../cells/index.ts'
import type { Row } from '../model/index.ts'
import { formatBytes, parseSize } from '../units/index.ts'

/** A row or a cell config: both carry the same condition fields. */
export type Conditions = CellConfig | Row

/** One field a projection can name. */
export interface Field {
  name: string
  /** The field's value, undefined when the row does not carry it. */
  get(c: Conditions): string | number | undefined
  /** How a value prints in a table. */
  show(v: string | number): string
  /** For numeric fields: reads a filter bound, undefined when malformed. */
  parse?(text: string): number | undefined
  /** Forgets the field on a row (`--ignore`), pooling rows that differ only in it. */
  clear(r: Row): void
}

const num = (t: string): number | undefined => (/^-?\d+(\.\d+)?$/.test(t.trim()) ? Number(t) : undefined)
const opt = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v)
const str = (v: string | number): string => String(v)

/** The group `--ignore pair` gives self-copies (src = dst), so they pool apart from cross-GPU pairs. */
export const SAME_GPU = 'same GPU'

/** Row fields that are always present and null when not reported; the others are left out. */
const NULLABLE = new Set<string>(['src', 'dst', 'ranks', 'placement', 'p2p', 'timer'])

/** A plain optional field of the same name on rows and configs. */
function plain(name: keyof CellConfig & keyof Row, numeric = false): Field {
  return {
    name,
    get: (c) => opt(c[name] as string | number | null | undefined),
    show: str,
    ...(numeric ? { parse: num } : {}),
    clear: (r) => {
      const rec = r as unknown as Record<string, unknown>
      if (NULLABLE.has(name)) rec[name] = null
      else delete rec[name]
    },
  }
}

/** Fields in the order a table shows them. */
export const FIELDS: readonly Field[] = [
  { name: 'bench', get: (c) => c.bench, show: str, clear: () => {} },
  { name: 'metric', get: (c) => c.metric, show: str, clear: () => {} },
  {
    name: 'pair',
    get: (c) => (c.src !== null && c.dst !== null ? `${c.src}→${c.dst}` : opt(c.src ?? c.dst)),
    show: str,
    // A copy from a GPU to itself measures that GPU's memory, not a link: pooled with other
    // self-copies only (group "same GPU"), never with cross-GPU pairs.
    clear: (r) => {
      if (r.src !== null && r.src === r.dst) r.group = r.group === undefined ? SAME_GPU : `${r.group} ${SAME_GPU}`
      r.src = null
      r.dst = null
    },
  },
  plain('src', true),
  plain('dst', true),
  plain('group'),
  plain('ranks', true),
  plain('grouping'),
  {
    name: 'size',
    get: (c) => opt(c.requestedBytes ?? c.sizeBytes),
    show: (v) => formatBytes(Number(v)),
    parse: parseSize,
    clear: (r) => {
      r.sizeBytes = null
      delete r.requestedBytes
    },
  },
  plain('placement'),
  plain('p2p'),
  plain('copy'),
  plain('staging'),
  plain('direction'),
  plain('timer'),
  plain('dtype'),
  plain('redop'),
  plain('root', true),
]

/** `env.NAME` and `host.NAME`: one requested environment variable or host knob. */
function mapField(name: string): Field | undefined {
  const m = /^(env|host)\.(.+)$/.exec(name)
  if (!m) return undefined
  const key = m[2] as string
  const pick = (c: Conditions): Record<string, string> | undefined => (m[1] === 'env' ? c.env : c.hostAxis)
  return {
    name,
    get: (c) => pick(c)?.[key],
    show: str,
    clear: (r) => {
      const rec = pick(r)
      if (!rec || !(key in rec)) return
      const { [key]: _, ...rest } = rec
      if (m[1] === 'env') r.env = rest
      else r.hostAxis = rest
    },
  }
}

/** The field called `name` (src and dst also answer to the pair's `src`/`dst`), or undefined. */
export function fieldOf(name: string): Field | undefined {
  return FIELDS.find((f) => f.name === name) ?? mapField(name)
}

/** The names `--filter`, `--row`, `--col` and `--ignore` accept, for error messages. */
export const FIELD_NAMES = `${FIELDS.map((f) => f.name).join(', ')}, env.NAME, host.NAME`

/** The `env.NAME` and `host.NAME` fields that some of `configs` carry, sorted. */
export function mapFields(configs: readonly Conditions[]): Field[] {
  const names = new Set<string>()
  for (const c of configs) {
    for (const k of Object.keys(c.env ?? {})) names.add(`env.${k}`)
    for (const k of Object.keys(c.hostAxis ?? {})) names.add(`host.${k}`)
  }
  return [...names].sort().map((n) => mapField(n) as Field)
}
