/**
 * The `#` lines of nccl-tests text output (test/fixtures/nccl-tests has real ones): version line,
 * banner, rank lines, footer. Each reader takes whitespace tokens and returns plain data.
 */
import { isInt, isUInt, num } from './_nccl-tokens.ts'

/** One "Using devices" line. */
export interface Device {
  rank: number
  group?: number
  pid?: number
  host?: string
  device?: number
  busId?: string
  name?: string
  /** The line was cut at nccl-tests' 2048-byte buffer and ends in "...". */
  truncated?: boolean
}

/** A banner label as a key: `warmup iters` → `warmupIters` (`nThread`, `minBytes` … stay as printed). */
const camel = (label: string): string => label.replace(/ (\w)/g, (_, c: string) => c.toUpperCase())

/**
 * Banner parameters from `nThread 1 nGpus 8 minBytes 8 ... step: 2(factor) ... graph: 0`
 * (tokens without the leading `#`): numbers, with `step` split into stepFactor / stepBytes.
 */
export function parseBanner(t: readonly string[]): Record<string, number | string> {
  const out: Record<string, number | string> = {}
  let label: string[] = []
  for (const tok of t) {
    const v = num(tok)
    const step = /^(\d+)\((factor|bytes)\)$/.exec(tok)
    if (label.length === 0 || (Number.isNaN(v) && !step)) {
      label.push(tok.endsWith(':') ? tok.slice(0, -1) : tok)
      continue
    }
    const key = camel(label.join(' '))
    if (step) out[step[2] === 'factor' ? 'stepFactor' : 'stepBytes'] = Number(step[1])
    else out[key] = v
    label = []
  }
  return out
}

/** A rank line (`Rank 0 Group 0 Pid 54740 on thanos device 0 [0x07] NVIDIA A100`), any version. */
export function parseRankLine(t: readonly string[]): Device | undefined {
  const at = t.indexOf('Rank')
  const r = t[at + 1]
  if (at < 0 || r === undefined || !isUInt(r)) return undefined
  const d: Device = { rank: Number(r) }
  let i = at + 2
  if (t[i] === 'Group' && isInt(t[i + 1] ?? '')) {
    d.group = Number(t[i + 1])
    i += 2
  }
  if (t[i] === 'Pid' && isInt(t[i + 1] ?? '')) {
    d.pid = Number(t[i + 1])
    i += 2
  }
  if (t[i] === 'on' && t[i + 1] !== undefined) {
    d.host = t[i + 1] as string
    i += 2
  }
  if (t[i] === 'device' && isInt(t[i + 1] ?? '')) {
    d.device = Number(t[i + 1])
    i += 2
  }
  const bus = t[i]
  if (bus?.startsWith('[') && bus.endsWith(']')) {
    d.busId = bus.slice(1, -1)
    i++
  }
  const name = t.slice(i).join(' ')
  if (name.endsWith('...')) d.truncated = true
  if (name) d.name = name
  return d
}

/** `nccl-tests version 2.18.3 nccl-headers=23003 nccl-library=23003` (tokens after `#`). */
export function parseVersionLine(t: readonly string[]): Record<string, string | number> {
  const out: Record<string, string | number> = {}
  if (t[2] !== undefined) out.version = t[2]
  for (const tok of t.slice(3)) {
    const eq = tok.indexOf('=')
    if (eq < 0) continue
    const key =
      tok.slice(0, eq) === 'nccl-headers' ? 'ncclHeaders' : tok.slice(0, eq) === 'nccl-library' ? 'ncclLibrary' : ''
    const v = tok.slice(eq + 1)
    if (key && isUInt(v)) out[key] = Number(v)
  }
  return out
}

/** NCCL's version code (22606) as text ("2.26.6"); codes before 2.9 were major*1000+minor*100+patch. */
export function ncclCodeToVersion(code: number): string | undefined {
  if (!Number.isInteger(code) || code <= 0) return undefined
  if (code >= 20900) return `${Math.floor(code / 10000)}.${Math.floor(code / 100) % 100}.${code % 100}`
  return `${Math.floor(code / 1000)}.${Math.floor(code / 100) % 10}.${code % 100}`
}

/** A footer value line, tokens after the colon: `0 OK`, `66.2058`, `4.8 FAILED`. */
export function parseFooterValue(t: readonly string[]): { value: number; status?: string } | undefined {
  const c = t.findIndex((x) => x.endsWith(':'))
  const v = num(t[c + 1] ?? '')
  if (c < 0 || Number.isNaN(v)) return undefined
  const s = t[c + 2]
  return s === 'OK' || s === 'FAILED' ? { value: v, status: s } : { value: v }
}

/** How a `Test … failure` line (or its `..` trace line) is counted and reported. */
export function classifyFailure(s: string): {
  key: 'failures' | 'failureTraces'
  severity: 'error' | 'info'
  code: string
  text: string
} {
  const text = s.trim()
  const trace = text.startsWith('..')
  return {
    key: trace ? 'failureTraces' : 'failures',
    severity: trace ? 'info' : 'error',
    code: trace ? 'failure-trace' : 'test-failure',
    text: text.slice(0, 300),
  }
}

/**
 * A file's meta: the file-level facts, plus the one run's facts at the top level, or for
 * several runs the first `kept` runs listed with counts for the rest.
 */
export function fileMeta(
  file: Record<string, unknown>,
  runMetas: readonly Record<string, unknown>[],
  runCount: number,
  collectives: ReadonlySet<string>,
  kept: number,
): Record<string, unknown> {
  const m: Record<string, unknown> = { ...file }
  if (runCount === 1) Object.assign(m, runMetas[0])
  else if (runCount > 1) {
    m.runs = runMetas
    if (runCount > kept) m.runsNotListed = runCount - kept
    m.runCount = runCount
    m.collectives = [...collectives]
  }
  return m
}

/** What an `NCCL INFO` / `NCCL WARN` line says: a warning, NCCL's version, a communicator's nranks. */
export function ncclLineFacts(
  s: string,
  t: readonly string[],
): { warning: boolean; version?: string; nranks?: number } {
  const out: { warning: boolean; version?: string; nranks?: number } = { warning: s.indexOf('NCCL WARN') !== -1 }
  const v = t.indexOf('version')
  if (v > 0 && t[v - 1] === 'NCCL' && t[v + 1] !== undefined) out.version = t[v + 1] as string
  const k = t.indexOf('nranks')
  const n = k > 0 ? Number(t[k + 1]) : NaN
  if (Number.isInteger(n) && n > 0) out.nranks = n
  return out
}
