/**
 * Projected tables as lines of text cells: one table per bench and metric, the row fields
 * as label columns, then A, B, delta and p (or one "A → B delta" column per `--col` value),
 * values in human units; the common fields go in the table's heading.
 */
import { formatValue } from '../units/index.ts'
import { changeText } from './_observed.ts'
import type { ProjectedTable } from './_project.ts'
import type { DiffCell } from './_types.ts'

/** "24.5 µs ±2%", or "< 10 MB/s" for a median of zero that is below the printed resolution. */
export function sideText(
  c: DiffCell,
  side: 'a' | 'b',
  medianPm: (s: DiffCell['a'], u: DiffCell['unit']) => string,
): string {
  const s = c[side]
  if (s.median === 0 && c.resolution > 0) return `< ${formatValue(c.resolution, c.unit)}`
  return medianPm(s, c.unit)
}

/** What a one-launch side prints after its median in the A/B columns. */
export const ONE_LAUNCH = ' (one launch: no interval)'

/** In `--col` tables a one-launch side is marked †, and the table's footnote says it once. */
export const ONE_LAUNCH_NOTE = '† one launch: no interval'

const marked = (side: string): { text: string; one: boolean } =>
  side.endsWith(ONE_LAUNCH) ? { text: `${side.slice(0, -ONE_LAUNCH.length)} †`, one: true } : { text: side, one: false }

/** How one table cell prints: delta and p columns are chosen by the caller. */
export interface CellText {
  side(c: DiffCell, side: 'a' | 'b'): string
  delta(c: DiffCell): string
  p(c: DiffCell): string
  pct(fraction: number): string
}

/** "p2p.latency latency (copy=ce timer=gpu)". */
export const heading = (t: ProjectedTable): string =>
  `${t.bench} ${t.metric}${t.common.length ? ` (${t.common.join(' ')})` : ''}`

/**
 * The header and lines of one projected table, and its footnote: with `--col`, a one-launch
 * side says so once under the table (†), not in every cell.
 */
export function tableLines(
  t: ProjectedTable,
  fmt: CellText,
): { header: string[]; lines: string[][]; footnote: string | null } {
  let one = false
  const colSide = (c: DiffCell, side: 'a' | 'b'): string => {
    const m = marked(fmt.side(c, side))
    one ||= m.one
    return m.text
  }
  const changes = (cells: readonly (DiffCell | undefined)[]): string =>
    [...new Set(cells.map((c) => (c?.changed?.length ? changeText(c.changed) : '')).filter(Boolean))].join('; ')
  const anyChange = t.rows.some((r) => changes(r.cells) !== '')
  const label = t.rowFields.length ? t.rowFields : ['cell']
  const header = t.cols.length ? [...label, ...t.cols] : [...label, 'A', 'B', 'delta', 'p']
  if (anyChange) header.push('changed')
  const lines = t.rows.map((r) => {
    const l = t.rowFields.length ? [...r.label] : ['-']
    if (t.cols.length)
      l.push(...r.cells.map((c) => (c ? `${colSide(c, 'a')} → ${colSide(c, 'b')} ${fmt.delta(c)}` : '')))
    else {
      const c = r.cells[0] as DiffCell
      l.push(fmt.side(c, 'a'), fmt.side(c, 'b'), fmt.delta(c), fmt.p(c))
    }
    if (anyChange) l.push(changes(r.cells))
    return l
  })
  const g = t.geomean
  if (g && !t.cols.length) {
    const pad = label.slice(1).map(() => '')
    lines.push([
      'geomean',
      ...pad,
      formatValue(g.a, t.unit),
      formatValue(g.b, t.unit),
      fmt.pct(g.delta),
      `${g.cells} cells`,
    ])
  }
  return { header, lines, footnote: one ? ONE_LAUNCH_NOTE : null }
}
