import { randomInt } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { badInput } from '../errors/index.ts'
import type { Manifest } from '../model/index.ts'
import { liveProgress, plainProgress, summarizeSweep } from '../output/index.ts'
import { loadSet, readManifest } from '../resultset/index.ts'
import type { SweepDeps, SweepResult } from '../run/index.ts'
import { defaultDeps, describePlan, prepare, runSweep, storedSpec, sweepExtra } from '../run/index.ts'
import { presetTruth } from '../sim/index.ts'
import type { SpecInput, SweepSpec } from '../sweep/index.ts'
import { checkSpecInput, resolveSpec } from '../sweep/index.ts'
import { printable } from './_argv.ts'
import { defaultOutDir, defaultSpecInput } from './_sweep-defaults.ts'

/** A `gpucomm sweep` request as the CLI hands it over (flags already typed, nothing defaulted). */
export interface SweepRequest {
  /** Spec flags the user gave (absent keys take the preset's or the defaults). */
  flags: SpecInput
  /** --spec FILE: a bench/*.json preset. */
  specFile?: string
  out?: string
  resume?: string
  dryRun?: boolean
  command: string[]
  /** Where `results/` goes for the default output directory. */
  root: string
  /** Once the points are written: analyze the set (its answer opens the summary) and write DIR/report.html. */
  after?: boolean
}

/** The signals that stop a sweep (the abort reason names one) and the exit code each gives (128 + its number). */
export const STOP_SIGNALS = { SIGINT: 130, SIGHUP: 129, SIGTERM: 143 } as const

/** Where the sweep command writes; `signal` is aborted by SIGINT, SIGTERM or SIGHUP (the reason names it). */
export interface SweepIo {
  stdout: (t: string) => void
  stderr: (t: string) => void
  isTTY: boolean
  /** The terminal the live progress bar draws on; without it, plain progress lines go to stderr. */
  tty?: NodeJS.WritableStream
  signal?: AbortSignal
  /** Called once the set is written, before the analysis and report: signals may end the process from here on. */
  written?: () => void
}

/** What the command did: the exit code and the result-set directory (when one was written). */
export interface SweepOutcome {
  code: number
  dir?: string
  result?: SweepResult
}

/**
 * The whole `gpucomm sweep` flow: spec from flags / preset / defaults (with the no-GPU
 * notice and the simulation fallback), a dry run or the sweep with progress, then a short
 * summary naming the result set. Exit code: 0 all points ok, 1 some point failed, hung or
 * was corrupt, 128 + the signal's number when a signal stopped it (130 SIGINT, 143 SIGTERM, 129 SIGHUP).
 */
export async function sweepCommand(
  req: SweepRequest,
  io: SweepIo,
  depsIn: Partial<SweepDeps> = {},
): Promise<SweepOutcome> {
  const deps: SweepDeps = { ...defaultDeps(), ...depsIn }
  const { spec, stored } = await planOf(req, io, deps)
  if (spec.cluster) {
    if (req.resume !== undefined && !stored)
      throw badInput(`--resume ${req.resume}: not a cluster sweep's set; give --resume DIR alone to continue its sweep`)
    const { clusterFlow } = await import('./_cluster-flow.ts')
    return clusterFlow(req, io, spec, deps.env)
  }
  if (req.dryRun) {
    const prep = await prepare(spec, deps, { dryRun: true, ...(req.out ? { out: req.out } : {}) })
    io.stdout(describePlan(prep, process.getuid?.() === 0))
    return { code: 0 }
  }
  const out = req.resume ?? req.out ?? defaultOutDir(req.root, spec.instruments.includes('sim'))
  const result = await sweepWithProgress(req, io, spec, out, deps)
  io.written?.()
  return finish(req, io, out, result)
}

/** The spec to run, and whether it is a cluster sweep's stored one (a bare --resume DIR replays its plan). */
async function planOf(req: SweepRequest, io: SweepIo, deps: SweepDeps): Promise<{ spec: SweepSpec; stored: boolean }> {
  if (req.resume !== undefined && req.out !== undefined && resolve(req.out) !== resolve(req.resume))
    throw badInput(`--resume ${req.resume} --out ${req.out}: a resumed sweep writes into its own set; drop --out`)
  const stored = req.resume !== undefined ? clusterSpecOf(readManifest(req.resume)) : undefined
  if (stored && (Object.keys(req.flags).length > 0 || req.specFile !== undefined))
    throw badInput(`--resume ${req.resume}: a cluster sweep resumes with its stored flags; give --resume DIR alone`)
  return { spec: stored ?? (await specFor(req, io, deps)), stored: stored !== undefined }
}

/** Runs the sweep into `out` with a live bar on a terminal (plain lines otherwise), stopped on the signal. */
async function sweepWithProgress(
  req: SweepRequest,
  io: SweepIo,
  spec: SweepSpec,
  out: string,
  deps: SweepDeps,
): Promise<SweepResult> {
  const progress = io.tty ? liveProgress({ stream: io.tty }) : plainProgress(io.stderr)
  try {
    return await runSweep({
      spec,
      out,
      resume: req.resume !== undefined,
      command: req.command,
      deps,
      onProgress: (e) => progress.onProgress(e),
      ...(io.signal ? { signal: io.signal } : {}),
    })
  } finally {
    progress.stop()
  }
}

/** After the set is written: resume notes, the summary (opened by the analysis' answer), the report, the exit code. */
async function finish(req: SweepRequest, io: SweepIo, out: string, result: SweepResult): Promise<SweepOutcome> {
  // A torn line of a schema-1 samples.jsonl names its line; a damaged part names the part.
  for (const t of result.resumeTorn)
    io.stderr(`resume: ${/\.parquet: /.test(t) ? 'left out a damaged part' : 'dropped a torn line'}: ${printable(t)}\n`)
  if (result.resumeDropped)
    io.stderr(`resume: dropped ${result.resumeDropped} rows of points that had not finished; they run again\n`)
  const set = await loadSet(out)
  const { analyzeAfterSweep, reportAfterSweep } = await import('./_after-sweep.ts')
  const answer = req.after && !result.interrupted ? await analyzeAfterSweep(out, io) : undefined
  for (const line of summarizeSweep(set.manifest, set.rows, sweepExtra(set.manifest).noVisibleEffect, answer))
    io.stdout(`${line}\n`)
  if (result.interrupted) {
    const reason: unknown = io.signal?.reason
    const sig = typeof reason === 'string' && reason in STOP_SIGNALS ? (reason as keyof typeof STOP_SIGNALS) : 'SIGINT'
    io.stdout(`interrupted (${sig}): ${result.ran} points written; continue with: gpucomm sweep --resume ${out}\n`)
    io.stdout(`result set: ${out}\n`)
    return { code: STOP_SIGNALS[sig], dir: out, result }
  }
  io.stdout(`result set: ${out}\n`)
  if (answer) io.stdout(`report: ${await reportAfterSweep(out, io)} (every fit: gpucomm analyze ${out} --all)\n`)
  const bad = ['failed', 'hung', 'corrupt'].some((s) => (result.counts[s] ?? 0) > 0)
  return { code: bad ? 1 : 0, dir: out, result }
}

/** Merges defaults ← preset file ← flags (or the stored spec of a resumed set) into a SweepSpec. */
async function specFor(req: SweepRequest, io: SweepIo, deps: SweepDeps): Promise<SweepSpec> {
  const given = Object.keys(req.flags).length > 0 || req.specFile !== undefined
  if (req.resume !== undefined) {
    const stored = storedSpec(readManifest(req.resume))
    if (!stored) throw badInput(`--resume ${req.resume}: not a result set written by gpucomm sweep`)
    if (!given) return stored
    // Flags replace the stored spec whole (the same command line again); a few alone are not a spec.
    if (req.flags.instrument === undefined && req.specFile === undefined)
      throw badInput(
        `--resume ${req.resume}: give --resume DIR alone to continue its sweep as planned, or its whole ` +
          'command line again (flags without --instrument are not a sweep)',
      )
    return resolveSpec({ ...presetInput(req.specFile), ...req.flags }, req.flags.seed ?? stored.seed)
  }
  let base: SpecInput = {}
  if (!req.specFile && req.flags.instrument === undefined) {
    const gpu = await deps.queryGpus()
    if (!gpu.found)
      io.stderr(`no GPU found (${gpu.reason}); running the seed-vm simulation instead (SIMULATED numbers)\n`)
    else if (gpu.gpus.length < 2) {
      io.stderr(
        `one GPU found (` +
          `${gpu.gpus[0]?.name ?? 'GPU 0'}): measuring its copies to itself (the local and host-staged floors); nothing travels ` +
          `between GPUs here\n`,
      )
    }
    base = defaultSpecInput(gpu)
  }
  const input = { ...base, ...presetInput(req.specFile), ...req.flags }
  // A simulation (one machine or a cluster's nodes) has the preset's GPUs: all of them unless
  // --gpus says otherwise, as a bare sweep without a GPU runs 0-7 of seed-vm.
  if (input.gpus === undefined && input.instrument === 'sim')
    input.gpus = `0-${presetTruth(input.preset ?? 'seed-vm').gpuCount - 1}`
  return resolveSpec(input, input.seed ?? randomInt(0, 2 ** 31))
}

function presetInput(file: string | undefined): SpecInput {
  if (file === undefined) return {}
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    throw badInput(`--spec ${file}: cannot read the file`)
  }
  let v: unknown
  try {
    v = JSON.parse(text)
  } catch (e) {
    throw badInput(`--spec ${file}: not valid JSON (${(e as Error).message})`)
  }
  return checkSpecInput(v, file)
}

/** The spec a cluster sweep stored in its manifest, or undefined for any other set. */
function clusterSpecOf(m: Manifest): SweepSpec | undefined {
  const rec = m.extra?.cluster as { spec?: SweepSpec } | undefined
  return rec?.spec?.cluster ? rec.spec : undefined
}
