import { createHash } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { AdaptiveTracker } from '../adaptive/index.ts'
import { badInput } from '../errors/index.ts'
import { acquireLock, lockHolder } from '../exec/index.ts'
import { applyPendingRestore, applyWrites, hostEffect } from '../host/index.ts'
import type { Manifest } from '../model/index.ts'
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

async function execute(
  prep: Prepared,
  opts: SweepOptions,
  deps: SweepDeps,
): Promise<Omit<SweepResult, 'restoredAtStart'>> {
  const { spec, plan } = prep
  const hashes = Object.fromEntries(prep.instruments.map((i) => [i.id, instrumentHash(i.identity(prep.ctx))]))
  const keyOf = (p: Point): string =>
    createHash('sha256')
      .update(`${pointDefinition(p, spec)}\0${hashes[p.instrument]}\0${prep.simulated ? spec.seed : ''}`)
      .digest('hex')
      .slice(0, 16)
  const manifest = opts.resume ? resumeManifest(opts, prep, keyOf) : await freshManifest(opts, prep, deps, hashes)
  const extra = sweepExtra(manifest)
  const outcomes = (manifest.outcomes ??= {})
  const evidence = new Map<string, PointEvidence>()
  const adaptive = spec.adaptive ? new AdaptiveTracker(spec.adaptive) : undefined
  const result: Omit<SweepResult, 'restoredAtStart'> = {
    dir: opts.out,
    manifest,
    counts: {},
    interrupted: false,
    ran: 0,
    alreadyDone: 0,
    resumeDropped: 0,
    resumeTorn: [],
    timing: { driverS: 0, childS: 0 },
  }
  if (opts.resume) {
    const st = await prepareResume(opts.out, manifest)
    result.resumeDropped = st.dropped
    result.resumeTorn = st.diagnostics.map((d) => d.message)
    extra.resumes.push({
      at: new Date().toISOString(),
      command: opts.command,
      droppedRows: st.dropped,
      tornLines: st.diagnostics.length,
    })
    for (const [id, e] of evidenceOf(st.kept, extra)) evidence.set(id, e)
    adaptive?.add(st.kept)
  }
  for (const s of plan.skipped) outcomes[s.id] = { status: 'skipped', reason: s.reason }
  const todo = plan.points.filter((p) => outcomes[p.id]?.status !== 'ok')
  result.alreadyDone = plan.points.length - todo.length
  writeManifest(opts.out, manifest)
  opts.onProgress?.({
    type: 'plan',
    total: plan.points.length,
    todo: todo.length,
    done: result.alreadyDone,
    skipped: plan.skipped.length,
    out: opts.out,
  })
  const appender = await Appender.open(opts.out)
  const pdeps = (p: Point): PointDeps => ({
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
  })
  const started = performance.now()
  let wantLinks = !(extra.linkUnderLoad && 'point' in extra.linkUnderLoad)
  try {
    for (const [index, p] of todo.entries()) {
      if (opts.signal?.aborted) break
      const enough = adaptive?.skipReason(p)
      if (enough) {
        outcomes[p.id] = { status: 'skipped', reason: enough }
        continue
      }
      opts.onProgress?.({ type: 'point-start', index, todo: todo.length, id: p.id })
      const t0 = performance.now()
      const knobs = p.host && prep.knobs ? hostEffect(p.host, p.groups.flat(), prep.knobs) : undefined
      const restore = applyWrites(opts.out, p.id, knobs?.writes ?? [], prep.knobs?.root)
      let attempts: AttemptResult[] | undefined
      try {
        if (wantLinks && isBandwidthPoint(p)) {
          // The sweep's own under-load link reading, taken during its first bandwidth point.
          const got = await readLinksDuring(p, prep, deps, () => runWithRetries(p, pdeps(p), spec, opts))
          attempts = got.result
          if (got.reason !== undefined || attempts?.at(-1)?.status === 'ok') {
            saveUnderLoad(opts.out, extra, got)
            wantLinks = false
          }
        } else attempts = await runWithRetries(p, pdeps(p), spec, opts)
      } finally {
        restore()
      }
      if (!attempts) break
      const last = attempts[attempts.length - 1] as AttemptResult
      if (last.status === 'ok') {
        await appender.append(last.rows)
        adaptive?.add(last.rows)
      }
      const outcome = toOutcome(attempts)
      outcomes[p.id] = outcome
      extra.points[p.id] = record(keyOf(p), attempts)
      noteVersions(manifest, last)
      if (last.status === 'ok') evidence.set(p.id, evidenceOf(last.rows, extra).get(p.id) ?? { times: new Map() })
      writeManifest(opts.out, manifest)
      result.ran++
      const busy = performance.now() - t0 - backoffMs(attempts.length, spec)
      result.timing.driverS += busy / 1000
      result.timing.childS += attempts.reduce((s, a) => s + a.childS, 0)
      const elapsedS = (performance.now() - started) / 1000
      // Rows a failed point printed before it stopped are not in the set, but its raw log keeps them.
      const partial =
        last.status !== 'ok' && last.rows.length > 0
          ? { rows: last.rows.length, files: last.launches.map((l) => join(opts.out, l.stdout)) }
          : undefined
      const etaS = (elapsedS / (index + 1)) * (todo.length - index - 1)
      opts.onProgress?.({
        type: 'point',
        index,
        todo: todo.length,
        id: p.id,
        outcome,
        elapsedS,
        etaS,
        ...(partial ? { partial } : {}),
      })
    }
  } finally {
    appender.close()
    result.interrupted = Boolean(opts.signal?.aborted)
    extra.interrupted = result.interrupted
    extra.noVisibleEffect = findNoEffect(spec.env, plan.points, evidence)
    if (adaptive) extra.adaptive = adaptive.summary()
    writeManifest(opts.out, manifest)
  }
  for (const o of Object.values(outcomes)) result.counts[o.status] = (result.counts[o.status] ?? 0) + 1
  return result
}
