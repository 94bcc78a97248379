/**
 * What `compare` keeps of a set's time rows: for each bench, size and value of the compared
 * axis, the values of each launch and group, in the order the rows came. One pass over the
 * rows (after one to find the benches with out-of-place rows), keeping numbers and the few
 * strings that name launches and groups, never a row object: rows replayed from a SampleSet
 * (one shared object per group of conditions) and rows in memory give the same index.
 */
import type { Row } from '../../model/index.ts'
import { rowMemo } from '../../model/index.ts'

/** The time values of one bench, size and axis value. */
export interface Cell {
  /** Launch → group (`whoOf`) → values, each map in order of first appearance. */
  launches: Map<string, Map<string, number[]>>
  /** The groups in order of first appearance over the rows (not launch by launch). */
  groups: string[]
  /** The rank counts of its rows. */
  ranks: Set<number | null>
}

/** bench → size → axis value → cell, each map in order of first appearance. */
export type CompareIndex = Map<string, Map<number, Map<string, Cell>>>

/** A time row with a message size: what compare compares. */
export const isTime = (r: Row): boolean =>
  r.unit === 's' &&
  (r.metric === 'time' || r.metric === 'latency') &&
  !(r.timer === 'cpu' && r.bench.startsWith('p2p.')) &&
  r.sizeBytes !== null

/** The GPU group, pair or rank count a row ran on. */
export const whoOf = (r: Row): string =>
  r.group ?? (r.src !== null ? `${r.src}→${r.dst ?? '?'}` : r.ranks !== null ? `ranks=${r.ranks}` : '-')

/**
 * The launch a row came from: its sweep point (which names the trial), or for imported rows
 * (no point) the file it was read from, with its trial number.
 */
export const trialOf = (r: Row): string => `${r.point ?? r.source.file}|${r.trial}`

const getOr = <K, V>(m: Map<K, V>, k: K, make: () => V): V => {
  let v = m.get(k)
  if (v === undefined) m.set(k, (v = make()))
  return v
}

/**
 * Indexes the time rows of `rows` by bench, requested size (all_gather's 8 B and 16 B
 * requests both print 0 B) and `axis(row)`; rows without an axis value are left out, and
 * in-place rows where the bench has out-of-place ones. `any` says whether any time row was seen.
 */
export function indexTimes(
  rows: Iterable<Row>,
  axis: (r: Row) => string | undefined,
): { index: CompareIndex; any: boolean } {
  const oop = new Set<string>()
  for (const r of rows) if (r.placement === 'out-of-place') oop.add(r.bench)
  const index: CompareIndex = new Map()
  let any = false
  // Where a row's value goes, once per group of conditions (the value is never read here).
  const target = rowMemo((r): number[] | undefined => {
    if (!isTime(r)) return undefined
    any = true
    const g = axis(r)
    if ((r.placement === 'in-place' && oop.has(r.bench)) || g === undefined) return undefined
    const bench = getOr(index, r.bench, () => new Map<number, Map<string, Cell>>())
    const size = getOr(bench, r.requestedBytes ?? (r.sizeBytes as number), () => new Map<string, Cell>())
    return slot(getOr(size, g, newCell), r)
  })
  for (const r of rows) target(r)?.push(r.value)
  return { index, any }
}

const newCell = (): Cell => ({ launches: new Map(), groups: [], ranks: new Set<number | null>() })

/** The list of `cell` that takes the values of rows with `r`'s launch and group (made on first use). */
function slot(cell: Cell, r: Row): number[] {
  cell.ranks.add(r.ranks)
  const who = whoOf(r)
  const launch = getOr(cell.launches, trialOf(r), () => new Map<string, number[]>())
  return getOr(launch, who, () => {
    if (!cell.groups.includes(who)) cell.groups.push(who)
    return []
  })
}

/** All of `rows` as one cell, whatever their bench, metric or size. */
export function cellOf(rows: Iterable<Row>): Cell {
  const cell = newCell()
  for (const r of rows) slot(cell, r).push(r.value)
  return cell
}
