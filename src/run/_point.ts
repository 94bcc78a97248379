import { createHash } from 'node:crypto'
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ExecResult, Executor } from '../exec/index.ts'
import type { Instrument } from '../instruments/index.ts'
import type { Diagnostic, Row } from '../model/index.ts'
import type { NcclAccount } from '../nccl-log/index.ts'
import { mergeAccounts, NcclInfoCollector } from '../nccl-log/index.ts'
import type { DetectSink, LineParser, Parser } from '../parsers/index.ts'
import { dropPlantedLinks } from '../resultset/index.ts'
import type { Point } from '../sweep/index.ts'
import { formatGpuList } from '../sweep/index.ts'
import type { AttemptStatus } from './_classify.ts'
import { classifyLaunch, enrichRow, worst } from './_classify.ts'
import type { Prepared } from './_prepare.ts'
import { groupCommand } from './_prepare.ts'

/** What running one attempt of a point needs. */
export interface PointDeps {
  prep: Prepared
  instrument: Instrument
  /** The result-set directory. */
  out: string
  hosts: string[]
  asRoot: boolean
  parserById: (id: string) => Parser | undefined
  detectParser: (head: string, sink?: DetectSink) => Parser | undefined
  signal?: AbortSignal
  killGraceMs: number
  executor: Executor
}

/** One launch (one group) of an attempt, as recorded in the manifest. */
export interface LaunchRecord {
  group: string
  argv: string[]
  env: Record<string, string>
  /** Raw files, relative to the result set, with the sha256 of what each holds (as imports record for sources). */
  stdout: string
  stderr: string
  stdoutSha256: string
  stderrSha256: string
  exitCode: number | null
  signal: string | null
  /** Start time (ms since the epoch): concurrent groups of a point start together. */
  startedMs: number
  wallS: number
  killed?: string
  spawnError?: string
  parser?: string
  rows: number
  status: AttemptStatus
  reason: string
}

/** One attempt of a point: its status, rows (kept only when ok) and launches. */
export interface AttemptResult {
  status: AttemptStatus
  reason: string
  exitCode: number | null
  rows: Row[]
  launches: LaunchRecord[]
  account?: NcclAccount
  /** What each parser learnt about its output (versions, banner), by parser id. */
  meta: Record<string, Record<string, unknown>>
  /** Wall time of the concurrent launches (the longest). */
  childS: number
  aborted: boolean
}

/** sha256 of a file, read in 1 MiB chunks (raw logs can be large); '' when it is missing. */
function sha256Of(path: string): string {
  if (!existsSync(path)) return ''
  const hash = createHash('sha256')
  const fd = openSync(path, 'r')
  try {
    const buf = Buffer.alloc(1 << 20)
    for (let n = readSync(fd, buf); n > 0; n = readSync(fd, buf)) hash.update(buf.subarray(0, n))
  } finally {
    closeSync(fd)
  }
  return hash.digest('hex')
}

/** A file-name-safe form of a point id. */
const safeName = (s: string): string => s.replace(/[^\w.=~,+-]/g, '_')

/**
 * Moves the raw logs of an earlier run of a point (a sweep interrupted and resumed) to
 * `<dir>.earlier-N`, so its attempts never overwrite them and every launch starts with fresh
 * scratch files (coll_bench's bootstrap directory).
 */
function keepEarlierRun(abs: string): void {
  if (!existsSync(abs) || readdirSync(abs).length === 0) return
  let n = 1
  while (existsSync(`${abs}.earlier-${n}`)) n++
  renameSync(abs, `${abs}.earlier-${n}`)
}

/** Runs every group of a point concurrently (a TP4 grouping runs both groups at once). */
export async function runAttempt(point: Point, attempt: number, deps: PointDeps): Promise<AttemptResult> {
  const dir = join('raw', safeName(point.id))
  // A link planted at raw/ or raw/<point> is removed, never written through (a set may be hostile).
  dropPlantedLinks(join(deps.out, 'raw'), join(deps.out, dir))
  if (attempt === 1) keepEarlierRun(join(deps.out, dir))
  mkdirSync(join(deps.out, dir), { recursive: true })
  const results = await Promise.all(point.groups.map((g) => launchGroup(point, g, attempt, dir, deps)))
  const verdict = worst(results.map((r) => r.record))
  const failedExit = results.find((r) => r.record.status === verdict.status)?.record.exitCode ?? null
  const out: AttemptResult = {
    status: verdict.status,
    reason: verdict.reason,
    exitCode: failedExit,
    rows: results.flatMap((r) => r.rows),
    launches: results.map((r) => r.record),
    childS: Math.max(0, ...results.map((r) => r.record.wallS)),
    aborted: Boolean(deps.signal?.aborted),
    meta: Object.fromEntries(results.filter((r) => r.parser).map((r) => [r.parser as string, r.meta])),
  }
  const account = mergeAccounts(results.map((r) => r.account))
  if (account) out.account = account
  return out
}

interface GroupResult {
  record: LaunchRecord
  rows: Row[]
  account?: NcclAccount
  parser?: string
  meta: Record<string, unknown>
}

async function launchGroup(
  point: Point,
  group: number[],
  attempt: number,
  dir: string,
  deps: PointDeps,
): Promise<GroupResult> {
  const { instrument, prep } = deps
  const spec = prep.spec
  const { timeoutMs, ...cmd } = groupCommand(prep, point, group, attempt, deps.asRoot, deps.hosts)
  const base = join(dir, `a${attempt}-g${safeName(formatGpuList(group))}`)
  const stdout = `${base}.stdout`
  const stderr = `${base}.stderr`
  const rows: Row[] = []
  const reader = new OutputReader(
    deps.parserById(instrument.parser(point)),
    deps.detectParser,
    stdout,
    point.trial,
    (r) => {
      const e = enrichRow(r, point, group, instrument.deviceIds === 'visible')
      if (e) rows.push(e)
    },
  )
  const nccl = new NcclInfoCollector()
  let lastError = ''
  const hardMs = Math.min(spec.hardTimeoutS * 1000, timeoutMs ?? Infinity)
  const exec: ExecResult = await deps.executor.run({
    command: cmd,
    noOutputMs: spec.noOutputTimeoutS * 1000,
    hardMs,
    stdoutPath: join(deps.out, stdout),
    stderrPath: join(deps.out, stderr),
    killGraceMs: deps.killGraceMs,
    onLine: (stream, line) => {
      if (stream === 'stdout') reader.line(line)
      else if (line.trim() !== '') lastError = line.trim()
      nccl.line(line)
    },
    ...(deps.signal ? { signal: deps.signal } : {}),
  })
  const { diagnostics, parser, meta } = reader.end()
  const verdict = classifyLaunch(point, exec, rows, diagnostics, spec.noOutputTimeoutS, lastError)
  const record = launchRecord(group, cmd, { stdout, stderr }, deps.out, exec, rows.length, verdict, parser)
  writeFileSync(join(deps.out, `${base}.json`), `${JSON.stringify(record, null, 1)}\n`)
  const out: GroupResult = { record, rows, meta }
  const account = nccl.account()
  if (account) out.account = account
  if (parser) out.parser = parser
  return out
}

/** The record of one launch: its command, raw files (with their sha256), how it ended and what it gave. */
function launchRecord(
  group: number[],
  cmd: Omit<ReturnType<typeof groupCommand>, 'timeoutMs'>,
  files: { stdout: string; stderr: string },
  out: string,
  exec: ExecResult,
  rows: number,
  verdict: ReturnType<typeof classifyLaunch>,
  parser: string | undefined,
): LaunchRecord {
  const record: LaunchRecord = {
    group: formatGpuList(group),
    argv: [cmd.file, ...cmd.args],
    env: cmd.env,
    ...files,
    stdoutSha256: sha256Of(join(out, files.stdout)),
    stderrSha256: sha256Of(join(out, files.stderr)),
    exitCode: exec.exitCode,
    signal: exec.signal,
    startedMs: exec.startedMs,
    wallS: exec.wallS,
    rows,
    ...verdict,
  }
  if (exec.killed) record.killed = exec.killed
  if (exec.spawnError) record.spawnError = exec.spawnError
  if (parser) record.parser = parser
  return record
}

/**
 * Feeds stdout lines to the point's parser as they arrive. When the named parser is not
 * registered, lines are kept and the parser is detected from the output at the end.
 */
class OutputReader {
  private lp: LineParser | undefined
  private held: string[] = []
  private n = 0
  private parser: Parser | undefined
  constructor(
    parser: Parser | undefined,
    private detect: (head: string, sink?: DetectSink) => Parser | undefined,
    private file: string,
    private trial: number,
    private emit: (r: Row) => void,
  ) {
    this.parser = parser
    if (parser) this.lp = parser.open({ file, trial }, emit)
  }
  line(text: string): void {
    this.n++
    if (this.lp) this.lp.line(text, this.n)
    else this.held.push(text)
  }
  end(): { diagnostics: Diagnostic[]; parser?: string; meta: Record<string, unknown> } {
    const failed: Diagnostic[] = []
    if (!this.lp) {
      this.parser = this.detect(this.held.slice(0, 2000).join('\n'), { file: this.file, diagnostics: failed })
      if (!this.parser) return { diagnostics: failed, meta: {} }
      this.lp = this.parser.open({ file: this.file, trial: this.trial }, this.emit)
      this.held.forEach((l, i) => this.lp?.line(l, i + 1))
    }
    const { diagnostics, meta } = this.lp.end()
    return { diagnostics: [...failed, ...diagnostics], parser: this.parser?.id as string, meta }
  }
}
