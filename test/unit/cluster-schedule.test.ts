/** The node-pairs schedule (circle method), the k-regular subset and the scaling counts (issue 16). */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { roundRobin, scalingCounts, simNodeNames } from '../../src/cluster/index.ts'

/** Checks the schedule's invariants independently: disjoint pairs per round, each pair at most once. */
function check(nodes: string[], rounds: ReturnType<typeof roundRobin>): { degree: Map<string, number>; pairs: number } {
  const seen = new Set<string>()
  const degree = new Map(nodes.map((n) => [n, 0]))
  for (const r of rounds) {
    const busy = new Set<string>()
    for (const [a, b] of r.pairs) {
      assert.notEqual(a, b)
      assert.ok(!busy.has(a) && !busy.has(b), `round ${r.round}: ${a} or ${b} is in two pairs`)
      busy.add(a)
      busy.add(b)
      const key = [a, b].sort().join('+')
      assert.ok(!seen.has(key), `pair ${key} scheduled twice`)
      seen.add(key)
      degree.set(a, (degree.get(a) ?? 0) + 1)
      degree.set(b, (degree.get(b) ?? 0) + 1)
    }
    if (r.idle !== undefined) assert.ok(!busy.has(r.idle), `round ${r.round}: the idle node also plays`)
    assert.equal(busy.size + (r.idle === undefined ? 0 : 1), nodes.length, `round ${r.round} leaves a node out`)
  }
  return { degree, pairs: seen.size }
}

test('node names: node01…node16, padded to the widest number (node001…node256)', () => {
  assert.deepEqual(simNodeNames(3), ['node01', 'node02', 'node03'])
  assert.equal(simNodeNames(16)[15], 'node16')
  assert.deepEqual([simNodeNames(256)[0], simNodeNames(256)[255]], ['node001', 'node256'])
})

test('even N: N−1 rounds of N/2 disjoint pairs, every pair exactly once (16 and 256 nodes)', () => {
  for (const n of [2, 4, 16, 256]) {
    const nodes = simNodeNames(n)
    const rounds = roundRobin(nodes)
    assert.equal(rounds.length, n - 1)
    for (const r of rounds) assert.equal(r.pairs.length, n / 2)
    assert.equal(check(nodes, rounds).pairs, (n * (n - 1)) / 2)
  }
})

test('odd N: N rounds of (N−1)/2 pairs, every node sits out exactly once, every pair once', () => {
  const nodes = simNodeNames(7)
  const rounds = roundRobin(nodes)
  assert.equal(rounds.length, 7)
  for (const r of rounds) assert.equal(r.pairs.length, 3)
  assert.deepEqual(rounds.map((r) => r.idle).sort(), nodes)
  assert.equal(check(nodes, rounds).pairs, 21)
})

test('--pairs-per-node K: K rounds, every node in exactly K pairs (k-regular)', () => {
  const nodes = simNodeNames(64)
  const rounds = roundRobin(nodes, 5)
  assert.equal(rounds.length, 5)
  const { degree } = check(nodes, rounds)
  for (const [n, d] of degree) assert.equal(d, 5, `${n} is in ${d} pairs`)
})

test('bad counts: fewer than 2 nodes or K outside 1…N−1 are bad input', () => {
  assert.throws(() => roundRobin(['a']), /at least 2 nodes/)
  assert.throws(() => roundRobin(simNodeNames(4), 4), /1 to 3/)
  assert.throws(() => roundRobin(simNodeNames(4), 0), /1 to 3/)
  assert.throws(() => simNodeNames(0), /--nodes/)
})

test('scaling: 2, 4, 8 … and N itself', () => {
  assert.deepEqual(scalingCounts(16), [2, 4, 8, 16])
  assert.deepEqual(scalingCounts(12), [2, 4, 8, 12])
  assert.deepEqual(scalingCounts(2), [2])
})
