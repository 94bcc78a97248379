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
  values: number[]
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
  if (isIndexed(rows)) return groupIndexed(rows, requested)
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

/**
 * `groupRows` over IndexedRows: the same groups, values and launch numbers in the same order,
 * from the arrays. The first row of each group of equal conditions finds its launch and cell
 * as the row loop does (both depend on the conditions only); every row adds its value there.
 */
function groupIndexed(ix: IndexedRows, requested: boolean): Map<string, RowGroup> {
  const groups = new Map<string, RowGroup>()
  const launchNumber = launchNumbers()
  const { reps, group, value, n } = ix
  const cellOf: (RowGroup | undefined)[] = new Array(reps.length)
  const launchOf = new Int32Array(reps.length)
  for (let i = 0; i < n; i++) {
    const gi = group[i] as number
    let g = cellOf[gi]
    if (g === undefined) {
      const r = reps[gi] as Row
      launchOf[gi] = launchNumber(r.source.file, r.trial)
      const key = keyOf(r, !requested)
      g = groups.get(key)
      if (!g) groups.set(key, (g = { config: requested ? requestedConfig(r) : cellConfig(r), values: [], launch: [] }))
      if (requested) noteObserved(g, r)
      cellOf[gi] = g
    }
    g.values.push(value[i] as number)
    g.launch.push(launchOf[gi] as number)
  }
  return groups
}

function noteObserved(g: RowGroup, r: Row): void {
  for (const f of OBSERVED) {
    const v = r[f]
    if (v === undefined) continue
    g.observed ??= {}
    const seen = g.observed[f] ?? new Set<string>()
    g.observed[f] = seen.add(String(v))
  }
}

function variance(acc: RowGroup): CellVariance | null {
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
  for (const [key, acc] of groupRows(rows)) {
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
