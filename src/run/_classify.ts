import type { ExecResult } from '../exec/index.ts'
import type { Diagnostic, Row } from '../model/index.ts'
import type { Point } from '../sweep/index.ts'
import { formatGpuList } from '../sweep/index.ts'

/** The status of one launch or attempt (a point's outcome before retries are counted). */
export type AttemptStatus = 'ok' | 'failed' | 'hung' | 'corrupt'

/** Worst first: an attempt takes the worst status of its concurrent launches. */
const SEVERITY: readonly AttemptStatus[] = ['hung', 'failed', 'corrupt', 'ok']

/**
 * Stamps the sweep's fields on a parsed row (point, grouping, group, env, trial) and maps
 * device ordinals back to physical GPUs when the instrument numbers the visible ones.
 * Returns undefined for a pair row outside the requested pairs.
 */
export function enrichRow(row: Row, point: Point, group: readonly number[], visibleIds: boolean): Row | undefined {
  const r: Row = { ...row, trial: point.trial, point: point.id }
  if (visibleIds) {
    if (r.src !== null) r.src = group[r.src] ?? r.src
    if (r.dst !== null) r.dst = group[r.dst] ?? r.dst
  }
  if (point.kind === 'pairs') {
    if (
      r.src !== null &&
      r.dst !== null &&
      r.src !== r.dst &&
      point.pairs &&
      !point.pairs.some(([a, b]) => a === r.src && b === r.dst)
    )
      return undefined
  } else {
    r.grouping = point.grouping as string
    r.group = formatGpuList(group)
  }
  if (Object.keys(point.env).length) r.env = { ...point.env }
  if (point.host) r.hostAxis = { ...point.host }
  return r
}

/**
 * Judges one launch: killed by the watchdog → hung; could not start, died by a signal or
 * exited non-zero → failed; exited 0 but the output is not what was asked for (no rows,
 * parse errors, sizes or pairs missing, a failed data check) → corrupt; else ok. A failure's
 * reason ends with the last line the process wrote on stderr (`lastError`), where the
 * benches say why.
 */
export function classifyLaunch(
  point: Point,
  exec: ExecResult,
  rows: readonly Row[],
  diagnostics: readonly Diagnostic[],
  noOutputS: number,
  lastError = '',
): { status: AttemptStatus; reason: string } {
  const wrong = rows.filter((r) => r.metric === 'wrong' && r.value > 0)
  const corrupt = diagnostics.find((d) => d.code === 'corrupt')
  const dataCheck = wrong.length
    ? `data check failed: ${wrong.reduce((s, r) => s + r.value, 0)} wrong elements in ${wrong.length} cells`
    : corrupt
      ? `${corrupt.message} (${corrupt.file}:${corrupt.line})`
      : undefined
  const why = lastError ? `: ${lastError.length > 300 ? `${lastError.slice(0, 300)}…` : lastError}` : ''
  if (exec.killed === 'no-output')
    return { status: 'hung', reason: `no output for ${noOutputS} s; killed the process group` }
  if (exec.killed === 'hard-cap')
    return {
      status: 'hung',
      reason: `still running after the hard cap of ${exec.wallS.toFixed(0)} s; killed the process group`,
    }
  if (exec.killed === 'abort') return { status: 'failed', reason: 'interrupted' }
  if (exec.spawnError) return { status: 'failed', reason: exec.spawnError }
  if (exec.signal) return { status: 'failed', reason: `crashed: killed by ${exec.signal}${why}` }
  if (exec.exitCode !== 0)
    return {
      status: dataCheck ? 'corrupt' : 'failed',
      reason: dataCheck ?? `exited with status ${exec.exitCode}${why}`,
    }
  if (dataCheck) return { status: 'corrupt', reason: dataCheck }
  const err = diagnostics.find((d) => d.severity === 'error')
  if (rows.length === 0)
    return {
      status: 'corrupt',
      reason: err ? `no rows: ${err.message}` : 'no rows parsed from the output (not in the expected format)',
    }
  if (err) return { status: 'corrupt', reason: `parse error: ${err.message}` }
  const missing = missingParts(point, rows)
  if (missing) return { status: 'corrupt', reason: `truncated or incomplete output: ${missing}` }
  return { status: 'ok', reason: '' }
}

/** What the rows lack compared with the request, or undefined when complete. */
function missingParts(point: Point, rows: readonly Row[]): string | undefined {
  if (point.kind === 'collective') {
    const sizes = rows.filter((r) => r.metric === 'time' && r.placement !== 'in-place').length
    return sizes < point.sizes.length ? `rows for ${sizes} of ${point.sizes.length} sizes` : undefined
  }
  const pairs = point.pairs ?? []
  const seen = new Set(rows.filter((r) => r.src !== null && r.dst !== null).map((r) => `${r.src}>${r.dst}`))
  const lacking = pairs.filter(([a, b]) => !seen.has(`${a}>${b}`))
  return lacking.length
    ? `no rows for ${lacking.length} of ${pairs.length} pairs (e.g. ${lacking[0]?.join('>')})`
    : undefined
}

/** The worst of several statuses (for concurrent groups of one point). */
export function worst(list: readonly { status: AttemptStatus; reason: string }[]): {
  status: AttemptStatus
  reason: string
} {
  for (const s of SEVERITY) {
    const hit = list.find((x) => x.status === s)
    if (hit) return hit
  }
  return { status: 'ok', reason: '' }
}
