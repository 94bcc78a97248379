import { COLLECTIVE_DEFS, collectiveDef } from '../collectives/index.ts'
import { badInput } from '../errors/index.ts'
import { parseHostAxis } from '../host/index.ts'
import { parseGpuList, parsePairs } from '../lists/index.ts'
import { splitGroupingTokens } from './_groupings.ts'
import { parseEnvAxis, parseSizes } from './_lists.ts'
import type { SpecInput } from './_spec-input.ts'
import type { AdaptiveSpec, ClusterInput, SimFault, SweepSpec } from './_types.ts'

/** Joins a list field given as a string or an array into the text form. */
const text = (v: string | readonly (string | number)[] | undefined): string | undefined =>
  v === undefined ? undefined : Array.isArray(v) ? v.join(',') : (v as string)

/** Spec defaults that do not depend on the machine. */
export const SPEC_DEFAULTS = {
  pairs: 'all',
  groupings: 'tp8,tp4',
  collectives: 'all_reduce',
  sizes: '8:128M:x2',
  // The fewest trials with a finite 95 % CI of the median, and at which a 10 % change is
  // found in ≥ 95 % of cells (3 + 3 cannot reach p ≤ 0.05 at all; bench/stats.bench.ts).
  trials: 6,
  warmup: 1,
  iters: 20,
  order: 'interleaved',
  launcher: 'local',
  srunGpus: 'gpus-per-task',
  timeoutS: 60,
  hardTimeoutS: 3600,
  retries: 1,
  retryBackoffS: 1,
} as const

/**
 * Resolves a SpecInput (defaults → preset → flags already merged by the caller) into a
 * checked SweepSpec. `seed` must be given (the caller draws and records one when the user
 * gave none). Throws bad input naming the flag on any problem.
 */
export function resolveSpec(input: SpecInput, seed: number): SweepSpec {
  const i = { ...SPEC_DEFAULTS, ...input }
  const instruments = (text(i.instrument) ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  if (instruments.length === 0)
    throw badInput('--instrument: name an instrument (sim, native, nccl-tests, p2p, nvbandwidth)')
  const gpusText = text(i.gpus)
  if (gpusText === undefined) throw badInput('--gpus: name the GPUs to use (e.g. 0-7)')
  const gpus = parseGpuList(gpusText)
  const pairsText = i.pairs.trim()
  const spec: SweepSpec = {
    instruments,
    gpus,
    pairs: pairsText === 'none' ? 'none' : parsePairs(pairsText, gpus),
    groupings: splitGroupingTokens(text(i.groupings) ?? ''),
    collectives: collectiveList(text(i.collectives) ?? ''),
    sizes: parseSizes(text(i.sizes) ?? ''),
    env: envAxes(i.env ?? []),
    host: hostAxes(i.hostAxis ?? []),
    trials: positiveInt(i.trials, '--trials'),
    warmup: nonNegativeInt(i.warmup, '--warmup'),
    iters: positiveInt(i.iters, '--iters'),
    order: oneOf(i.order, ['interleaved', 'shuffled'] as const, '--order'),
    seed,
    launcher: oneOf(i.launcher, ['local', 'mpirun', 'srun'] as const, '--launcher'),
    hosts: (text(i.hosts) ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    srunGpus: oneOf(i.srunGpus, ['gpus-per-task', 'gres', 'none'] as const, '--srun-gpus'),
    ncclDebug: i.ncclDebug ?? (i.env ?? []).length > 0,
    noOutputTimeoutS: positive(i.timeoutS, '--timeout'),
    hardTimeoutS: positive(i.hardTimeoutS, '--hard-timeout'),
    retries: nonNegativeInt(i.retries, '--retries'),
    retryBackoffS: Math.max(0, i.retryBackoffS),
    paths: pick(i, ['ncclTestsDir', 'p2pBin', 'nvbandwidthBin', 'nativeDir']),
    faults: (i.simFaults ?? []).map(parseFault),
  }
  if (i.preset !== undefined) spec.preset = i.preset
  if (i.simScale !== undefined && i.simScale !== 1) spec.simScale = simScale(i.simScale, instruments, i.nodes)
  const cluster = clusterInput(i)
  if (cluster) spec.cluster = cluster
  if (i.sysfsRoot !== undefined) spec.hostRoot = i.sysfsRoot
  if (i.targetCi !== undefined) {
    spec.adaptive = adaptiveSpec(i.targetCi, i.minTrials, i.maxTrials)
    spec.trials = spec.adaptive.maxTrials
  } else if (i.minTrials !== undefined || i.maxTrials !== undefined)
    throw badInput('--min-trials/--max-trials: they bound --target-ci; give --target-ci PCT too (or use --trials)')
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
    throw badInput('--seed: must be an integer in [0, 4294967295]')
  return spec
}

/** `--sim-scale F`: > 0, finite, and only for the one-machine simulator. */
function simScale(f: number, instruments: readonly string[], nodes: number | undefined): number {
  if (!(Number.isFinite(f) && f > 0)) throw badInput(`--sim-scale ${f}: expected a number > 0 (e.g. 1.03)`)
  if (instruments.some((x) => x !== 'sim')) throw badInput('--sim-scale: only --instrument sim has simulated times')
  if (nodes !== undefined) throw badInput('--sim-scale: not modelled for simulated clusters (--nodes)')
  return f
}

const words = (v: string | readonly (string | number)[] | undefined): string[] =>
  (text(v) ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)

/** The cluster part of a spec, when any cluster flag is given (checked further by the cluster plan). */
function clusterInput(i: SpecInput): ClusterInput | undefined {
  const given = [i.nodes, i.pattern, i.pairsPerNode, i.inject, i.fabric].some((v) => v !== undefined)
  if (!given) return undefined
  if (i.nodes !== undefined) positiveInt(i.nodes, '--nodes')
  const patterns = words(i.pattern)
  if (patterns.length === 0) throw badInput('--pattern: name a cluster pattern (per-node, node-pairs, scaling)')
  const out: ClusterInput = { patterns, inject: words(i.inject) }
  if (i.nodes !== undefined) out.nodes = i.nodes
  if (i.pairsPerNode !== undefined) out.pairsPerNode = positiveInt(i.pairsPerNode, '--pairs-per-node')
  if (i.fabric !== undefined) out.fabric = i.fabric
  return out
}

/** Adaptive bounds: at least 6 trials by default (the fewest with a finite 95 % CI of the median), at most 20. */
function adaptiveSpec(targetCi: number, min = 6, max = Math.max(20, min)): AdaptiveSpec {
  if (!(typeof targetCi === 'number' && targetCi > 0 && targetCi < 100))
    throw badInput(`--target-ci: must be a percentage between 0 and 100, e.g. 2 for ±2 % (got ${targetCi})`)
  positiveInt(min, '--min-trials')
  positiveInt(max, '--max-trials')
  if (min > max) throw badInput(`--min-trials ${min} is more than --max-trials ${max}`)
  return { targetCiPct: targetCi, minTrials: min, maxTrials: max }
}

/** The collectives named, each one of the registry's. */
function collectiveList(t: string): string[] {
  const names = t
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  const bad = names.find((n) => !collectiveDef(n))
  if (bad !== undefined)
    throw badInput(
      `--collectives: "${bad}" is not a collective (known: ${COLLECTIVE_DEFS.map((c) => c.name).join(', ')})`,
    )
  return names
}

function envAxes(list: readonly string[]): [string, string[]][] {
  const axes = list.map((t) => parseEnvAxis(t))
  const names = axes.map((a) => a[0])
  const dup = names.find((n, k) => names.indexOf(n) !== k)
  if (dup) throw badInput(`--env: ${dup} is given twice (list its values once: ${dup}=A,B)`)
  return axes
}

function hostAxes(list: readonly string[]): [string, string[]][] {
  const axes = list.map(parseHostAxis)
  const dup = axes.map((a) => a[0]).find((n, k, all) => all.indexOf(n) !== k)
  if (dup) throw badInput(`--host-axis: ${dup} is given twice (list its values once: ${dup}=A,B)`)
  return axes
}

function parseFault(t: string): SimFault {
  const m = /^(.+)=(hang|crash|garbage|truncated|corrupt|exit)(?:@(\d+))?$/.exec(t)
  if (!m)
    throw badInput(`--sim-fault: "${t}" is not POINT-SUBSTRING=hang|crash|garbage|truncated|corrupt|exit[@ATTEMPTS]`)
  const f: SimFault = { match: m[1] as string, fault: m[2] as SimFault['fault'] }
  if (m[3] !== undefined) f.attempts = Number(m[3])
  return f
}

function pick<T extends object, K extends keyof T>(o: T, keys: readonly K[]): { [P in K]?: Exclude<T[P], undefined> } {
  const out: { [P in K]?: Exclude<T[P], undefined> } = {}
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k] as Exclude<T[K], undefined>
  return out
}

function oneOf<T extends string>(v: string, allowed: readonly T[], flag: string): T {
  if (!(allowed as readonly string[]).includes(v)) throw badInput(`${flag}: "${v}" is not one of ${allowed.join(', ')}`)
  return v as T
}

function positiveInt(v: number, flag: string): number {
  if (!Number.isInteger(v) || v < 1) throw badInput(`${flag}: must be a whole number ≥ 1 (got ${v})`)
  return v
}

function nonNegativeInt(v: number, flag: string): number {
  if (!Number.isInteger(v) || v < 0) throw badInput(`${flag}: must be a whole number ≥ 0 (got ${v})`)
  return v
}

function positive(v: number, flag: string): number {
  if (!(typeof v === 'number' && v > 0 && Number.isFinite(v)))
    throw badInput(`${flag}: must be a positive number of seconds (got ${v})`)
  return v
}
