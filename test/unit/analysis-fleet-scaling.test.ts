/**
 * The scaling pattern against NCCL's model (src/analysis/fleet/_fleet-scaling.ts) on generated rows
 * (generated-scaling): the expected model values are worked out by hand below from tuning.cc's
 * constants (PCI/Simple 8.4 + 5.7 µs per hop, NET Simple 14.0 µs; LL: Ring base 6.6, NET 2.7 µs;
 * Tree base 6.8, NET 5.0 µs) and written as numbers, not computed by the code under test.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { analyzeFleet, scalingTable } from '../../src/analysis/index.ts'
import type { Row } from '../../src/model/index.ts'
import { makeRow } from '../../src/model/index.ts'
import { MIB, nodeNames, SIZES } from '../analysis/fleet-rows.ts'

const S = 128 * MIB
const US = 1e-6
let line = 0
/**
 * all_reduce rows of one node count: busbw `bw` and time `t` at the largest size (trials ×0.99 and
 * ×1.01: median exact), time `lat` at the small sizes, half the busbw at 8 and 32 MiB.
 */
function point(m: number, ranks: number | null, bw: number, t: number, lat: number, bench = 'nccl.all_reduce'): Row[] {
  const host = nodeNames(m).join(',')
  const out: Row[] = []
  for (const [trial, w] of [
    [0, 0.99],
    [1, 1.01],
  ] as const)
    SIZES.forEach((size, i) => {
      const base = { bench, host, grouping: 'scaling', ranks, sizeBytes: size, trial }
      const source = { file: 'generated-scaling', line: ++line }
      const busbw = i === 5 ? bw * w : i >= 3 ? bw / 2 : bw / 1000
      const time = i === 5 ? t * (2 - w) : i >= 3 ? t / 4 : lat * w
      out.push(makeRow({ ...base, metric: 'busbw', unit: 'B/s', value: busbw, source }))
      out.push(makeRow({ ...base, metric: 'time', unit: 's', value: time, source }))
    })
  return out
}
const near = (a: number, b: number, what: string, rel = 1e-4) =>
  assert.ok(Math.abs(a - b) <= rel * Math.abs(b) + 1e-12, `${what}: ${a} vs ${b}`)

// The anchor, 2 nodes × 8 GPUs (n = 16): Simple α = 8.4 + (30 − 4)·5.7 + 4·14 = 212.6 µs; its
// 128 MiB takes 10.2126 ms, so the wire moves f·S = 30/16 · 128 MiB in 10 ms: β = 25.165824 GB/s.
// busbw = f·S / t = 251,658,240 B / 10.2126 ms. LL: 43.4 µs = 6.6 + 26·intra + 4·2.7: intra 1 µs.
const anchor = point(2, 16, 251658240 / 10.2126e-3, 10.2126e-3, 43.4 * US)
// 4 nodes (n = 32): α = 8.4 + 54·5.7 + 8·14 = 428.2 µs, f·S = 62/32 · S in 10.3333 ms at β:
// model busbw 24.16448 GB/s; measured half of it. LL Ring 6.6 + 54 + 8·2.7 = 82.2 µs (measured),
// Tree 6.8 + 2·(7 + 2·5) = 40.8 µs.
const four = point(4, 32, 24.16448e9 / 2, 1e-3, 82.2 * US)
// 8 nodes (n = 64): α = 8.4 + 110·5.7 + 16·14 = 859.4 µs, 10.5 ms on the wire: 23.26189 GB/s
// (measured). Ring 6.6 + 110 + 16·2.7 = 159.8 µs, Tree 6.8 + 2·(7 + 3·5) = 50.8 µs (measured).
const eight = point(8, 64, 23.26189e9, 1e-3, 50.8 * US)

test('each node count against the model: busbw at the largest size, Ring and Tree latency, the faster picked', () => {
  // Given out of order, with another bench's scaling rows that must not count.
  const other = point(2, 16, 1e9, 1, 1).map((r) => ({ ...r, grouping: 'tp8' }))
  const rows = [...eight, ...point(4, 32, 1e9, 1, 1, 'nccl.all_gather'), ...four, ...other, ...anchor]
  const s = analyzeFleet(rows, nodeNames(8)).scaling
  assert.deepEqual(
    s.map((p) => [p.nodes, p.gpusPerNode, p.sizeBytes]),
    [
      [2, 8, S],
      [4, 8, S],
      [8, 8, S],
    ],
  )
  const [two, m4, m8] = s as [(typeof s)[0], (typeof s)[0], (typeof s)[0]]
  near(two.busbwBps, 251658240 / 10.2126e-3, 'anchor busbw')
  near(two.model.busbwBps, 251658240 / 10.2126e-3, 'anchor model busbw')
  assert.ok(Math.abs(two.gap.busbw) < 1e-9)
  near(two.latencyS, 43.4 * US, 'anchor latency')
  near(two.model.ringS, 43.4 * US, 'anchor Ring')
  near(two.model.treeS, 30.8 * US, 'anchor Tree')
  near(m4.busbwBps, 24.16448e9 / 2, 'busbw at 4 nodes')
  near(m4.model.busbwBps, 24.16448e9, 'model busbw at 4 nodes')
  near(m4.vsModel, 0.5, 'vs model at 4 nodes')
  near(m4.gap.busbw, -0.5, 'busbw gap at 4 nodes')
  near(m4.model.ringS, 82.2 * US, 'Ring at 4 nodes')
  near(m4.model.treeS, 40.8 * US, 'Tree at 4 nodes')
  assert.ok(Math.abs(m4.gap.ring) < 1e-9, String(m4.gap.ring))
  near(m4.gap.tree, 82.2 / 40.8 - 1, 'Tree gap at 4 nodes')
  assert.equal(m4.model.algorithm, 'tree')
  near(m4.model.latencyS, 40.8 * US, 'NCCL pick at 4 nodes')
  near(m4.gap.latency, 82.2 / 40.8 - 1, 'latency gap at 4 nodes')
  near(m8.model.busbwBps, 23.26189e9, 'model busbw at 8 nodes')
  assert.ok(Math.abs(m8.gap.busbw) < 1e-5, String(m8.gap.busbw))
  near(m8.model.ringS, 159.8 * US, 'Ring at 8 nodes')
  near(m8.gap.ring, 50.8 / 159.8 - 1, 'Ring gap at 8 nodes')
  assert.ok(Math.abs(m8.gap.tree) < 1e-9 && Math.abs(m8.gap.latency) < 1e-9, `${m8.gap.tree} ${m8.gap.latency}`)
})

test('one GPU per node: no intra-node step, Ring the faster; the fabric caps the bandwidth', () => {
  // n = m: Ring 6.6 + 2m·2.7 µs (every step crosses a node): 12.0 µs at 2 nodes, 22.8 at 4 (min(6, 8)
  // = 6 steps); Tree 6.8 + 2·log2(m)·5.0: 16.8 and 26.8 µs. Rows without ranks: one GPU per node.
  const s = analyzeFleet([...point(2, null, 10e9, 20e-3, 12 * US), ...point(4, null, 10e9, 20e-3, 30 * US)], []).scaling
  assert.deepEqual(
    s.map((p) => [p.nodes, p.gpusPerNode, p.model.algorithm]),
    [
      [2, 1, 'ring'],
      [4, 1, 'ring'],
    ],
  )
  near(s[0]?.model.ringS ?? 0, 12 * US, 'Ring, 2 nodes')
  near(s[0]?.model.treeS ?? 0, 16.8 * US, 'Tree, 2 nodes')
  near(s[1]?.model.ringS ?? 0, 22.8 * US, 'Ring, 4 nodes')
  near(s[1]?.model.treeS ?? 0, 26.8 * US, 'Tree, 4 nodes')
  near(s[1]?.gap.latency ?? 0, 30 / 22.8 - 1, 'latency gap, 4 nodes')
  // The socket fabric carries 12.5 GB/s × 0.5: β = 6.25 GB/s, below the anchor's 25.17; the
  // model's busbw at 2 nodes: 251,658,240 B / (212.6 µs + 251,658,240 B / 6.25 GB/s).
  const capped = analyzeFleet(anchor, [], 'socket').scaling[0]
  near(capped?.model.busbwBps ?? 0, 251658240 / (212.6e-6 + 251658240 / 6.25e9), 'socket-capped model busbw')
  // An anchor faster than α alone (100 µs < 212.6 µs): β is the line rate, 45 GB/s.
  const fast = analyzeFleet(point(2, 16, 1e12, 100 * US, 43.4 * US), []).scaling[0]
  near(fast?.model.busbwBps ?? 0, 251658240 / (212.6e-6 + 251658240 / 45e9), 'model busbw at the line rate')
  // InfiniBand (45 GB/s) does not cap it; an unknown fabric is InfiniBand.
  for (const fabric of ['ib', 'no-such-fabric', undefined])
    near(analyzeFleet(anchor, [], fabric).scaling[0]?.model.busbwBps ?? 0, 251658240 / 10.2126e-3, String(fabric))
})

test('the scaling table: one row per node count, measured beside the model, gaps signed', () => {
  const t = scalingTable(analyzeFleet([...anchor, ...four], nodeNames(4)))
  assert.deepEqual(t.header, [
    'nodes',
    'busbw',
    'model busbw',
    'gap',
    'time (small)',
    'Ring model',
    'gap',
    'Tree model',
    'gap',
    'NCCL picks',
  ])
  assert.equal(t.rows.length, 2)
  const [r2, r4] = t.rows as [string[], string[]]
  assert.deepEqual(
    [r2[0], r2[3], r2[4], r2[5], r2[7], r2[8], r2[9]],
    ['2 × 8 GPUs', '+0.0 %', '43.4 µs', '43.4 µs', '30.8 µs', '+40.9 %', 'tree'],
  )
  assert.deepEqual([r4[0], r4[3], r4[6], r4[8]], ['4 × 8 GPUs', '-50.0 %', '+0.0 %', '+101.5 %'])
  assert.match(r4[1] as string, /^12\.0\d* GB\/s$/)
  assert.match(r4[2] as string, /^24\.1\d* GB\/s$/)
  assert.deepEqual(scalingTable(analyzeFleet(four.slice(0, 0), [])).rows, [])
})
