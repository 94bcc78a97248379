/**
 * Runs a cluster plan into a result set: every job step's output is kept under raw/, read by
 * the nccl-tests parser, and its rows (each with `host`: the job's nodes) appended after every
 * step through the result-set API; the manifest carries the allocation and the schedule.
 * The simulator runs in this process (the text a real multi-node nccl-tests run prints, one
 * process per node); a crash loses at most the step being written.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { badInput } from '../errors/index.ts'
import type { Manifest, PointOutcome, Row } from '../model/index.ts'
import { parserById, parseText } from '../parsers/index.ts'
import { Appender, isNonEmptyDir, newManifest, writeManifest } from '../resultset/index.ts'
import { simulateClusterJob } from '../sim/index.ts'
import type { SweepSpec } from '../sweep/index.ts'
import { formatGpuList } from '../sweep/index.ts'
import type { ClusterPlan, ClusterStep, JobStep } from './_plan.ts'

/** Manifest `extra` key of a cluster sweep. */
export const CLUSTER_EXTRA = 'cluster'

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
}

/** What a cluster sweep did. */
export interface ClusterRunResult {
  manifest: Manifest
  rows: Row[]
  counts: Record<string, number>
  interrupted: boolean
}

const PARSER = 'nccl-tests-text'

/** Runs every step of the plan (see the module comment). */
export async function runCluster(opts: ClusterRunOptions): Promise<ClusterRunResult> {
  const { spec, plan, out } = opts
  const write = opts.write ?? true
  if (!plan.simulated) throw badInput('cluster sweeps on real nodes are not supported yet; use --instrument sim')
  if (write && isNonEmptyDir(out)) throw badInput(`${out}: directory is not empty (use another --out)`)
  const manifest = newManifest({
    origin: 'sweep',
    simulated: true,
    command: opts.command,
    instrument: { name: 'sim', version: `preset ${spec.preset ?? 'seed-vm'}` },
    outcomes: {},
    extra: { [CLUSTER_EXTRA]: record(spec, plan) },
  })
  const outcomes = manifest.outcomes as Record<string, PointOutcome>
  const appender = write ? await Appender.open(out) : undefined
  const all: Row[] = []
  let interrupted = false
  try {
    if (write) writeManifest(out, manifest)
    for (const [index, step] of plan.steps.entries()) {
      if (opts.signal?.aborted) {
        interrupted = true
        break
      }
      opts.onStep?.({ index, total: plan.steps.length, id: step.id })
      const t0 = performance.now()
      const rows = step.jobs.flatMap((job) => runJob(spec, plan, step, job, write ? out : undefined))
      await appender?.append(rows)
      if (!write) for (const r of rows) all.push(r)
      outcomes[step.id] = { status: 'ok', attempts: 1, wallS: (performance.now() - t0) / 1000, rows: rows.length }
      if (write && (index % 16 === 15 || index === plan.steps.length - 1)) writeManifest(out, manifest)
    }
  } finally {
    appender?.close()
    if (write) writeManifest(out, manifest)
  }
  const counts: Record<string, number> = {}
  for (const o of Object.values(outcomes)) counts[o.status] = (counts[o.status] ?? 0) + 1
  return { manifest, rows: all, counts, interrupted }
}

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
  }
}

/** A file-name-safe name of a job: its hosts. */
const jobName = (job: JobStep): string => job.hosts.join('+')

/** One job step: simulate, keep the raw text, parse, and label the rows. */
function runJob(spec: SweepSpec, plan: ClusterPlan, step: ClusterStep, job: JobStep, out?: string): Row[] {
  const text = simulateClusterJob({
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
  const file = join('raw', step.id, `${jobName(job)}.stdout`)
  if (out) {
    mkdirSync(join(out, 'raw', step.id), { recursive: true })
    writeFileSync(join(out, file), text)
  }
  const parser = parserById(PARSER)
  if (!parser) throw new Error(`parser ${PARSER} is not registered`)
  const { rows } = parseText(parser, text, { file, trial: step.trial })
  const host = job.hosts.join(',')
  const group = formatGpuList(job.gpus)
  return rows.map((r) => ({ ...r, host, point: step.id, grouping: step.pattern, group }))
}
