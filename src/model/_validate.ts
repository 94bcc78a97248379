import type { Row } from './types.ts'

const METRICS = new Set(['time', 'algbw', 'busbw', 'wrong', 'latency', 'bandwidth'])
const UNITS = new Set(['s', 'B/s', 'count'])
const PLACEMENTS = new Set(['out-of-place', 'in-place', null])
const P2P = new Set(['enabled', 'disabled', null])
const TIMERS = new Set(['gpu', 'cpu', null])

const isNumOrNull = (v: unknown): boolean => v === null || (typeof v === 'number' && Number.isFinite(v))

/**
 * Checks that `v` is a well-formed Row; returns the first problem found, or undefined.
 * Used by the loader on every line of a schema-1 samples.jsonl.
 */
export function rowProblem(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'not a JSON object'
  const r = v as Record<string, unknown>
  if (typeof r.bench !== 'string' || r.bench === '') return 'missing "bench"'
  if (!METRICS.has(r.metric as string)) return `unknown metric ${JSON.stringify(r.metric)}`
  if (!UNITS.has(r.unit as string)) return `unknown unit ${JSON.stringify(r.unit)}`
  if (typeof r.value !== 'number' || !Number.isFinite(r.value)) return '"value" is not a finite number'
  for (const k of ['sizeBytes', 'ranks', 'src', 'dst'] as const) {
    if (!isNumOrNull(r[k])) return `"${k}" is not a number or null`
  }
  if (!PLACEMENTS.has(r.placement as string | null)) return 'bad "placement"'
  if (!P2P.has(r.p2p as string | null)) return 'bad "p2p"'
  if (!TIMERS.has(r.timer as string | null)) return 'bad "timer"'
  if (!Number.isInteger(r.trial)) return '"trial" is not an integer'
  const s = r.source as Record<string, unknown> | undefined
  if (typeof s !== 'object' || s === null || typeof s.file !== 'string' || !Number.isInteger(s.line)) {
    return 'missing "source" {file, line}'
  }
  return undefined
}

/** Type guard over rowProblem. */

/** Builds a Row with the nullable fields defaulted to null, so parsers only state what they know. */
export function makeRow(r: Pick<Row, 'bench' | 'metric' | 'unit' | 'value' | 'source'> & Partial<Row>): Row {
  return {
    sizeBytes: null,
    ranks: null,
    src: null,
    dst: null,
    placement: null,
    p2p: null,
    timer: null,
    trial: 0,
    ...r,
  }
}
