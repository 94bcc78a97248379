import { createHash } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { AdaptiveTracker } from '../adaptive/index.ts'
import { badInput } from '../errors/index.ts'
import { acquireLock, lockHolder } from '../exec/index.ts'
import { applyPendingRestore, applyWrites, hostEffect } from '../host/index.ts'
import type { Manifest, PointOutcome } from '../model/index.ts'
import type { PointEvidence } from '../nccl-log/index.ts'
import { findNoEffect } from '../nccl-log/index.ts'
import { Appender, isNonEmptyDir, newManifest, readManifest, writeManifest } from '../resultset/index.ts'
import type { Point, SweepSpec } from '../sweep/index.ts'
import { pointDefinition } from '../sweep/index.ts'
import type { AttemptResult, PointDeps } from './_point.ts'
import { runAttempt } from './_point.ts'
import type { Prepared, SweepDeps } from './_prepare.ts'
import { defaultDeps, prepare } from './_prepare.ts'
import { captureSweepTopology, hostFacts, instrumentHash } from './_provenance.ts'
import type { SweepExtra } from './_record.ts'
import { emptyExtra, evidenceOf, SWEEP_EXTRA, sweepExtra } from './_record.ts'
import { prepareResume } from './_resume.ts'

/** Progress of a sweep, for the CLI to show (the library never prints). */
export type ProgressEvent =
  | { type: 'plan'; total: number; todo: number; done: number; skipped: number; out: string }
  | { type: 'point-start'; index: number; todo: number; id: string }
  | { type: 'retry'; id: string; attempt: number; status: string; reason: string; delayS: number }
  | {
      type: 'point'
      index: number
      todo: number
      id: string
      outcome: PointOutcome
      elapsedS: number
      etaS: number
      partial?: { rows: number; files: string[] }
    }

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
    const { restored } = applyPendingRestore(opts.out)
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
  const appender = new Appender(opts.out)
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
      const restore = applyWrites(opts.out, p.id, knobs?.writes ?? [])
      let attempts: AttemptResult[] | undefined
      try {
        attempts = await runWithRetries(p, pdeps(p), spec, opts)
      } finally {
        restore()
      }
      if (!attempts) break
      const last = attempts[attempts.length - 1] as AttemptResult
      if (last.status === 'ok') {
        appender.append(last.rows)
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

async function runWithRetries(
  p: Point,
  deps: PointDeps,
  spec: SweepSpec,
  opts: SweepOptions,
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

function backoffMs(attempts: number, spec: SweepSpec): number {
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

function toOutcome(attempts: readonly AttemptResult[]): PointOutcome {
  const last = attempts[attempts.length - 1] as AttemptResult
  const n = attempts.length
  if (last.status === 'ok') return { status: 'ok', attempts: n, wallS: last.childS, rows: last.rows.length }
  if (last.status === 'failed') return { status: 'failed', attempts: n, exitCode: last.exitCode, reason: last.reason }
  return { status: last.status, attempts: n, reason: last.reason }
}

function record(key: string, attempts: readonly AttemptResult[]): SweepExtra['points'][string] {
  const rec: SweepExtra['points'][string] = {
    key,
    attempts: attempts.map((a, i) => ({ attempt: i + 1, status: a.status, reason: a.reason, launches: a.launches })),
  }
  const last = attempts[attempts.length - 1]
  if (last?.account) rec.nccl = last.account
  return rec
}

function noteVersions(m: Manifest, a: AttemptResult): void {
  const host = (m.host ??= {})
  if (a.account?.version && !host.nccl) host.nccl = a.account.version
  const v = a.meta['nccl-tests']?.version
  if (typeof v === 'string' && !host.ncclTests) host.ncclTests = v
}

async function freshManifest(
  opts: SweepOptions,
  prep: Prepared,
  deps: SweepDeps,
  hashes: Record<string, string>,
): Promise<Manifest> {
  const { spec } = prep
  const gpu = await deps.queryGpus()
  const extra = emptyExtra(spec, hashes, prep.plan)
  const sim = prep.simulated && spec.preset ? { preset: spec.preset, gpus: spec.gpus } : undefined
  const t = await captureSweepTopology(`${opts.out}/topology`, sim)
  extra.topology = t.reason ? { reason: t.reason } : { dir: 'topology', ...(sim ? { simulated: true } : {}) }
  const ids = prep.instruments.map((i) => i.id)
  const combined = createHash('sha256')
    .update(ids.map((i) => `${i}:${hashes[i]}`).join('\n'))
    .digest('hex')
    .slice(0, 16)
  return newManifest({
    origin: 'sweep',
    simulated: prep.simulated,
    command: opts.command,
    instrument: {
      name: ids.join('+'),
      hash: combined,
      ...(spec.preset && prep.simulated ? { version: `preset ${spec.preset}` } : {}),
    },
    host: hostFacts(gpu, deps.env),
    outcomes: {},
    extra: { [SWEEP_EXTRA]: extra },
  })
}

function resumeManifest(opts: SweepOptions, prep: Prepared, keyOf: (p: Point) => string): Manifest {
  const m = readManifest(opts.out)
  if (m.origin !== 'sweep' || !m.extra?.[SWEEP_EXTRA])
    throw badInput(`--resume ${opts.out}: not a result set written by gpucomm sweep`)
  const extra = sweepExtra(m)
  for (const p of prep.plan.points) {
    const o = m.outcomes?.[p.id]
    const stored = extra.points[p.id]?.key
    if (o?.status === 'ok' && stored !== keyOf(p)) {
      throw badInput(
        `--resume ${opts.out}: point ${p.id} was measured with another instrument build or other settings; start a new result set`,
      )
    }
  }
  extra.order = prep.plan.points.map((p) => p.id)
  return m
}
