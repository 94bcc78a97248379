/**
 * Grouping rows into cells and summarizing each (benchproc's projection + benchmath's
 * summary). One pass over the rows; values are kept per cell as one sample.
 */
import type { Row } from '../model/index.ts'
import { DEFAULT_THRESHOLDS, summarize, withinBetween } from '../stats/index.ts'
import type { Summary } from '../stats/index.ts'
import { cellConfig, keyOf } from './_key.ts'
import type { CellConfig } from './_key.ts'

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
}

/** Groups rows by `cellKey` without summarizing; map order is first appearance. */
export function groupRows(rows: Iterable<Row>): Map<string, RowGroup> {
  const groups = new Map<string, RowGroup>()
  const launchIds = new Map<string, number>()
  for (const r of rows) {
    const config = cellConfig(r)
    const key = keyOf(config)
    const lk = `${r.source.file}#${r.trial}`
    let li = launchIds.get(lk)
    if (li === undefined) launchIds.set(lk, (li = launchIds.size))
    const g = groups.get(key)
    if (g) {
      g.values.push(r.value)
      g.launch.push(li)
    } else groups.set(key, { config, values: [r.value], launch: [li] })
  }
  return groups
}

function variance(acc: RowGroup): CellVariance | null {
  if (acc.values.length < 2) return null
  return withinBetween(acc.values.map((value, i) => ({ launch: String(acc.launch[i]), value })))
}

const cmpNull = (a: number | null | undefined, b: number | null | undefined): number => (a ?? -1) - (b ?? -1)

/** Stable, readable cell order: bench, metric, src, dst, group, ranks, size, then key. */
export function compareCells(a: { key: string; config: CellConfig }, b: { key: string; config: CellConfig }): number {
  const x = a.config
  const y = b.config
  return (
    x.bench.localeCompare(y.bench) ||
    x.metric.localeCompare(y.metric) ||
    cmpNull(x.src, y.src) ||
    cmpNull(x.dst, y.dst) ||
    (x.group ?? '').localeCompare(y.group ?? '') ||
    cmpNull(x.ranks, y.ranks) ||
    cmpNull(x.sizeBytes, y.sizeBytes) ||
    (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
  )
}

/** Groups rows into cells and summarizes each; cells come back in `compareCells` order. */
export function cells(rows: Iterable<Row>, opts: CellsOptions = {}): Cell[] {
  const level = opts.level ?? DEFAULT_THRESHOLDS.ciLevel
  const out: Cell[] = []
  for (const [key, acc] of groupRows(rows)) {
    out.push({ key, config: acc.config, values: acc.values, summary: summarize(acc.values, level), variance: variance(acc) })
  }
  return out.sort(compareCells)
}
