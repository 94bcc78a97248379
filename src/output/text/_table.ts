import type { Row } from '../../model/index.ts'
import { rowMemo } from '../../model/index.ts'
import { medianOf, sortSample } from '../../stats/index.ts'
import { renderTable } from '../../text/index.ts'
import { formatBytes, formatValue } from '../../units/index.ts'

/** One line of the `show` table: the median of every row sharing a key. */
export interface ShowLine {
  bench: string
  metric: string
  who: string
  size: string
  placement: string
  n: number
  median: string
}

/** "0→1", "8 ranks", "group 0-3" or "-" for a row. */
export function who(r: Row): string {
  if (r.src !== null && r.dst !== null) return `${r.src}→${r.dst}`
  if (r.group) return `group ${r.group}`
  if (r.ranks !== null) return `${r.ranks} ranks`
  if (r.src !== null) return `GPU${r.src}`
  return '-'
}

/**
 * Groups rows by bench, metric, pair/ranks, size and placement; one median per group. Reads
 * rows once, keeping their values and one row per group, so rows replayed from a SampleSet
 * (one shared object per group of conditions) work as well as rows in memory.
 */
export function showLines(rows: Iterable<Row>): ShowLine[] {
  const groups = new Map<string, { row: Row; values: number[] }>()
  const keyOf = rowMemo((r) =>
    [
      r.bench,
      r.metric,
      who(r),
      r.p2p ?? '',
      r.copy ?? '',
      r.timer ?? '',
      r.direction ?? '',
      r.host ?? '',
      r.requestedBytes ?? r.sizeBytes ?? '',
      r.placement ?? '',
      r.dtype ?? '',
      r.redop ?? '',
      r.grouping ?? '',
      JSON.stringify(r.env ?? {}),
    ].join('\u0000'),
  )
  for (const r of rows) {
    const key = keyOf(r)
    const g = groups.get(key)
    if (g) g.values.push(r.value)
    else groups.set(key, { row: { ...r }, values: [r.value] }) // a copy: a replayed row object is shared
  }
  return [...groups.values()].map(({ row, values }) => ({
    bench:
      row.bench +
      (row.p2p ? ` p2p=${row.p2p}` : '') +
      (row.copy ? ` ${row.copy}` : '') +
      (row.direction ? ` ${row.direction}` : '') +
      (row.timer === 'cpu' && row.bench.startsWith('p2p.') ? ' cpu-timed' : ''),
    metric: row.metric,
    who: who(row) + (row.grouping ? ` ${row.grouping}` : '') + (row.host ? ` @${row.host}` : ''),
    size:
      row.sizeBytes === null
        ? '-'
        : row.requestedBytes === undefined
          ? formatBytes(row.sizeBytes)
          : `${formatBytes(row.requestedBytes)} (prints ${formatBytes(row.sizeBytes)})`,
    placement: row.placement ?? '-',
    n: values.length,
    median: formatValue(medianOf(sortSample(values)), row.unit),
  }))
}

/** The `show` table as text. */
export function showTable(rows: Iterable<Row>): string {
  const lines = showLines(rows).map((l) => [l.bench, l.metric, l.who, l.size, l.placement, String(l.n), l.median])
  return renderTable(['bench', 'metric', 'pair/ranks', 'size', 'placement', 'n', 'median'], lines)
}
