/**
 * `compare`: per bench and message size, the median time ± CI of every value of one axis
 * (`grouping` by default: TP8 vs TP4), the ratio slowest/fastest, the winner and a
 * Mann-Whitney p-value between the two fastest; one conclusion per size band; then, on
 * request, the decode model. A grouping of concurrent groups (TP4: two groups at once) is
 * one sample of trials, each the slowest of its groups, because the step waits for the
 * slowest group; `pool` takes, per trial, the median of every group's values instead. Like with like:
 * when the groupings at a size have different group counts (TP4's two against TP8's one), a
 * slowest-of-two against one group is biased slower, so each grouping's launch value is then
 * the median of its groups (the typical group, the same statistic on both sides). A winner is
 * named only where the test (p < 0.05) says the two fastest differ.
 */
import { badInput } from '../../errors/index.ts'
import type { Row } from '../../model/index.ts'
import type { ReadSet } from '../../resultset/index.ts'
import { mannWhitney, medianOf, sortSample, summarize } from '../../stats/index.ts'
import type { BenchComparison, Comparison, GroupingStat, ModelPreset, SizeComparison } from '../_types.ts'
import type { Cell } from './_compare-index.ts'
import { cellOf, indexTimes } from './_compare-index.ts'
import { conclusions } from './_conclusion.ts'
import { decodeModel } from './_decode.ts'

/** Options of `compareSet`. */
export interface CompareOptions {
  /** The axis to compare: `grouping` or any Row field (`p2p`, `placement`, `env.NCCL_PROTO`, …). */
  by?: string
  /** Run the decode model with this (resolved) preset. */
  model?: ModelPreset
  /** Pool the values of concurrent groups into one sample instead of the slowest group per trial. */
  pool?: boolean
}

/** The value of the `by` axis of a row, as a string; undefined when the row has none. */
export function axisValue(r: Row, by: string): string | undefined {
  if (by.startsWith('env.')) return r.env?.[by.slice(4)]
  if (by === 'host-axis')
    return r.hostAxis
      ? Object.entries(r.hostAxis)
          .map(([k, x]) => `${k}=${x}`)
          .join(',')
      : undefined
  if (by.startsWith('host-axis.')) return r.hostAxis?.[by.slice(10)]
  if (by === 'grouping' && r.grouping === undefined)
    return r.ranks !== null && r.src === null ? `ranks=${r.ranks}` : undefined
  const v = (r as unknown as Record<string, unknown>)[by]
  return v === undefined || v === null ? undefined : typeof v === 'object' ? JSON.stringify(v) : String(v)
}

const finiteOrNull = (v: number): number | null => (Number.isFinite(v) ? v : null)

/**
 * Each launch's value of each group: the median of what that group printed in that launch
 * (one value, however many iterations it printed), launch → group → value, in order of first
 * appearance. A launch is the unit of replication: iterations of one launch share its
 * clocks, placement and state, so they are not independent samples.
 */
function perLaunch(cell: Cell): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>()
  for (const [t, groups] of cell.launches)
    out.set(
      t,
      new Map([...groups].map(([g, vs]) => [g, vs.length === 1 ? (vs[0] as number) : medianOf(sortSample(vs))])),
    )
  return out
}

const maxOf = (cell: Cell): number[] => [...perLaunch(cell).values()].map((groups) => Math.max(...groups.values()))

/**
 * One value per trial: the slowest of the groups that ran in it (a decode step waits for
 * the slowest group), each group taken as the median of its values in that launch.
 */
export function perTrialMax(rows: readonly Row[]): number[] {
  return maxOf(cellOf(rows))
}

/**
 * `--pool`: one value per launch, the median of every value its groups printed in it (the
 * pooled launch value). Before, each group's launch value counted as one sample, so TP4's
 * two concurrent groups doubled n as if they were independent launches.
 */
const pooledPerLaunch = (cell: Cell): number[] =>
  [...cell.launches.values()].map((groups) => medianOf(sortSample([...groups.values()].flat())))

const medianOfGroups = (cell: Cell): number[] =>
  [...perLaunch(cell).values()].map((groups) => medianOf(sortSample([...groups.values()])))

function statOf(grouping: string, cell: Cell, pool: boolean, unlike: boolean): GroupingStat {
  const groups = cell.groups.map((group) => {
    const v = [...cell.launches.values()].flatMap((l) => l.get(group) ?? [])
    return { group, n: v.length, median: summarize(v).median }
  })
  // One value per launch on every path, so both sides of a test count launches, not iterations
  // (nor concurrent groups: they share the launch's clocks and state).
  const values = groups.length === 1 || pool ? pooledPerLaunch(cell) : unlike ? medianOfGroups(cell) : maxOf(cell)
  const s = summarize(values)
  return {
    grouping,
    n: s.n,
    median: s.median,
    ci: [finiteOrNull(s.ci[0]), finiteOrNull(s.ci[1])],
    combined: groups.length === 1 ? 'single' : pool ? 'pooled' : unlike ? 'median' : 'max',
    values,
    groups,
  }
}

function sizeComparison(sizeBytes: number, byValue: Map<string, Cell>, pool: boolean): SizeComparison {
  // Different group counts (TP4's two, TP8's one): the max of two against one is not like with like.
  const unlike = new Set([...byValue.values()].map((c) => c.groups.length)).size > 1
  const groupings = [...byValue]
    .map(([g, cell]) => statOf(g, cell, pool, unlike))
    .sort((a, b) => a.grouping.localeCompare(b.grouping))
  if (groupings.length < 2) return { sizeBytes, groupings, winner: null, ratio: null, p: null }
  const fast = [...groupings].sort((a, b) => a.median - b.median)
  const [a, b] = [fast[0] as GroupingStat, fast[1] as GroupingStat]
  const p = mannWhitney(a.values, b.values).p
  return {
    sizeBytes,
    groupings,
    // Only where the test says the two fastest differ: a lower median alone is not a winner.
    winner: Number.isFinite(p) && p < 0.05 ? a.grouping : null,
    ratio: (fast[fast.length - 1] as GroupingStat).median / a.median,
    p,
  }
}

/** The axes compare knows, less the one that found nothing, as a suggestion ("a, b or c"). */
function otherAxes(by: string): string {
  const rest = ['grouping', 'p2p', 'placement', 'env.NAME', 'host-axis'].filter((a) => a !== by)
  return `${rest.slice(0, -1).join(', ')} or ${rest[rest.length - 1]}`
}

/**
 * Compares the values of one axis in a set (pure): rows in memory or replayed (loadSamples),
 * read twice, keeping values and not rows (`indexTimes`).
 */
export function compareSet(set: ReadSet, opts: CompareOptions = {}): Comparison {
  const by = opts.by ?? 'grouping'
  const pool = opts.pool ?? false
  const { index: idx, any } = indexTimes(set.rows, (r) => axisValue(r, by))
  const warnings: string[] = []
  if (idx.size === 0 && opts.model)
    warnings.push(`no time rows with message sizes carry "${by}": nothing to compare, decode model only`)
  else if (idx.size === 0) {
    if (!any) throw badInput(`${set.dir}: no time rows with message sizes to compare`)
    throw badInput(`${set.dir}: no time rows carry "${by}"; try --by ${otherAxes(by)}`)
  }
  const benches: BenchComparison[] = [...idx]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([bench, sizes]) => {
      const all = new Set<string>()
      for (const m of sizes.values()) for (const g of m.keys()) all.add(g)
      if (all.size < 2) warnings.push(`${bench}: only ${[...all].join('')} measured; nothing to compare it with`)
      const list = [...sizes].sort(([a], [b]) => a - b).map(([size, m]) => sizeComparison(size, m, pool))
      const ranks = ranksOf(sizes)
      return {
        bench,
        metric: 'time' as const,
        groupings: [...all].sort(),
        sizes: list,
        conclusions: conclusions(bench, list, ranks),
      }
    })
  const decode = opts.model ? decodeModel(set, opts.model) : null
  const { simulated, simScale } = set.manifest
  return {
    dir: set.dir,
    id: set.manifest.id,
    simulated,
    ...(simScale !== undefined ? { simScale } : {}),
    by,
    pool,
    benches,
    decode,
    warnings,
  }
}

/** Ranks of each axis value when all its rows agree (what the α–β reason needs). */
function ranksOf(sizes: Map<number, Map<string, Cell>>): Map<string, number> {
  const seen = new Map<string, Set<number | null>>()
  for (const m of sizes.values())
    for (const [g, cell] of m) {
      const s = seen.get(g) ?? new Set<number | null>()
      for (const r of cell.ranks) s.add(r)
      seen.set(g, s)
    }
  const out = new Map<string, number>()
  for (const [g, s] of seen) {
    const only = [...s][0]
    if (s.size === 1 && typeof only === 'number') out.set(g, only)
  }
  return out
}
