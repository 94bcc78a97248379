import { stringify } from 'csv-stringify/sync'
import type { Metric, Row } from '../../model/index.ts'

/** CSV column per metric, in the unit people read (µs, GB/s); the row's metric fills its column. */
const METRIC_COLUMNS: Record<Metric, { name: string; scale: number }> = {
  time: { name: 'time_us', scale: 1e6 },
  latency: { name: 'latency_us', scale: 1e6 },
  algbw: { name: 'algbw_GBps', scale: 1e-9 },
  busbw: { name: 'busbw_GBps', scale: 1e-9 },
  bandwidth: { name: 'bandwidth_GBps', scale: 1e-9 },
  wrong: { name: 'wrong_count', scale: 1 },
}

const KEYS = [
  'bench',
  'metric',
  'sizeBytes',
  'ranks',
  'src',
  'dst',
  'placement',
  'p2p',
  'peerAccess',
  'copy',
  'timer',
  'dtype',
  'redop',
  'root',
  'group',
  'grouping',
  'trial',
  'iteration',
  'host',
] as const

/** The header line of `rowsToCsv` (a `simulated` column last when the set is SIMULATED). */
export function csvHeader(simulated = false): string {
  const metricCols = Object.values(METRIC_COLUMNS).map((c) => c.name)
  return stringify([[...KEYS, ...metricCols, 'source_file', 'source_line', ...(simulated ? ['simulated'] : [])]])
}

/** The records of `rowsToCsv` without its header: chunks of a set's rows written one after another. */
export function csvRecords(rows: readonly Row[], simulated = false): string {
  const metricCols = Object.values(METRIC_COLUMNS).map((c) => c.name)
  const records = rows.map((r) => {
    const rec: (string | number)[] = KEYS.map((k) => {
      const v = r[k]
      return v === undefined || v === null ? '' : (v as string | number | boolean).toString()
    })
    const col = METRIC_COLUMNS[r.metric]
    for (const name of metricCols) rec.push(name === col.name ? Number((r.value * col.scale).toPrecision(12)) : '')
    rec.push(r.source.file, r.source.line)
    if (simulated) rec.push('SIMULATED')
    return rec
  })
  return records.length > 0 ? stringify(records) : ''
}

/**
 * Rows as CSV with human units in the column names (time_us, busbw_GBps, …). Rows of a
 * simulated set carry a `simulated` column saying so, so the label survives the export.
 */
export function rowsToCsv(rows: readonly Row[], simulated = false): string {
  return csvHeader(simulated) + csvRecords(rows, simulated)
}

/** Rows as JSON lines, exactly as stored; each row of a simulated set with `"simulated": true`. */
export function rowsToJsonl(rows: readonly Row[], simulated = false): string {
  let s = ''
  for (const r of rows) s += `${JSON.stringify(simulated ? { ...r, simulated: true } : r)}\n`
  return s
}
