import { badInput } from '../errors/index.ts'
import { allPairs, formatGpuList } from '../lists/index.ts'
import { shuffle } from '../random/index.ts'
import type { BestGroups } from './_groupings.ts'
import { resolveGroupings } from './_groupings.ts'
import type { BenchKind, Plan, Point, SkippedPoint, SweepSpec } from './_types.ts'

/** The most points a plan holds (a sweep of 8 GPUs with every axis is a few hundred). */
const MAX_POINTS = 100_000

/** A bench an instrument offers; the plan crosses it with the spec's axes. */
export interface BenchDef {
  instrument: string
  /** Row bench family, e.g. "p2p", "nccl.all_reduce". */
  bench: string
  kind: BenchKind
  collective?: string
  /** Pairs benches: one launch measures every pair (a matrix) or one pair per launch. */
  pairMode?: 'matrix' | 'per-pair'
}

/** What the plan needs besides the spec. */
export interface PlanContext {
  benches: readonly BenchDef[]
  /** Groups for the `best` grouping, or why there are none. */
  best?: BestGroups
}

/** One measurement configuration before trials are crossed in. */
interface Config {
  base: string
  point: Omit<Point, 'id' | 'trial'>
}

/**
 * Expands a spec into points: benches × (pairs | groupings) × env combinations × trials,
 * with stable ids (`bench~where[~ENV=V…]~tN`), in interleaved (trial-major round robin)
 * or seeded shuffled order. Pure.
 */
export function plan(spec: SweepSpec, ctx: PlanContext): Plan {
  const configs: Config[] = []
  const skipped: SkippedPoint[] = []
  const { groupings, skips } = resolveGroupings(spec.groupings, spec.gpus, ctx.best)
  for (const b of ctx.benches) {
    if (b.kind === 'pairs') configs.push(...pairConfigs(spec, b))
    else {
      for (const s of skips) skipped.push({ id: `${b.bench}~${s.name}`, reason: s.reason })
      for (const g of groupings) {
        for (const env of envCombos(spec.env)) {
          configs.push({
            base: [b.bench, g.name, ...Object.entries(env).map(([k, v]) => `${k}=${v}`)].join('~'),
            point: {
              instrument: b.instrument,
              bench: b.bench,
              kind: 'collective',
              collective: b.collective ?? b.bench,
              grouping: g.name,
              groups: g.groups,
              sizes: spec.sizes,
              env,
            },
          })
        }
      }
    }
  }
  const ids = new Set<string>()
  for (const c of configs) {
    if (ids.has(c.base))
      throw badInput(`the plan has two points named ${c.base}; list each instrument and grouping once`)
    ids.add(c.base)
  }
  const crossed = withHostAxes(configs, spec.host ?? [])
  if (crossed.length * spec.trials > MAX_POINTS)
    throw badInput(
      `the plan has ${crossed.length * spec.trials} points (${crossed.length} configurations × ` +
        `${spec.trials} trials); a plan holds at most ` +
        `${MAX_POINTS}: narrow --gpus, --pairs, --groupings, --env or --trials`,
    )
  let points: Point[] = []
  for (let t = 1; t <= spec.trials; t++) {
    for (const c of crossed) points.push({ id: `${c.base}~t${t}`, ...c.point, trial: t })
  }
  if (spec.order === 'shuffled') points = shuffle(points, spec.seed)
  return { points, skipped }
}

function pairConfigs(spec: SweepSpec, b: BenchDef): Config[] {
  if (spec.pairs === 'none') return []
  const pairs = spec.pairs
  if (pairs.length === 0) return []
  const point = (groups: number[][], ps: [number, number][]): Omit<Point, 'id' | 'trial'> => ({
    instrument: b.instrument,
    bench: b.bench,
    kind: 'pairs',
    groups,
    pairs: ps,
    sizes: spec.sizes,
    env: {},
  })
  if (b.pairMode === 'per-pair') {
    return pairs.map((p) => ({ base: `${b.bench}~${p[0]}>${p[1]}`, point: point([[p[0], p[1]]], [p]) }))
  }
  const used = spec.gpus.filter((g) => pairs.some((p) => p[0] === g || p[1] === g))
  const self = pairs.length === used.length && pairs.every(([a, b]) => a === b)
  const every = !self && pairs.length === allPairs(used).length
  const where = every
    ? formatGpuList(used)
    : self
      ? `${formatGpuList(used)}:self`
      : `${formatGpuList(used)}:${pairs.length}pairs`
  return [{ base: `${b.bench}~${where}`, point: point([used], pairs) }]
}

/** Every config once per host-axis combination (ids gain `~NAME=VALUE`); unchanged without host axes. */
function withHostAxes(configs: readonly Config[], axes: readonly [string, string[]][]): Config[] {
  if (axes.length === 0) return [...configs]
  return configs.flatMap((c) =>
    envCombos(axes).map((host) => ({
      base: [c.base, ...Object.entries(host).map(([k, v]) => `${k}=${v}`)].join('~'),
      point: { ...c.point, host },
    })),
  )
}

/** The cartesian product of env axes, in axis order; one empty combination without axes. */
export function envCombos(axes: readonly [string, string[]][]): Record<string, string>[] {
  let out: Record<string, string>[] = [{}]
  for (const [name, values] of axes) {
    const next: Record<string, string>[] = []
    for (const c of out) for (const v of values) next.push({ ...c, [name]: v })
    out = next
  }
  return out
}

/**
 * The fields that define what a point measures (the resume key is built from these plus
 * the instrument hash): the same definition means the same measurement.
 */
export function pointDefinition(p: Point, spec: SweepSpec): string {
  return JSON.stringify({
    id: p.id,
    instrument: p.instrument,
    bench: p.bench,
    groups: p.groups,
    pairs: p.pairs ?? null,
    sizes: p.sizes,
    env: p.env,
    ...(p.host ? { host: p.host } : {}),
    trial: p.trial,
    warmup: spec.warmup,
    iters: spec.iters,
    preset: spec.preset ?? null,
    launcher: spec.launcher,
  })
}
