import type { PointOutcome } from '../model/index.ts'
import type { Point, ProgressEvent, SweepSpec } from '../sweep/index.ts'
import type { AttemptResult, PointDeps } from './_point.ts'
import { runAttempt } from './_point.ts'
import type { SweepExtra } from './_record.ts'

/** What retries need of the sweep's options. */
interface RetryOptions {
  signal?: AbortSignal
  onProgress?: (e: ProgressEvent) => void
}

/**
 * Runs a point's attempts: the first, then up to `spec.retries` more with doubling backoff
 * until one is ok. Undefined when the sweep was aborted (SIGINT, SIGTERM, SIGHUP) meanwhile.
 */
export async function runWithRetries(
  p: Point,
  deps: PointDeps,
  spec: SweepSpec,
  opts: RetryOptions,
): Promise<AttemptResult[] | undefined> {
  const attempts: AttemptResult[] = []
  for (let a = 1; a <= spec.retries + 1; a++) {
    if (a > 1) {
      const prev = attempts[a - 2] as AttemptResult
      const delayS = spec.retryBackoffS * 2 ** (a - 2)
      opts.onProgress?.({ type: 'retry', id: p.id, attempt: a, status: prev.status, reason: prev.reason, delayS })
      if (!(await sleep(delayS * 1000, opts.signal))) return undefined
    }
    const r = await runAttempt(p, a, deps)
    if (r.aborted) return undefined
    attempts.push(r)
    if (r.status === 'ok') break
  }
  return attempts
}

/** Milliseconds spent waiting between `attempts` attempts. */
export function backoffMs(attempts: number, spec: SweepSpec): number {
  let ms = 0
  for (let a = 2; a <= attempts; a++) ms += spec.retryBackoffS * 1000 * 2 ** (a - 2)
  return ms
}

function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((res) => {
    if (signal?.aborted) return res(false)
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      res(true)
    }, ms)
    const onAbort = (): void => {
      clearTimeout(t)
      res(false)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/** The point's outcome from its attempts (the last one decides). */
export function toOutcome(attempts: readonly AttemptResult[]): PointOutcome {
  const last = attempts[attempts.length - 1] as AttemptResult
  const n = attempts.length
  if (last.status === 'ok') return { status: 'ok', attempts: n, wallS: last.childS, rows: last.rows.length }
  if (last.status === 'failed') return { status: 'failed', attempts: n, exitCode: last.exitCode, reason: last.reason }
  return { status: last.status, attempts: n, reason: last.reason }
}

/** What the manifest keeps of a point's attempts. */
export function record(key: string, attempts: readonly AttemptResult[]): SweepExtra['points'][string] {
  const rec: SweepExtra['points'][string] = {
    key,
    attempts: attempts.map((a, i) => ({ attempt: i + 1, status: a.status, reason: a.reason, launches: a.launches })),
  }
  const last = attempts[attempts.length - 1]
  if (last?.account) rec.nccl = last.account
  return rec
}
