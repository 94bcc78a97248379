import { createHash } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { AdaptiveTracker } from '../adaptive/index.ts'
import { badInput } from '../errors/index.ts'
import { acquireLock, lockHolder } from '../exec/index.ts'
import { applyPendingRestore, applyWrites, hostEffect } from '../host/index.ts'
import type { Manifest, PointOutcome } from '../model/index.ts'
import type { PointEvidence } from '../nccl-log/index.ts'
import { findNoEffect } from '../nccl-log/index.ts'
import { Appender, isNonEmptyDir, readManifest, writeManifest } from '../resultset/index.ts'
import type { Point, ProgressEvent, SweepSpec } from '../sweep/index.ts'
import { pointDefinition } from '../sweep/index.ts'
import { backoffMs, record, runWithRetries, toOutcome } from './_attempts.ts'
import { freshManifest, noteVersions, resumeManifest } from './_manifest.ts'
import type { AttemptResult, PointDeps } from './_point.ts'
import type { Prepared, SweepDeps } from './_prepare.ts'
import { defaultDeps, prepare } from './_prepare.ts'
import { instrumentHash } from './_provenance.ts'
import { evidenceOf, sweepExtra } from './_record.ts'
import { prepareResume } from './_resume.ts'
import { isBandwidthPoint, readLinksDuring, saveUnderLoad } from './_under-load.ts'

/** Options of runSweep. */
export interface SweepOptions {
  spec: SweepSpec
  out: string
  /** Continue the sweep in `out`, skipping points already done with the same key. */
  resume?: boolean
  /** The command line, recorded in the manifest. */
  command: string[]
  /** Aborting (SIGINT) kills the running point and stops after the current write. */
  signal?: AbortSignal
  onProgress?: (e: ProgressEvent) => void
  deps?: Partial<SweepDeps>
}

/** What a sweep did. */
export interface SweepResult {
  dir: string
  manifest: Manifest
  counts: Record<string, number>
  interrupted: boolean
  /** Points run now, and points skipped because a resumed set already had them. */
  ran: number
  alreadyDone: number
  /** Files a restore record left by an earlier run put back before this one started. */
  restoredAtStart: number
  /** Rows and torn lines removed when resuming. */
  resumeDropped: number
  resumeTorn: string[]
  /** Driver wall time vs child wall time over the points run now (orchestration overhead). */
  timing: { driverS: number; childS: number }
}

/** The sysfs root host knobs act under: --sysfs-root, or the live `/`. */
const sysfsRoot = (spec: SweepSpec): string => (spec.hostRoot === undefined ? '/' : resolve(spec.hostRoot))

/**
 * Runs a sweep: plan → launch (watchdog, retries) → raw/ → parse → append rows after
 * every point → outcome in the manifest. Holds the set's lock throughout; SIGINT (the
 * signal) stops after the current write, and `resume` continues where a sweep stopped.
 */
export async function runSweep(opts: SweepOptions): Promise<SweepResult> {
  const deps: SweepDeps = { ...defaultDeps(), ...opts.deps }
  const prep = await prepare(opts.spec, deps, { out: opts.out })
  const held = lockHolder(opts.out)
  if (held) acquireLock(opts.out) // throws the refusal naming the holder
  if (opts.resume) readManifest(opts.out)
  else if (isNonEmptyDir(opts.out))
    throw badInput(
      `${opts.out}: directory is not empty (use --resume ${opts.out} to continue a sweep there, or another --out)`,
    )
  mkdirSync(opts.out, { recursive: true })
  const release = acquireLock(opts.out)
  try {
    // A run that died with host knobs applied (SIGKILL) left their restore record here.
    const { restored } = applyPendingRestore(opts.out, sysfsRoot(opts.spec))
    return { ...(await execute(prep, opts, deps)), restoredAtStart: restored }
  } finally {
    release()
  }
}

/** One sweep's state while it runs: its set, its manifest record, and what the points so far gave. */
interface Run {
  prep: Prepared
  opts: SweepOptions
  deps: SweepDeps
  manifest: Manifest
  extra: ReturnType<typeof sweepExtra>
  outcomes: NonNullable<Manifest['outcomes']>
  evidence: Map<string, PointEvidence>
  adaptive: AdaptiveTracker | undefined
  result: Omit<SweepResult, 'restoredAtStart'>
  /** The key a point's record carries: its definition, its instrument's hash and (simulated) the seed. */
  keyOf: (p: Point) => string
  /** Whether the sweep still wants its own under-load link reading. */
  wantLinks: boolean
}

/** The points not done yet run one by one; the manifest is written after each. */
async function execute(
  prep: Prepared,
  opts: SweepOptions,
  deps: SweepDeps,
): Promise<Omit<SweepResult, 'restoredAtStart'>> {
  const run = await startRun(prep, opts, deps)
  const { plan } = prep
  const { outcomes, result } = run
  for (const s of plan.skipped) outcomes[s.id] = { status: 'skipped', reason: s.reason }
  const todo = plan.points.filter((p) => outcomes[p.id]?.status !== 'ok')
  result.alreadyDone = plan.points.length - todo.length
  writeManifest(opts.out, run.manifest)
  opts.onProgress?.({
    type: 'plan',
    total: plan.points.length,
    todo: todo.length,
    done: result.alreadyDone,
    skipped: plan.skipped.length,
    out: opts.out,
  })
  const appender = await Appender.open(opts.out)
  const started = performance.now()
  try {
    for (const [index, p] of todo.entries()) {
      if (opts.signal?.aborted) break
      const enough = run.adaptive?.skipReason(p)
      if (enough) {
        outcomes[p.id] = { status: 'skipped', reason: enough }
        continue
      }
      opts.onProgress?.({ type: 'point-start', index, todo: todo.length, id: p.id })
      const t0 = performance.now()
      const attempts = await launchPoint(run, p)
      if (!attempts) break
      const outcome = await recordPoint(run, p, attempts, appender, t0)
      const elapsedS = (performance.now() - started) / 1000
      const etaS = (elapsedS / (index + 1)) * (todo.length - index - 1)
      progressOf(run, p, attempts, outcome, { index, todo: todo.length, elapsedS, etaS })
    }
  } finally {
    appender.close()
    result.interrupted = Boolean(opts.signal?.aborted)
    run.extra.interrupted = result.interrupted
    run.extra.noVisibleEffect = findNoEffect(prep.spec.env, plan.points, run.evidence)
    if (run.adaptive) run.extra.adaptive = run.adaptive.summary()
    writeManifest(opts.out, run.manifest)
  }
  for (const o of Object.values(outcomes)) result.counts[o.status] = (result.counts[o.status] ?? 0) + 1
  return result
}

/** The run's state: a fresh manifest, or (resume) the set's own with its torn rows dropped. */
async function startRun(prep: Prepared, opts: SweepOptions, deps: SweepDeps): Promise<Run> {
  const { spec } = prep
  const hashes = Object.fromEntries(prep.instruments.map((i) => [i.id, instrumentHash(i.identity(prep.ctx))]))
  const keyOf = (p: Point): string =>
    createHash('sha256')
      .update(`${pointDefinition(p, spec)}\0${hashes[p.instrument]}\0${prep.simulated ? spec.seed : ''}`)
      .digest('hex')
      .slice(0, 16)
  const manifest = opts.resume ? resumeManifest(opts, prep, keyOf) : await freshManifest(opts, prep, deps, hashes)
  const extra = sweepExtra(manifest)
  const run: Run = {
    prep,
    opts,
    deps,
    manifest,
    extra,
    outcomes: (manifest.outcomes ??= {}),
    evidence: new Map(),
    adaptive: spec.adaptive ? new AdaptiveTracker(spec.adaptive) : undefined,
    result: {
      dir: opts.out,
      manifest,
      counts: {},
      interrupted: false,
      ran: 0,
      alreadyDone: 0,
      resumeDropped: 0,
      resumeTorn: [],
      timing: { driverS: 0, childS: 0 },
    },
    keyOf,
    wantLinks: !(extra.linkUnderLoad && 'point' in extra.linkUnderLoad),
  }
  if (opts.resume) {
    const st = await prepareResume(opts.out, manifest)
    run.result.resumeDropped = st.dropped
    run.result.resumeTorn = st.diagnostics.map((d) => d.message)
    extra.resumes.push({
      at: new Date().toISOString(),
      command: opts.command,
      droppedRows: st.dropped,
      tornLines: st.diagnostics.length,
    })
    for (const [id, e] of evidenceOf(st.kept, extra)) run.evidence.set(id, e)
    run.adaptive?.add(st.kept)
  }
  return run
}

/** What one point's launches need from the sweep. */
function pointDeps(run: Run, p: Point): PointDeps {
  const { prep, opts, deps } = run
  return {
    instrument: prep.instruments.find((i) => i.id === p.instrument) ?? (prep.instruments[0] as PointDeps['instrument']),
    prep,
    out: opts.out,
    hosts: prep.hosts,
    asRoot: process.getuid?.() === 0,
    parserById: deps.parserById,
    detectParser: deps.detectParser,
    killGraceMs: deps.killGraceMs,
    executor: deps.executor,
    ...(opts.signal ? { signal: opts.signal } : {}),
  }
}

/**
 * One point with its retries, under its host knobs (undone after it, however it ended); the
 * sweep's first bandwidth point also reads the links under load. Undefined when it was stopped.
 */
async function launchPoint(run: Run, p: Point): Promise<AttemptResult[] | undefined> {
  const { prep, opts, deps } = run
  const knobs = p.host && prep.knobs ? hostEffect(p.host, p.groups.flat(), prep.knobs) : undefined
  const restore = applyWrites(opts.out, p.id, knobs?.writes ?? [], prep.knobs?.root)
  try {
    const retried = () => runWithRetries(p, pointDeps(run, p), prep.spec, opts)
    if (!(run.wantLinks && isBandwidthPoint(p))) return await retried()
    const got = await readLinksDuring(p, prep, deps, retried)
    if (got.reason !== undefined || got.result?.at(-1)?.status === 'ok') {
      saveUnderLoad(opts.out, run.extra, got)
      run.wantLinks = false
    }
    return got.result
  } finally {
    restore()
  }
}

/**
 * A point's rows appended (when it ended ok), its outcome and record in the manifest, and its
 * driver time (from `t0`, its start, to now, less the retry waits) counted.
 */
async function recordPoint(
  run: Run,
  p: Point,
  attempts: AttemptResult[],
  appender: Appender,
  t0: number,
): Promise<PointOutcome> {
  const { manifest, extra, result } = run
  const last = attempts[attempts.length - 1] as AttemptResult
  if (last.status === 'ok') {
    await appender.append(last.rows)
    run.adaptive?.add(last.rows)
  }
  const outcome = toOutcome(attempts)
  run.outcomes[p.id] = outcome
  extra.points[p.id] = record(run.keyOf(p), attempts)
  noteVersions(manifest, last)
  if (last.status === 'ok') run.evidence.set(p.id, evidenceOf(last.rows, extra).get(p.id) ?? { times: new Map() })
  writeManifest(run.opts.out, manifest)
  result.ran++
  result.timing.driverS += (performance.now() - t0 - backoffMs(attempts.length, run.prep.spec)) / 1000
  result.timing.childS += attempts.reduce((s, a) => s + a.childS, 0)
  return outcome
}

/** The point's progress event: its outcome, the time so far and the ETA. */
function progressOf(
  run: Run,
  p: Point,
  attempts: AttemptResult[],
  outcome: PointOutcome,
  at: { index: number; todo: number; elapsedS: number; etaS: number },
): void {
  const last = attempts[attempts.length - 1] as AttemptResult
  // Rows a failed point printed before it stopped are not in the set, but its raw log keeps them.
  const partial =
    last.status !== 'ok' && last.rows.length > 0
      ? { rows: last.rows.length, files: last.launches.map((l) => join(run.opts.out, l.stdout)) }
      : undefined
  const { index, todo, elapsedS, etaS } = at
  run.opts.onProgress?.({
    type: 'point',
    index,
    todo,
    id: p.id,
    outcome,
    elapsedS,
    etaS,
    ...(partial ? { partial } : {}),
  })
}
