/**
 * Grouping advice: every way to split the GPUs into tensor-parallel groups of one size,
 * ranked by the worst and then the mean cost of the GPU pairs inside the groups.
 */

import { formatGpuList } from '../lists/index.ts'
import { p2pBlocked } from './_pairs.ts'
import type { Grouping, TopologyReport, TopoPair } from './_types.ts'

/** More candidate groupings than this are not enumerated (contiguous/strided/greedy instead). */
const MAX_ENUMERATED = 200_000

function* combinations(items: readonly number[], k: number, start = 0): Generator<number[]> {
  if (k === 0) return yield []
  for (let i = start; i <= items.length - k; i++)
    for (const rest of combinations(items, k - 1, i + 1)) yield [items[i] as number, ...rest]
}

/** Sets of floor(n/k) disjoint groups of k (the remaining n mod k GPUs stay idle). */
function* partitions(items: readonly number[], k: number, idle: number): Generator<number[][]> {
  if (items.length === 0) return yield []
  const [first, ...rest] = items as [number, ...number[]]
  for (const comb of combinations(rest, k - 1)) {
    const left = rest.filter((x) => !comb.includes(x))
    for (const p of partitions(left, k, idle)) yield [[first, ...comb], ...p]
  }
  if (idle > 0) yield* partitions(rest, k, idle - 1)
}

function countPartitions(n: number, k: number): number {
  const m = Math.floor(n / k)
  const f = (x: number): number => (x <= 1 ? 1 : x * f(x - 1))
  return f(n) / (f(k) ** m * f(m) * f(n - m * k))
}

/** Contiguous, strided and greedy candidates for machines too large to enumerate. */
function heuristics(items: readonly number[], k: number, cost: (a: number, b: number) => number): number[][][] {
  const m = Math.floor(items.length / k)
  const contiguous = Array.from({ length: m }, (_, g) => items.slice(g * k, g * k + k))
  const strided = Array.from({ length: m }, (_, g) => items.filter((_, i) => i % m === g).slice(0, k))
  const left = [...items]
  const greedy: number[][] = []
  while (greedy.length < m) {
    const group = [left.shift() as number]
    while (group.length < k) {
      left.sort((x, y) => Math.max(...group.map((g) => cost(g, x))) - Math.max(...group.map((g) => cost(g, y))))
      group.push(left.shift() as number)
    }
    greedy.push(group.sort((a, b) => a - b))
  }
  return [contiguous, strided, greedy]
}

function describeGroup(
  group: readonly number[],
  report: TopologyReport,
  pair: (a: number, b: number) => TopoPair | undefined,
): string {
  const inside = group
    .flatMap((a, i) => group.slice(i + 1).map((b) => pair(a, b)))
    .filter((p): p is TopoPair => p !== undefined)
  const links = [...new Set(inside.map((p) => p.link ?? '?'))].join('/')
  const numas = [...new Set(group.map((i) => report.gpus.find((g) => g.index === i)?.numa))]
  const parts = [links || '?']
  if (inside.length > 0 && inside.every((p) => p.sameSwitch)) parts.push('one PCIe switch')
  if (numas.length === 1 && numas[0] !== undefined) parts.push(`NUMA ${numas[0]}`)
  else if (numas.every((n) => n !== undefined)) parts.push(`NUMA ${numas.join('+')}`)
  if (inside.some(p2pBlocked)) parts.push('P2P unavailable (host-staged)')
  return `{${formatGpuList([...group].sort((a, b) => a - b))}}: ${parts.join(', ')}`
}

/**
 * Every grouping of the report's GPUs into groups of `groupSize`, best first (lowest
 * worst pair cost, then lowest mean, then lowest GPU numbers). Empty when the size does
 * not fit (fewer GPUs than `groupSize`, or a size below 2).
 */
export function rankGroupings(report: TopologyReport, groupSize: number): Grouping[] {
  const items = report.gpus.map((g) => g.index).sort((a, b) => a - b)
  if (groupSize < 2 || groupSize > items.length) return []
  const byKey = new Map(report.pairs.map((p) => [`${p.a}-${p.b}`, p]))
  const pair = (a: number, b: number): TopoPair | undefined => byKey.get(a < b ? `${a}-${b}` : `${b}-${a}`)
  const cost = (a: number, b: number): number => pair(a, b)?.cost ?? 5
  const idle = items.length % groupSize
  const candidates =
    countPartitions(items.length, groupSize) <= MAX_ENUMERATED
      ? partitions(items, groupSize, idle)
      : heuristics(items, groupSize, cost)
  const scored: Grouping[] = []
  for (const groups of candidates) {
    const costs = groups.flatMap((g) => g.flatMap((a, i) => g.slice(i + 1).map((b) => cost(a, b))))
    const worstCost = Math.max(...costs)
    const meanCost = costs.reduce((s, c) => s + c, 0) / costs.length
    scored.push({ size: groupSize, groups, worstCost, meanCost, reason: '' })
  }
  const flat = (g: Grouping): string =>
    g.groups.map((x) => x.map((i) => String(i).padStart(4, '0')).join(',')).join(';')
  scored.sort((x, y) => x.worstCost - y.worstCost || x.meanCost - y.meanCost || flat(x).localeCompare(flat(y)))
  const best = scored[0]
  const ties = best
    ? scored.filter((o) => o.worstCost === best.worstCost && Math.abs(o.meanCost - best.meanCost) < 1e-9).length - 1
    : 0
  for (const g of scored) {
    const alike = ties === scored.length - 1 ? ' (every pair looks alike: the topology gives no preference)' : ''
    const tie = g === best && ties > 0 ? ` ${ties} other grouping${ties === 1 ? '' : 's'} cost the same${alike}.` : ''
    g.reason =
      `TP${groupSize} ` +
      `${g.groups.map((x) => describeGroup(x, report, pair)).join('; ')}; worst pair cost ` +
      `${g.worstCost}, mean ${+g.meanCost.toFixed(2)}.${tie}`
  }
  return scored
}

/** The best few groupings for each TP size (2, 4, 8) the GPU count allows. */
export function adviseGroupings(report: TopologyReport, perSize = 3): Grouping[] {
  return [2, 4, 8].flatMap((k) => rankGroupings(report, k).slice(0, perSize))
}
