/**
 * Grouping rows into cells and summarizing each (benchproc's projection + benchmath's
 * summary). One pass over the rows; values are kept per cell as one sample.
 */
import type { IndexedRows, Row } from '../model/index.ts'
import { isIndexed, rowMemo } from '../model/index.ts'
import type { Summary } from '../stats/index.ts'
import { DEFAULT_THRESHOLDS, summarize, withinBetweenIndexed } from '../stats/index.ts'
import type { CellConfig, ObservedField } from './_key.ts'
import { cellConfig, keyOf, keySize, OBSERVED, requestedConfig } from './_key.ts'

/** Variance of a cell within a launch versus between launches (see stats `withinBetween`). */
export interface CellVariance {
  within: number
  between: number
  launches: number
}

/** One cell: its key and conditions, its values (input order) and their statistics. */
export interface Cell {
  key: string
  config: CellConfig
  values: Float64Array
  summary: Summary
  /**
   * Within/between-launch variance; a launch is one trial of one source file
   * (`source.file` + `trial`). null when the cell has a single value.
   */
  variance: CellVariance | null
}

/** Options of `cells`. */
export interface CellsOptions {
  /** Confidence level of every median CI (default 0.95). */
  level?: number
}

/** Rows of one cell before summarizing: values and the launch index of each. */
export interface RowGroup {
  config: CellConfig
  values: number[]
  launch: number[]
  /** Grouped by requested configuration: the values each OBSERVED condition took in the cell. */
  observed?: Partial<Record<ObservedField, Set<string>>>
}

/**
 * Groups rows by `cellKey` without summarizing; map order is first appearance. With
 * `requested`, by the requested configuration (`requestedKey`), noting what each OBSERVED
 * condition was.
 */
export function groupRows(rows: Iterable<Row>, opts: { requested?: boolean } = {}): Map<string, RowGroup> {
  const requested = opts.requested === true
  if (isIndexed(rows)) return groupArrays(rows, requested)
  const groups = new Map<string, RowGroup>()
  const launchOf = launchNumbers()
  // The rows of one group of a SampleSet are one object, its value changed: key it once.
  const keyOfRow = rowMemo((r) => keyOf(r, !requested))
  for (const r of rows) {
    const li = launchOf(r.source.file, r.trial)
    const key = keyOfRow(r)
    let g = groups.get(key)
    if (g) {
      g.values.push(r.value)
      g.launch.push(li)
    } else
      groups.set(key, (g = { config: requested ? requestedConfig(r) : cellConfig(r), values: [r.value], launch: [li] }))
    if (requested) noteObserved(g, r)
  }
  return groups
}

/**
 * Launch numbers in order of first appearance, one per source file and trial; the last
 * file's trials are cached (rows come in file order).
 */
function launchNumbers(): (file: string, trial: number) => number {
  const files = new Map<string, Map<number, number>>()
  let lastFile: string | undefined
  let trials = new Map<number, number>()
  let next = 0
  return (file, trial) => {
    if (file !== lastFile) {
      lastFile = file
      const t = files.get(file)
      if (t) trials = t
      else files.set(file, (trials = new Map()))
    }
    let li = trials.get(trial)
    if (li === undefined) trials.set(trial, (li = next++))
    return li
  }
}

/** What `planIndexed` finds: the groups (in order, each with its number of rows) and where each group of rows goes. */
interface Plan {
  /** Each group's values and launch numbers are placeholders until filled (keys in RowGroup's order). */
  groups: Map<string, Planned>
  list: Planned[]
  size: number[]
  /** Per group of equal conditions: its cell's number in `list`, and its launch number. */
  cellOf: Int32Array
  launchOf: Int32Array
}

type Planned = Pick<RowGroup, 'config' | 'observed'> & { values: unknown; launch: unknown }

/**
 * `groupRows` over IndexedRows, without the values: the same groups in the same order, from
 * the arrays. Groups of equal conditions are taken in the order of their first row, as the
 * row loop meets them (launch and cell depend on the conditions only), and counted, so each
 * cell's arrays can be allocated once at their size, then filled in row order.
 */
function planIndexed(ix: IndexedRows, requested: boolean): Plan {
  const groups: Plan['groups'] = new Map()
  const launchNumber = launchNumbers()
  const { reps, group, n } = ix
  const count = new Int32Array(reps.length)
  const order: number[] = []
  for (let i = 0; i < n; i++) if ((count[group[i] as number] as number)++ === 0) order.push(group[i] as number)
  const cellOf = new Int32Array(reps.length)
  const launchOf = new Int32Array(reps.length)
  const list: Plan['list'] = []
  const size: number[] = []
  const numbers = new Map<Planned, number>()
  for (const gi of order) {
    const r = reps[gi] as Row
    launchOf[gi] = launchNumber(r.source.file, r.trial)
    const key = keyOf(r, !requested)
    let g = groups.get(key)
    if (!g)
      groups.set(key, (g = { config: requested ? requestedConfig(r) : cellConfig(r), values: null, launch: null }))
    if (requested) noteObserved(g, r)
    let c = numbers.get(g)
    if (c === undefined) {
      numbers.set(g, (c = list.length))
      list.push(g)
      size.push(0)
    }
    cellOf[gi] = c
    size[c] = (size[c] as number) + (count[gi] as number)
  }
  return { groups, list, size, cellOf, launchOf }
}

/**
 * The groups of IndexedRows with their values and launch numbers in typed arrays: one buffer
 * each, cell after cell (a thousand separate typed arrays cost more to allocate than to
 * fill), each cell with views of it. For `cells`: no work for the collector.
 */
function groupIndexed(ix: IndexedRows, requested: boolean): Map<string, TypedGroup> {
  const { groups, list, size, cellOf, launchOf } = planIndexed(ix, requested)
  const { group, value, n } = ix
  const allValues = new Float64Array(n)
  const allLaunch = new Int32Array(n)
  // next[c]: where cell c's next value goes.
  const next = new Int32Array(list.length)
  for (let c = 1; c < list.length; c++) next[c] = (next[c - 1] as number) + (size[c - 1] as number)
  const start = next.slice()
  for (let i = 0; i < n; i++) {
    const gi = group[i] as number
    const at = (next[cellOf[gi] as number] as number)++
    allValues[at] = value[i] as number
    allLaunch[at] = launchOf[gi] as number
  }
  list.forEach((g, c) => {
    const from = start[c] as number
    g.values = allValues.subarray(from, from + (size[c] as number))
    g.launch = allLaunch.subarray(from, from + (size[c] as number))
  })
  return groups as unknown as Map<string, TypedGroup>
}

/**
 * The groups of IndexedRows as RowGroups (`groupRows`, for diff): plain arrays, each
 * allocated at its size and filled in row order, with no typed copy beside them (memory is
 * what a 10 M-row diff is held to).
 */
function groupArrays(ix: IndexedRows, requested: boolean): Map<string, RowGroup> {
  const { groups, list, size, cellOf, launchOf } = planIndexed(ix, requested)
  const { group, value, n } = ix
  const values = size.map((k) => new Array<number>(k))
  const launch = size.map((k) => new Array<number>(k))
  const fill = new Int32Array(list.length)
  for (let i = 0; i < n; i++) {
    const gi = group[i] as number
    const c = cellOf[gi] as number
    const at = (fill[c] as number)++
    ;(values[c] as number[])[at] = value[i] as number
    ;(launch[c] as number[])[at] = launchOf[gi] as number
  }
  list.forEach((g, c) => {
    g.values = values[c]
    g.launch = launch[c]
  })
  return groups as unknown as Map<string, RowGroup>
}

/** A RowGroup whose values and launch numbers are typed arrays (no garbage for the collector). */
interface TypedGroup extends Omit<RowGroup, 'values' | 'launch'> {
  values: Float64Array
  launch: Int32Array
}

function noteObserved(g: Pick<RowGroup, 'observed'>, r: Row): void {
  for (const f of OBSERVED) {
    const v = r[f]
    if (v === undefined) continue
    g.observed ??= {}
    const seen = g.observed[f] ?? new Set<string>()
    g.observed[f] = seen.add(String(v))
  }
}

function variance(acc: Pick<TypedGroup, 'values'> & { launch: ArrayLike<number> }): CellVariance | null {
  if (acc.values.length < 2) return null
  return withinBetweenIndexed(acc.values, acc.launch)
}

const cmpNull = (a: number | null | undefined, b: number | null | undefined): number => (a ?? -1) - (b ?? -1)
const cmpStr = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** Stable, readable cell order: bench, metric, src, dst, group, ranks, size, then key. */
export function compareCells(a: { key: string; config: CellConfig }, b: { key: string; config: CellConfig }): number {
  const x = a.config
  const y = b.config
  return (
    cmpStr(x.bench, y.bench) ||
    cmpStr(x.metric, y.metric) ||
    cmpNull(x.src, y.src) ||
    cmpNull(x.dst, y.dst) ||
    cmpStr(x.group ?? '', y.group ?? '') ||
    cmpNull(x.ranks, y.ranks) ||
    cmpNull(keySize(x), keySize(y)) ||
    cmpStr(a.key, b.key)
  )
}

/** Groups rows into cells and summarizes each; cells come back in `compareCells` order. */
export function cells(rows: Iterable<Row>, opts: CellsOptions = {}): Cell[] {
  const level = opts.level ?? DEFAULT_THRESHOLDS.ciLevel
  const out: Cell[] = []
  const groups = isIndexed(rows)
    ? groupIndexed(rows, false)
    : new Map([...groupRows(rows)].map(([key, g]) => [key, { ...g, values: Float64Array.from(g.values) }]))
  for (const [key, acc] of groups) {
    out.push({
      key,
      config: acc.config,
      values: acc.values,
      summary: summarize(acc.values, level),
      variance: variance(acc),
    })
  }
  return out.sort(compareCells)
}
