/**
 * Projections of a diff, benchstat-style: `--filter` keeps the rows a query selects
 * (`bench:p2p.latency size:<=1KiB`), `--ignore KEY` pools cells that differ only in KEY,
 * and the cells found in both sets are laid out as one table per bench and metric whose rows
 * (`--row`) and columns (`--col`) are the fields the user names; fields equal across a table
 * are said once above it.
 */
import { badInput } from '../errors/index.ts'
import type { Row } from '../model/index.ts'
import type { ReadSet } from '../resultset/index.ts'
import { rowCount } from '../resultset/index.ts'
import { geomean } from '../stats/index.ts'
import type { Conditions, Field } from './_fields.ts'
import { FIELD_NAMES, FIELDS, fieldOf, mapFields } from './_fields.ts'
import type { DiffCell, DiffResult } from './_types.ts'

/** One term of a filter: a field compared with a value (or one of several). */
interface Term {
  field: Field
  negate: boolean
  op: '=' | '<' | '<=' | '>' | '>='
  /** Equality: any of these (strings, `*` matches any run of characters); comparisons: one bound. */
  values: (string | number)[]
}

/** A parsed `--filter`: every term must hold. */
export interface Filter {
  text: string
  terms: Term[]
}

/** The field named `name`, or a bad-input error naming the known ones. */
function knownField(flag: string, name: string): Field {
  const f = fieldOf(name)
  if (!f) throw badInput(`diff: ${flag} ${name}: unknown key (known: ${FIELD_NAMES})`)
  return f
}

const glob = (pattern: string): RegExp =>
  new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`)

function parseTerm(word: string): Term {
  const m = /^(-?)([\w.]+):(<=|>=|<|>)?(.+)$/.exec(word)
  if (!m) throw badInput(`diff: --filter ${word}: expected KEY:VALUE, KEY:<=VALUE, … (e.g. size:<=1KiB)`)
  const field = knownField('--filter', m[2] as string)
  const op = (m[3] ?? '=') as Term['op']
  const raw = op === '=' ? (m[4] as string).split(',') : [m[4] as string]
  const values = raw.map((v) => {
    if (!field.parse) {
      if (op !== '=') throw badInput(`diff: --filter ${word}: ${field.name} is not a number, so it takes no ${op}`)
      return field.name === 'pair' ? v.replace(/->|-|>/, '→') : v
    }
    const n = field.parse(v)
    if (n === undefined)
      throw badInput(
        `diff: --filter ${word}: ${v} is not a ${field.name === 'size' ? 'size (8, 64K, 1KiB, 1MiB)' : 'number'}`,
      )
    return n
  })
  return { field, negate: m[1] === '-', op, values }
}

/** Parses `--filter` text (terms separated by spaces, all must hold); throws bad input naming the term. */
export function parseFilter(text: string): Filter {
  const words = text.trim().split(/\s+/).filter(Boolean)
  if (words.length === 0) throw badInput('diff: --filter is empty (e.g. --filter "bench:p2p.latency size:<=1KiB")')
  return { text, terms: words.map(parseTerm) }
}

function holds(t: Term, c: Conditions): boolean {
  const v = t.field.get(c)
  let ok: boolean
  if (v === undefined) ok = false
  else if (t.op === '=') ok = t.values.some((w) => (typeof w === 'number' ? v === w : glob(w).test(String(v))))
  else {
    const b = t.values[0] as number
    const x = Number(v)
    ok = t.op === '<' ? x < b : t.op === '<=' ? x <= b : t.op === '>' ? x > b : x >= b
  }
  return ok !== t.negate
}

/** Whether a row or cell config passes the filter. */
export const matches = (f: Filter, c: Conditions): boolean => f.terms.every((t) => holds(t, c))

/** Reads `--row`/`--col`/`--ignore` lists ("pair,size" or several flags) into fields. */
export function parseFields(flag: string, lists: readonly string[]): Field[] {
  const names = lists.flatMap((l) => l.split(',')).map((n) => n.trim())
  return names.filter(Boolean).map((n) => knownField(flag, n))
}

/** What to keep and pool before comparing. */
export interface SetProjection {
  filter?: Filter
  ignore?: readonly Field[]
}

/**
 * The set with only the rows the filter keeps and the ignored fields forgotten: the rows
 * are filtered (and copied, to forget fields) as each pass reads them, the set untouched.
 */
export function projectSet(set: ReadSet, p: SetProjection): ReadSet {
  const { filter, ignore = [] } = p
  if (!filter && ignore.length === 0) return set
  const rows: Iterable<Row> = {
    *[Symbol.iterator]() {
      for (const r of set.rows) {
        if (filter && !matches(filter, r)) continue
        if (ignore.length === 0) yield r
        else {
          const copy: Row = { ...r }
          for (const f of ignore) f.clear(copy)
          yield copy
        }
      }
    },
  }
  const projected = { dir: set.dir, manifest: set.manifest, diagnostics: set.diagnostics, rows }
  return { ...projected, count: rowCount(projected) }
}

/** One row of a projected table: its label values and its cell per column (one column without --col). */
export interface ProjectedRow {
  label: string[]
  cells: (DiffCell | undefined)[]
}

/** One table: a bench and metric, the fields common to its cells, its row fields and columns. */
export interface ProjectedTable {
  bench: string
  metric: string
  unit: DiffCell['unit']
  /** `name=value` of fields equal in every cell, said once. */
  common: string[]
  /** Names of the row fields (the label columns). */
  rowFields: string[]
  /** Column headers when `--col` is given (`size=8 B`); empty without. */
  cols: string[]
  rows: ProjectedRow[]
  /** The geometric mean of A's and B's medians over the table's cells, when every median is positive. */
  geomean?: { a: number; b: number; delta: number; cells: number }
}

/** How rows and columns are formed. */
export interface TableProjection {
  row?: readonly Field[]
  col?: readonly Field[]
}

const METRIC_ORDER = ['time', 'latency', 'bandwidth', 'busbw', 'algbw']
const metricRank = (m: string): number => (METRIC_ORDER.includes(m) ? METRIC_ORDER.indexOf(m) : METRIC_ORDER.length)

/** Fields that may form rows, columns or the common line (all but bench, metric, and src/dst beside pair). */
function layoutFields(cells: readonly DiffCell[]): Field[] {
  const skip = new Set(['bench', 'metric', 'src', 'dst'])
  return [...FIELDS.filter((f) => !skip.has(f.name)), ...mapFields(cells.map((c) => c.config))]
}

const show = (f: Field, c: DiffCell): string => {
  const v = f.get(c.config)
  return v === undefined ? '–' : f.show(v)
}

function tableOf(cells: DiffCell[], p: TableProjection): ProjectedTable {
  const first = cells[0] as DiffCell
  const col = p.col ?? []
  const named = new Set([...(p.row ?? []), ...col].map((f) => f.name))
  const common: string[] = []
  const varying: Field[] = []
  for (const f of layoutFields(cells)) {
    const seen = new Set(cells.map((c) => show(f, c)))
    if (named.has(f.name)) continue
    if (seen.size > 1) varying.push(f)
    else if (!seen.has('–')) common.push(`${f.name}=${show(f, first)}`)
  }
  const rowFields = [...(p.row ?? []), ...varying]
  const colKey = (c: DiffCell): string => col.map((f) => `${f.name}=${show(f, c)}`).join(' ')
  const cols = col.length ? [...new Set(sortForCol(cells, col).map(colKey))] : []
  const rows = new Map<string, ProjectedRow>()
  for (const c of cells) {
    const label = rowFields.map((f) => show(f, c))
    const k = label.join('\u0000')
    let r = rows.get(k)
    if (!r) rows.set(k, (r = { label, cells: cols.length ? cols.map(() => undefined) : [undefined] }))
    r.cells[cols.length ? cols.indexOf(colKey(c)) : 0] = c
  }
  const t: ProjectedTable = {
    bench: first.bench,
    metric: first.metric,
    unit: first.unit,
    common,
    rowFields: rowFields.map((f) => f.name),
    cols,
    rows: [...rows.values()],
  }
  const a = geomean(cells.map((c) => c.a.median))
  const b = geomean(cells.map((c) => c.b.median))
  if (cells.length > 1 && Number.isFinite(a) && Number.isFinite(b) && a > 0)
    t.geomean = { a, b, delta: b / a - 1, cells: cells.length }
  return t
}

/** Cells in column order: numeric fields ascending, others as they come. */
function sortForCol(cells: readonly DiffCell[], col: readonly Field[]): DiffCell[] {
  return [...cells].sort((x, y) => {
    for (const f of col) {
      const a = f.get(x.config)
      const b = f.get(y.config)
      if (typeof a === 'number' && typeof b === 'number' && a !== b) return a - b
    }
    return 0
  })
}

/** The diff's cells as tables, one per bench and metric (primary metrics first). */
export function projectTables(r: DiffResult, p: TableProjection = {}): ProjectedTable[] {
  const by = new Map<string, DiffCell[]>()
  for (const c of r.cells) {
    const k = `${c.bench}\u0000${c.metric}`
    const list = by.get(k)
    if (list) list.push(c)
    else by.set(k, [c])
  }
  return [...by.values()]
    .sort((x, y) => {
      const a = x[0] as DiffCell
      const b = y[0] as DiffCell
      return a.bench < b.bench ? -1 : a.bench > b.bench ? 1 : metricRank(a.metric) - metricRank(b.metric)
    })
    .map((cells) => tableOf(cells, p))
}
