/**
 * How the cells of one diff came out, counted once: the CLI's answer, the report's summary and
 * the diff chart all print these numbers, so one comparison gives one count everywhere.
 */
import type { DiffCell } from './_types.ts'

/** The cells of a diff by outcome. better + worse + same + untestable = tested. */
export interface DiffCounts {
  /** Cells found in both sets. */
  cells: number
  /** Of those, cells of a tested metric. */
  tested: number
  /** Significant and better in B (faster, or more bandwidth). */
  better: number
  /** Significant and worse in B. */
  worse: number
  /** Tested and reachable, without a significant change. */
  same: number
  /** Tested, but with too few trials for p ≤ alpha to be reachable. */
  untestable: number
  /** Cells found in one set only. */
  onlyA: number
  onlyB: number
}

/** The outcome of one tested cell (`undefined` for a cell that is shown, not tested). */
export function outcomeOf(c: DiffCell): 'better' | 'worse' | 'same' | 'untestable' | undefined {
  if (!c.tested) return undefined
  if (c.significant) return c.worse > 0 ? 'worse' : 'better'
  return c.reachable ? 'same' : 'untestable'
}

/** Counts the cells of a diff by outcome (the one count every view of a diff prints). */
export function diffCounts(r: {
  cells: readonly DiffCell[]
  onlyA: readonly unknown[]
  onlyB: readonly unknown[]
}): DiffCounts {
  const n: DiffCounts = {
    cells: r.cells.length,
    tested: 0,
    better: 0,
    worse: 0,
    same: 0,
    untestable: 0,
    onlyA: r.onlyA.length,
    onlyB: r.onlyB.length,
  }
  for (const c of r.cells) {
    const o = outcomeOf(c)
    if (o === undefined) continue
    n.tested++
    n[o]++
  }
  return n
}

const count = (n: number): string => n.toLocaleString('en-US')

/**
 * The counts in one sentence: "Of 5,190 tested cells 2,480 are better in B, 1,136 worse,
 * 1,574 without a significant change."
 */
export function countsText(n: DiffCounts, alpha: number): string {
  return (
    `Of ${count(n.tested)} tested cells ${count(n.better)} are better in B, ${count(n.worse)} worse, ` +
    `${count(n.same)} without a significant change` +
    (n.untestable ? `, ${count(n.untestable)} with too few trials to test (p ≤ ${alpha} is out of reach).` : '.')
  )
}

/**
 * What the cells of one group say together: every cell significant one way ('better' or 'worse'),
 * none significant ('same'; cells too few to test count here), or 'mixed'; with how many of the
 * `n` cells are significant. The diff chart colours a bar by it and the grouped answer names it,
 * so a group is never "no significant change" in one place and "worse" in another.
 */
export interface GroupVerdict {
  kind: 'better' | 'worse' | 'same' | 'mixed'
  significant: number
  n: number
}

/** The verdict of a group of cells (see GroupVerdict). */
export function groupVerdict(cells: readonly DiffCell[]): GroupVerdict {
  const n = diffCounts({ cells, onlyA: [], onlyB: [] })
  const significant = n.better + n.worse
  const kind =
    significant === 0 ? 'same' : n.better === cells.length ? 'better' : n.worse === cells.length ? 'worse' : 'mixed'
  return { kind, significant, n: cells.length }
}
