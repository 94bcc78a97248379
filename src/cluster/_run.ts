/**
 * Runs a cluster plan into a result set: every job step's output is kept under raw/, read by
 * the nccl-tests parser, and its rows (each with `host`: the job's nodes) appended after every
 * step through the result-set API; the manifest carries the allocation and the schedule.
 * Simulated nodes (--launcher local): the simulator runs in this process. Slurm nodes
 * (--launcher srun): each job is an srun job step on its nodes (src/cluster/_srun.ts), the
 * jobs of one step run concurrently, and the rows' `host` is the nodes the job's own output
 * names. A crash loses at most the step being written.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { badInput } from '../errors/index.ts'
import type { Executor } from '../exec/index.ts'
import { processExecutor } from '../exec/index.ts'
import type { Manifest, PointOutcome, Row } from '../model/index.ts'
import { parserById, parseText } from '../parsers/index.ts'
import { Appender, dropPlantedLinks, newManifest, writeManifest } from '../resultset/index.ts'
import { simulateClusterJob } from '../sim/index.ts'
import type { SweepSpec } from '../sweep/index.ts'
import { formatGpuList } from '../sweep/index.ts'
import { CLUSTER_EXTRA, openClusterSet } from './_open.ts'
import type { ClusterPlan, ClusterStep, JobStep } from './_plan.ts'
import type { JobRun, SelfCommand } from './_srun.ts'
import { launchJob, srunJobCommand } from './_srun.ts'

export { CLUSTER_EXTRA }

/** What a cluster sweep records about its cluster. */
export interface ClusterRecord {
  /** The nodes of the allocation (simulated: the whole simulated cluster). */
  allocation: string[]
  /** The nodes the sweep used. */
  nodes: string[]
  patterns: string[]
  /** node-pairs: every round's pairs and idle node. */
  rounds: { round: number; pairs: [string, string][]; idle?: string }[]
  gpus: number[]
  fabric: string
  preset?: string
  /** Injected faults (SIMULATED cluster only). */
  inject: { kind: string; node: string }[]
  seed: number
  /** The whole spec (a bare `--resume DIR` replays it). */
  spec: SweepSpec
  /** Each resume: when, and how many rows of unfinished steps it dropped. */
  resumes?: { at: string; dropped: number }[]
}

/** Progress of a cluster sweep. */
export interface ClusterProgress {
  index: number
  total: number
  id: string
}

/** Options of runCluster. */
export interface ClusterRunOptions {
  spec: SweepSpec
  plan: ClusterPlan
  out: string
  command: string[]
  /** Raw logs and the manifest on disk (default); false: rows in memory only (tests over many seeds). */
  write?: boolean
  onStep?: (p: ClusterProgress) => void
  signal?: AbortSignal
  /** The gpucomm that Slurm tasks run (default: this one). */
  self?: SelfCommand
  /** Runs the srun processes (default: the sweep's process executor). */
  executor?: Executor
  /** Continue the stopped sweep in `out` (see _open.ts). */
  resume?: boolean
}

/** What a cluster sweep did. */
export interface ClusterRunResult {
  manifest: Manifest
  rows: Row[]
  counts: Record<string, number>
  interrupted: boolean
  /** Rows of unfinished steps a resume dropped (they ran again). */
  dropped: number
}

const PARSER = 'nccl-tests-text'

/** Runs every step of the plan (see the module comment). */
export async function runCluster(opts: ClusterRunOptions): Promise<ClusterRunResult> {
  const { spec, plan, out } = opts
  const write = opts.write ?? true
  if (!plan.simulated && spec.launcher !== 'srun')
    throw badInput(`cluster sweeps on real nodes launch through srun (--launcher srun), not ${spec.launcher}`)
  if (!plan.simulated && !write) throw new Error('runCluster: Slurm job steps write their raw output (write: true)')
  const opened = write ? await openClusterSet(out, plan, opts.resume ?? false) : undefined
  const manifest =
    opened?.manifest ??
    newManifest({
      origin: 'sweep',
      simulated: true,
      command: opts.command,
      instrument: { name: 'sim', version: `preset ${spec.preset ?? 'seed-vm'}` },
      outcomes: {},
      extra: { [CLUSTER_EXTRA]: record(spec, plan) },
    })
  if (opened?.manifest) {
    const rec = manifest.extra?.[CLUSTER_EXTRA] as ClusterRecord
    rec.resumes = [...(rec.resumes ?? []), { at: new Date().toISOString(), dropped: opened.dropped }]
  }
  manifest.outcomes ??= {}
  const outcomes = manifest.outcomes as Record<string, PointOutcome>
  const appender = write ? await Appender.open(out) : undefined
  const all: Row[] = []
  let interrupted = false
  try {
    if (write) writeManifest(out, manifest)
    for (const [index, step] of plan.steps.entries()) {
      if (opened?.done.has(step.id)) continue
      if (opts.signal?.aborted) {
        interrupted = true
        break
      }
      opts.onStep?.({ index, total: plan.steps.length, id: step.id })
      const t0 = performance.now()
      const runs = await Promise.all(step.jobs.map((job) => runJob(opts, step, job)))
      const rows = runs.flatMap(({ job, run, file }) => labelled(run.stdout, file, step, job))
      await appender?.append(rows)
      if (!write) for (const r of rows) all.push(r)
      const bad = runs.find((r) => r.run.reason !== undefined)
      outcomes[step.id] = bad
        ? {
            status: 'failed',
            attempts: 1,
            exitCode: bad.run.exitCode,
            reason: `${bad.job.hosts.join('+')}: ${bad.run.reason}`,
          }
        : { status: 'ok', attempts: 1, wallS: (performance.now() - t0) / 1000, rows: rows.length }
      if (write && (index % 16 === 15 || index === plan.steps.length - 1)) writeManifest(out, manifest)
    }
  } finally {
    appender?.close()
    if (write) writeManifest(out, manifest)
    opened?.release()
  }
  const counts: Record<string, number> = {}
  for (const o of Object.values(outcomes)) counts[o.status] = (counts[o.status] ?? 0) + 1
  return { manifest, rows: all, counts, interrupted, dropped: opened?.dropped ?? 0 }
}

/** bin/gpucomm.js of this checkout (from src/cluster or dist/cluster alike). */
const SELF: SelfCommand = { node: process.execPath, bin: resolve(import.meta.dirname, '..', '..', 'bin', 'gpucomm.js') }

function record(spec: SweepSpec, plan: ClusterPlan): ClusterRecord {
  return {
    allocation: plan.allocation,
    nodes: plan.nodes,
    patterns: plan.patterns,
    rounds: plan.rounds.map((r) => ({ round: r.round, pairs: r.pairs, ...(r.idle ? { idle: r.idle } : {}) })),
    gpus: spec.gpus,
    fabric: plan.fabric,
    ...(spec.preset ? { preset: spec.preset } : {}),
    inject: plan.inject.map((i) => ({ kind: i.kind, node: i.node })),
    seed: spec.seed,
    spec,
  }
}

/** A file-name-safe name of a job: its hosts. */
const jobName = (job: JobStep): string => job.hosts.join('+')

/** One job of a step: simulated in this process, or launched through srun; raw output kept. */
async function runJob(
  opts: ClusterRunOptions,
  step: ClusterStep,
  job: JobStep,
): Promise<{ job: JobStep; run: JobRun; file: string }> {
  const { spec, plan, out } = opts
  const write = opts.write ?? true
  const file = join('raw', step.id, `${jobName(job)}.stdout`)
  if (write) {
    // A link planted at raw/, raw/<step> or a job's output file is removed, never written through.
    const stdout = join(out, file)
    dropPlantedLinks(join(out, 'raw'), join(out, 'raw', step.id), stdout, stdout.replace(/\.stdout$/, '.stderr'))
    mkdirSync(join(out, 'raw', step.id), { recursive: true })
  }
  if (plan.simulated) {
    const run: JobRun = { stdout: simulated(spec, plan, step, job), exitCode: 0 }
    if (write) writeFileSync(join(out, file), run.stdout)
    return { job, run, file }
  }
  const cmd = srunJobCommand(spec, plan, step, job, opts.self ?? SELF)
  const paths = { stdout: join(out, file), stderr: join(out, file.replace(/\.stdout$/, '.stderr')) }
  return { job, run: await launchJob(opts.executor ?? processExecutor, cmd, spec, paths, opts.signal), file }
}

/** One job step simulated in this process. */
function simulated(spec: SweepSpec, plan: ClusterPlan, step: ClusterStep, job: JobStep): string {
  return simulateClusterJob({
    preset: spec.preset ?? 'seed-vm',
    fabric: plan.fabric as 'ib',
    hosts: job.hosts,
    gpus: job.gpus,
    collective: step.collective,
    sizes: spec.sizes,
    iters: spec.iters,
    warmup: spec.warmup,
    seed: spec.seed,
    trial: step.trial,
    inject: plan.inject,
  })
}

/**
 * Parses a job's output; each row's `host` is the nodes the output's rank lines name (the
 * job's nodes when it names none), in rank order.
 */
function labelled(text: string, file: string, step: ClusterStep, job: JobStep): Row[] {
  const parser = parserById(PARSER)
  if (!parser) throw new Error(`parser ${PARSER} is not registered`)
  const { rows, meta } = parseText(parser, text, { file, trial: step.trial })
  const named = (meta as { hosts?: string[] }).hosts
  const host = (named?.length ? named : job.hosts).join(',')
  const group = formatGpuList(job.gpus)
  // Object.assign, not a spread: V8 gave each spread row its own hidden class (21,496 classes for
  // 21,504 rows of a 64-node fleet), and the fleet analysis' loops over them ran 6× slower.
  return rows.map((r) => Object.assign({}, r, { host, point: step.id, grouping: step.pattern, group }))
}
