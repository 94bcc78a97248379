/**
 * Host knobs a sweep can switch per point (`--host-axis NAME=V1,V2`): what each value
 * changes, what it needs (root, the knob itself, numactl, several NUMA nodes) and why a
 * point is skipped when that is missing. Reading is done here; writing and restoring are
 * in _restore.ts.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { badInput } from '../errors/index.ts'

/** Exit latency above which an enabled idle state counts as deep: a third of a ~14 µs host-staged floor is 5 µs. */
export const DEEP_EXIT_S = 5e-6

/** Where knobs act and what the harness may do there. */
export interface KnobContext {
  /** `/` for the live machine, or a stand-in root (tests) whose sys/ the knob writes land in. */
  root: string
  /** Effective uid 0. */
  asRoot: boolean
  /** Every instrument is the simulator: on the live root the knob is modelled, the host is not touched. */
  simulated: boolean
  /** Whether a program is on PATH (numactl). */
  has: (program: string) => boolean
  /** Bus ids (`dddd:bb:dd.f`) of the sweep's GPUs, by physical index, when known. */
  busIds: Readonly<Record<number, string>>
}

/** One file write a knob value makes, with the value to restore. */
export interface KnobWrite {
  /** Real path (under the context's root). */
  path: string
  before: string
  after: string
}

/** What one host-axis combination does for a point's GPUs. */
export interface KnobEffect {
  /** Why the point cannot run with this value here. */
  skip?: string
  writes: KnobWrite[]
  /** Program and arguments put before the benchmark's argv (numactl …). */
  prefix: string[]
  /** Notes for the plan (modelled, already so, …). */
  notes: string[]
}

/** A switchable knob. */
export interface Knob {
  name: string
  values: readonly string[]
  describe: string
  effect(value: string, gpus: readonly number[], ctx: KnobContext): KnobEffect
}

/** The only files a knob writes, relative to the sysfs root (restore refuses any other). */
export const KNOB_FILE = /^sys\/devices\/system\/cpu\/cpu\d{1,5}\/cpuidle\/state\d{1,3}\/disable$/
/** The only values a knob file holds before or after a knob write. */
export const KNOB_VALUES: readonly string[] = ['0', '1']

const none = (notes: string[] = []): KnobEffect => ({ writes: [], prefix: [], notes })
const live = (ctx: KnobContext): boolean => ctx.root === '/'
const read = (p: string): string | undefined => {
  try {
    return readFileSync(p, 'utf8').trim()
  } catch {
    return undefined
  }
}
const list = (p: string): string[] => {
  try {
    return readdirSync(p).sort()
  } catch {
    return []
  }
}

/** The cpuidle `disable` files of states deeper than DEEP_EXIT_S that are enabled, on every CPU. */
function deepStateWrites(root: string): { writes: KnobWrite[]; cpus: number } {
  const base = join(root, 'sys/devices/system/cpu')
  const cpus = list(base).filter((c) => /^cpu\d+$/.test(c) && existsSync(join(base, c, 'cpuidle')))
  const writes = cpus.flatMap((c) =>
    list(join(base, c, 'cpuidle'))
      .filter((s) => /^state\d+$/.test(s))
      .flatMap((s) => {
        const dir = join(base, c, 'cpuidle', s)
        const latency = Number(read(join(dir, 'latency')))
        const before = read(join(dir, 'disable'))
        return before === '0' && latency * 1e-6 > DEEP_EXIT_S
          ? [{ path: join(dir, 'disable'), before, after: '1' }]
          : []
      }),
  )
  return { writes, cpus: cpus.length }
}

const cstates: Knob = {
  name: 'cstates',
  values: ['default', 'shallow'],
  describe:
    `default: idle states as found; shallow: every cpuidle state with exit latency above ` +
    `${DEEP_EXIT_S * 1e6} µs disabled (sysfs stateN/disable, as cpupower idle-set -D ` +
    `${DEEP_EXIT_S * 1e6} does)`,
  effect(value, _gpus, ctx) {
    if (value === 'default') return none()
    if (ctx.simulated && live(ctx)) return none(['modelled by the simulator; the host is not changed'])
    const { writes, cpus } = deepStateWrites(ctx.root)
    if (cpus === 0) return { ...none(), skip: `no cpuidle states under ${join(ctx.root, 'sys/devices/system/cpu')}` }
    if (writes.length === 0) return none(['no enabled state deeper than the bound: already shallow'])
    if (live(ctx) && !ctx.asRoot)
      return { ...none(), skip: `needs root to write ${writes.length} cpuidle disable files (run as root)` }
    return { writes, prefix: [], notes: [`disables ${writes.length} deep idle states over ${cpus} CPUs`] }
  },
}

/** The NUMA node of a GPU from sysfs, when known. */
function gpuNode(root: string, busId: string | undefined): number | undefined {
  const n = Number(read(join(root, 'sys/bus/pci/devices', busId ?? '-', 'numa_node')))
  return Number.isInteger(n) && n >= 0 ? n : undefined
}

const numa: Knob = {
  name: 'numa',
  values: ['local', 'remote'],
  describe:
    "local: the benchmark's CPUs and memory (its pinned staging buffers) bound to the GPUs' " +
    'NUMA node; remote: to another node (numactl --cpunodebind --membind)',
  effect(value, gpus, ctx) {
    if (ctx.simulated && live(ctx)) return none(['modelled by the simulator; nothing is bound'])
    const nodes = list(join(ctx.root, 'sys/devices/system/node'))
      .map((n) => /^node(\d+)$/.exec(n)?.[1])
      .filter((n): n is string => n !== undefined)
      .map(Number)
    const skip = (why: string): KnobEffect => ({ ...none(), skip: why })
    if (nodes.length < 2) return skip(`only ${nodes.length} NUMA node${nodes.length === 1 ? '' : 's'} exposed`)
    const homes = [...new Set(gpus.map((g) => gpuNode(ctx.root, ctx.busIds[g])))]
    const home = homes[0]
    if (homes.length !== 1 || home === undefined)
      return skip(
        home === undefined ? "the GPUs' NUMA node is unknown" : `the GPUs span NUMA nodes ${homes.join(', ')}`,
      )
    if (!ctx.has('numactl')) return skip('numactl is not installed')
    const node = value === 'local' ? home : (nodes.find((n) => n !== home) as number)
    return {
      writes: [],
      prefix: ['numactl', `--cpunodebind=${node}`, `--membind=${node}`],
      notes: [`bound to node ${node} (GPUs on ${home})`],
    }
  },
}

/** Every knob `--host-axis` knows. */
export const KNOBS: readonly Knob[] = [cstates, numa]

/** Parses `NAME=V1,V2` against the knobs: unknown knob or value → bad input. */
export function parseHostAxis(token: string): [string, string[]] {
  const m = /^([\w-]+)=(.+)$/.exec(token.trim())
  if (!m) throw badInput(`--host-axis ${token}: expected NAME=V1,V2 (e.g. cstates=default,shallow)`)
  const knob = KNOBS.find((k) => k.name === m[1])
  if (!knob)
    throw badInput(`--host-axis ${token}: unknown knob "${m[1]}" (known: ${KNOBS.map((k) => k.name).join(', ')})`)
  const values = (m[2] as string).split(',').map((v) => v.trim())
  const bad = values.find((v) => !knob.values.includes(v))
  if (bad !== undefined)
    throw badInput(`--host-axis ${token}: "${bad}" is not a value of ${knob.name} (${knob.values.join(', ')})`)
  if (new Set(values).size !== values.length) throw badInput(`--host-axis ${token}: a value is listed twice`)
  return [knob.name, values]
}

/** The combined effect of one host-axis combination on a point's GPUs. */
export function hostEffect(
  combo: Readonly<Record<string, string>>,
  gpus: readonly number[],
  ctx: KnobContext,
): KnobEffect {
  const out = none()
  for (const [name, value] of Object.entries(combo)) {
    const e = (KNOBS.find((k) => k.name === name) as Knob).effect(value, gpus, ctx)
    if (e.skip) return { ...out, skip: `${name}=${value}: ${e.skip}` }
    out.writes.push(...e.writes)
    out.prefix.push(...e.prefix)
    out.notes.push(...e.notes.map((n) => `${name}=${value}: ${n}`))
  }
  return out
}
