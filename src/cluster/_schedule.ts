/**
 * Node names and the node-pairs schedule. The round-robin (circle) method: fix the first
 * node, rotate the others one place per round; round r pairs position i with position
 * n−1−i. With an even node count that is n−1 rounds of n/2 disjoint pairs and every pair
 * exactly once; with an odd count a stand-in "bye" makes it even, so each of the n rounds
 * has (n−1)/2 pairs and one node sits out. The first K rounds are K disjoint perfect
 * matchings, so their union is K-regular (the `--pairs-per-node K` subset). Pure.
 */
import { badInput } from '../errors/index.ts'

/** One round of the node-pairs schedule: disjoint pairs run concurrently, and who sits out. */
export interface Round {
  /** 1-based round number. */
  round: number
  pairs: [string, string][]
  /** The node without a partner this round (odd node counts only). */
  idle?: string
}

/** Simulated node names `node01`…`nodeNN` (zero-padded to at least two digits). */
export function simNodeNames(n: number): string[] {
  if (!Number.isInteger(n) || n < 1) throw badInput(`--nodes: must be a whole number ≥ 1 (got ${n})`)
  const width = Math.max(2, String(n).length)
  return Array.from({ length: n }, (_, i) => `node${String(i + 1).padStart(width, '0')}`)
}

/**
 * The round-robin schedule of `nodes` (circle method), all rounds or the first `perNode`
 * (a k-regular subset: every node in `perNode` pairs, an odd count's idle nodes one fewer).
 */
export function roundRobin(nodes: readonly string[], perNode?: number): Round[] {
  const n = nodes.length
  if (n < 2) throw badInput(`node-pairs needs at least 2 nodes (got ${n})`)
  const odd = n % 2 === 1
  const slots: (string | undefined)[] = odd ? [...nodes, undefined] : [...nodes]
  const m = slots.length
  const total = m - 1
  if (perNode !== undefined && (!Number.isInteger(perNode) || perNode < 1 || perNode > n - 1))
    throw badInput(`--pairs-per-node: must be a whole number from 1 to ${n - 1} for ${n} nodes (got ${perNode})`)
  const rounds: Round[] = []
  for (let r = 0; r < Math.min(total, perNode ?? total); r++) {
    const pairs: [string, string][] = []
    let idle: string | undefined
    for (let i = 0; i < m / 2; i++) {
      const a = slots[i]
      const b = slots[m - 1 - i]
      if (a === undefined || b === undefined) idle = a ?? b
      else pairs.push(a < b ? [a, b] : [b, a])
    }
    rounds.push({ round: r + 1, pairs, ...(idle !== undefined ? { idle } : {}) })
    // Rotate every slot but the first one place.
    slots.splice(1, 0, slots.pop())
  }
  return rounds
}

/** Node counts of the scaling pattern: 2, 4, 8, … up to n, and n itself. */
export function scalingCounts(n: number): number[] {
  if (n < 2) throw badInput(`scaling needs at least 2 nodes (got ${n})`)
  const out: number[] = []
  for (let k = 2; k < n; k *= 2) out.push(k)
  out.push(n)
  return out
}
