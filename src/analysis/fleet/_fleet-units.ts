/**
 * The fleet analysis' units: rows of one pattern and bench keyed by their `host` (the job's
 * nodes), and per unit a value (the median) with its samples at the large (bandwidth) or small
 * (latency) end of the sizes. Pure.
 */
import type { Row } from '../../model/index.ts'
import { medianOf, sortSample } from '../../stats/index.ts'

/** One fleet metric of a unit: its value and samples. */
export interface Unit {
  key: string
  hosts: string[]
  value: number
  samples: number[]
}

/** Rows of one pattern and bench, by their `host` (the job's nodes, comma-joined). */
export function byHost(
  rows: readonly Row[],
  grouping: string,
  bench: string,
  metric: Row['metric'],
): Map<string, Row[]> {
  const m = new Map<string, Row[]>()
  for (const r of rows) {
    if (r.grouping !== grouping || r.bench !== bench || r.metric !== metric || !r.host || r.sizeBytes === null) continue
    let l = m.get(r.host)
    if (!l) m.set(r.host, (l = []))
    l.push(r)
  }
  return m
}

/** Samples at the largest (bandwidth) or smallest (latency) sizes: a factor 16 from the end. */
export function units(rows: Map<string, Row[]>, end: 'large' | 'small'): Unit[] {
  const out: Unit[] = []
  for (const [key, rs] of rows) {
    const sizes = rs.map((r) => r.sizeBytes as number)
    const edge = end === 'large' ? Math.max(...sizes) / 16 : Math.max(8, Math.min(...sizes)) * 16
    const samples = rs
      .filter((r) => (end === 'large' ? (r.sizeBytes as number) >= edge : (r.sizeBytes as number) <= edge))
      .map((r) => r.value)
    if (samples.length) out.push({ key, hosts: key.split(','), value: medianOf(sortSample(samples)), samples })
  }
  return out
}
