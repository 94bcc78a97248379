import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { badInput } from '../errors/index.ts'
import type { Executor } from '../exec/index.ts'
import { processExecutor } from '../exec/index.ts'
import type { KnobContext } from '../host/index.ts'
import { hostEffect } from '../host/index.ts'
import type { Instrument, InstrumentContext } from '../instruments/index.ts'
import { instrumentById } from '../instruments/index.ts'
import type { Command, Launcher } from '../launch/index.ts'
import { launcherById, resolveHosts } from '../launch/index.ts'
import type { DetectSink, Parser } from '../parsers/index.ts'
import { detectParser, parserById } from '../parsers/index.ts'
import type { BestGroups, Plan, Point, SweepSpec } from '../sweep/index.ts'
import { plan } from '../sweep/index.ts'
import { rankGroupings } from '../topology/index.ts'
import type { GpuQuery } from './_provenance.ts'
import { captureSweepTopology, queryGpus } from './_provenance.ts'

/** Injected IO of the driver (tests replace pieces; defaults are the real ones). */
export interface SweepDeps {
  instrumentById: (id: string) => Instrument
  parserById: (id: string) => Parser | undefined
  detectParser: (head: string, sink?: DetectSink) => Parser | undefined
  queryGpus: () => Promise<GpuQuery>
  /** Groups for the `best` grouping (from the topology ranking). */
  bestGroups: (spec: SweepSpec) => Promise<BestGroups>
  repoRoot: string
  nodePath: string
  env: Readonly<Record<string, string | undefined>>
  killGraceMs: number
  /** Runs every benchmark process (the real one: processes under the watchdog). */
  executor: Executor
  exists: (path: string) => boolean
  /** Builds (or finds in the cache) the native benches; returns their directory. */
  buildNative: () => Promise<string>
}

/** The real dependencies. */
export function defaultDeps(): SweepDeps {
  return {
    instrumentById,
    parserById,
    detectParser: (h, sink) => detectParser(h, ['measurement'], sink),
    queryGpus: () => queryGpus(),
    bestGroups,
    repoRoot: resolve(import.meta.dirname, '..', '..'),
    nodePath: process.execPath,
    env: process.env,
    killGraceMs: 2000,
    executor: processExecutor,
    exists: existsSync,
    buildNative: async () => {
      const { buildNative } = await import('../build/index.ts')
      return dirname((await buildNative()).p2pBench)
    },
  }
}

/** What NCCL is asked to log when a sweep captures its own account (--nccl-debug). */
const NCCL_DEBUG_ENV: Readonly<Record<string, string>> = {
  NCCL_DEBUG: 'INFO',
  NCCL_DEBUG_SUBSYS: 'INIT,ENV,TUNING',
}

/**
 * The launch command of one group of a point: the instrument's invocation (plus
 * NCCL_DEBUG=INFO for collectives when the sweep captures NCCL's account) wrapped by the
 * launcher. Pure; the driver and the dry run both use it.
 */
export function groupCommand(
  prep: Prepared,
  p: Point,
  group: number[],
  attempt: number,
  asRoot: boolean,
  hosts: string[],
): Command & { timeoutMs?: number } {
  const inst = prep.instruments.find((i) => i.id === p.instrument) as Instrument
  const procs = prep.launcher.procs(p.kind, group.length)
  const inv = inst.command(p, { gpus: group, procs }, prep.ctx, attempt)
  const prefix = p.host && prep.knobs ? hostEffect(p.host, group, prep.knobs).prefix : []
  if (prefix.length) inv.argv = [...prefix, ...inv.argv]
  if (prep.spec.ncclDebug && p.kind === 'collective') inv.env = { ...NCCL_DEBUG_ENV, ...inv.env }
  const cmd = prep.launcher.wrap({ inv, gpus: group, procs, hosts, srunGpus: prep.spec.srunGpus, asRoot })
  return inv.timeoutMs === undefined ? cmd : { ...cmd, timeoutMs: inv.timeoutMs }
}

/** A spec made ready to run: instruments, launcher, context and the plan. */
export interface Prepared {
  spec: SweepSpec
  instruments: Instrument[]
  launcher: Launcher
  ctx: InstrumentContext
  hosts: string[]
  plan: Plan
  simulated: boolean
  /** Where the host knobs act, when the sweep has host axes. */
  knobs?: KnobContext
}

/**
 * Resolves instruments (refusing unavailable ones), the launcher, hosts and the plan. The
 * native benches are built on demand (not for a dry run, which shows a placeholder path).
 */
export async function prepare(
  specIn: SweepSpec,
  deps: SweepDeps,
  opts: { out?: string; dryRun?: boolean } = {},
): Promise<Prepared> {
  let spec = specIn
  const instruments = spec.instruments.map((id) => deps.instrumentById(id))
  if (spec.instruments.includes('native') && !spec.paths.nativeDir && !opts.dryRun) {
    spec = { ...spec, paths: { ...spec.paths, nativeDir: await deps.buildNative() } }
  }
  const ctx: InstrumentContext = {
    spec,
    repoRoot: deps.repoRoot,
    nodePath: deps.nodePath,
    ...(opts.out ? { scratchDir: resolve(opts.out) } : {}),
  }
  for (const i of instruments) {
    const why = i.unavailable(ctx, deps.exists)
    if (why) throw badInput(why)
  }
  const best = spec.groupings.includes('best') ? await deps.bestGroups(spec) : undefined
  const benches = instruments.flatMap((i) => i.benches(spec))
  if (benches.length === 0) throw badInput('the sweep has nothing to measure (no pairs and no collectives)')
  const p = plan(spec, best ? { benches, best } : { benches })
  if (p.points.length === 0)
    throw badInput(`the sweep has no runnable point${p.skipped[0] ? ` (${p.skipped[0].reason})` : ''}`)
  const simulated = instruments.some((i) => i.simulated)
  const knobs = (spec.host ?? []).length ? await knobContext(spec, deps, simulated) : undefined
  if (knobs) skipHostless(p, knobs)
  return {
    spec,
    instruments,
    launcher: launcherById(spec.launcher),
    ctx,
    hosts: spec.launcher === 'local' ? [] : resolveHosts(spec.hosts, deps.env),
    plan: p,
    simulated,
    ...(knobs ? { knobs } : {}),
  }
}

/** Where the host knobs act: the live root (or --sysfs-root), root or not, numactl, the GPUs' bus ids. */
async function knobContext(spec: SweepSpec, deps: SweepDeps, simulated: boolean): Promise<KnobContext> {
  const root = spec.hostRoot === undefined ? '/' : resolve(spec.hostRoot)
  if (root !== '/' && !deps.exists(join(root, 'sys'))) throw badInput(`--sysfs-root ${spec.hostRoot}: no sys/ in it`)
  const path = (deps.env.PATH ?? '').split(':').filter(Boolean)
  const gpus = simulated && root === '/' ? [] : (await deps.queryGpus()).gpus
  const busIds = Object.fromEntries(
    gpus.flatMap((g) => (g.busId ? [[g.index, g.busId.toLowerCase().replace(/^0{4}(?=[0-9a-f]{4}:)/, '')]] : [])),
  )
  return {
    root,
    asRoot: process.getuid?.() === 0,
    simulated,
    has: (prog) => path.some((d) => deps.exists(join(d, prog))),
    busIds: {
      ...busIds,
      ...(simulated ? Object.fromEntries(spec.gpus.map((g) => [g, busIds[g] ?? simBusId(g)])) : {}),
    },
  }
}

/** Bus id of a simulated GPU in a stand-in root: 0000:<index+1 hex>:00.0, as the test trees name them. */
const simBusId = (g: number): string => `0000:${(g + 1).toString(16).padStart(2, '0')}:00.0`

/** Moves the points whose host-axis values cannot be set here to the plan's skips, with the reason. */
function skipHostless(p: Plan, knobs: KnobContext): void {
  const keep: Point[] = []
  for (const pt of p.points) {
    const why = pt.host ? hostEffect(pt.host, pt.groups.flat(), knobs).skip : undefined
    if (why === undefined) keep.push(pt)
    else p.skipped.push({ id: pt.id, reason: why })
  }
  p.points = keep
}

/**
 * The `best` grouping from the topology ranking (groups of half the GPUs, the TP4-of-8
 * case): of this machine, or of the simulator preset's (SIMULATED) topology.
 */
async function bestGroups(spec: SweepSpec): Promise<BestGroups> {
  const sim = spec.instruments.includes('sim') && spec.preset ? { preset: spec.preset, gpus: spec.gpus } : undefined
  const t = await captureSweepTopology(join(mkdtempSync(join(tmpdir(), 'gpucomm-topo-')), 'capture'), sim)
  if (!t.report) return { reason: t.reason ?? 'no topology' }
  const groups = rankGroupings(t.report, Math.max(2, spec.gpus.length / 2))[0]?.groups
  return groups
    ? { groups, note: `best-ranked grouping of the ${sim ? 'SIMULATED ' : ''}topology capture` }
    : { reason: 'the topology ranking offered no grouping' }
}
