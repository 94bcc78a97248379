/**
 * Intermittent faults in the fleet analysis (src/analysis/fleet/_fleet-tail.ts, and how _fleet.ts
 * names them) on generated rows (test/analysis/fleet-rows.ts): a node whose links are slow in
 * some cells only is a flapping NIC with its counts; one slow often enough to move its median is
 * named for the flapping too; one bad link or a consistently slow node is not a flap.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { intermittentNodes } from '../../src/analysis/fleet/_fleet-tail.ts'
import type { FleetOutlier } from '../../src/analysis/index.ts'
import { analyzeFleet } from '../../src/analysis/index.ts'
import type { Row } from '../../src/model/index.ts'
import { MIB, NET_BW, nodeNames, pairRows, perNodeRows } from '../analysis/fleet-rows.ts'

const N8 = nodeNames(8)
const names = (o: readonly FleetOutlier[]): string[] => o.map((x) => `${x.kind}:${x.hosts.join('+')}:${x.metric}`)
/** Cells of trial 0 at the large sizes `at` (indexes 3–5) of every link of `node`, times `f`. */
const flap =
  (node: string, at: number[], f = 0.25) =>
  (hosts: string[], t: number, i: number, v: number): number =>
    hosts.includes(node) && t === 0 && at.includes(i) ? v * f : v

test('a flapping NIC: a third of its cells slow, its median normal, named by its tail with the counts', () => {
  const f = analyzeFleet([...perNodeRows(N8), ...pairRows(N8, {}, flap('node07', [3, 4]))], N8)
  assert.deepEqual(names(f.outliers), ['node:node07:net.busbw.tail'])
  const o = f.outliers[0] as FleetOutlier
  // 7 links × 6 cells at the large sizes (8, 32, 128 MiB, two trials); 2 of each link's 6 slow.
  assert.match(
    o.mechanism,
    /^a flapping NIC: 14 of 42 network cells on 7 of its 7 links at ×0\.25 of the fleet median, the rest normal \(median ×1\.00\); spread \(IQR\/median\) 0\.76 against the fleet's 0\.01: the port drops its rate intermittently/,
  )
  assert.equal(o.evidence.length, 1)
  assert.match(
    o.evidence[0] as string,
    /^net\.busbw: 14 of 42 cells ×0\.25 of the fleet median on 7 of 7 links \(binomial p \S+ at the other links' rate\), median ×1\.00, IQR\/median 0\.76 vs 0\.01 \(z \d+\.\d\)$/,
  )
  assert.ok(Math.abs(o.delta + 0.75) < 0.01, String(o.delta))
  assert.equal(o.fleetMedian, NET_BW)
  assert.ok(Math.abs(o.value - 0.25 * NET_BW) < 0.01 * NET_BW, String(o.value))
  assert.ok(o.z > 3.5, String(o.z))
  assert.ok(o.p > 0 && o.p < 0.05 / 8, String(o.p))
})

test('a flap slow often enough to move the median: one outlier, named for the flapping unless latency moved too', () => {
  const half = flap('node07', [3, 4, 5])
  const f = analyzeFleet([...perNodeRows(N8), ...pairRows(N8, {}, half)], N8)
  assert.deepEqual(names(f.outliers), ['node:node07:net.busbw'])
  assert.match(
    f.outliers[0]?.mechanism ?? '',
    /^a flapping NIC: 21 of 42 network cells on 7 of its 7 links at ×0\.25 of the fleet median, the rest normal \(median ×0\.63\); spread \(IQR\/median\) 1\.20 against the fleet's 0\.01/,
  )
  const g = analyzeFleet([...perNodeRows(N8), ...pairRows(N8, { node07: { netLat: 3 } }, half)], N8)
  assert.deepEqual(names(g.outliers), ['node:node07:net.latency'])
  assert.match(
    g.outliers[0]?.mechanism ?? '',
    /^no P2P on this node: network latency ×3\.00, bandwidth ×0\.6\d on every link/,
  )
})

test('not a flap: slow on every cell, slow on one link, or fast cells; the small sizes do not count', () => {
  // Every cell slow: the median analysis names the NIC.
  const slow = analyzeFleet(pairRows(N8, { node03: { netBw: 0.25 } }), N8).outliers
  assert.deepEqual(names(slow), ['node:node03:net.busbw'])
  assert.match(slow[0]?.mechanism ?? '', /^the node's NIC/)
  // One link slow in all its cells: a link outlier, not a flapping node at either end.
  const link = (h: string[], _t: number, i: number, v: number) => (h.join() === 'node02,node05' && i >= 3 ? v / 4 : v)
  assert.deepEqual(names(analyzeFleet(pairRows(N8, {}, link), N8).outliers), ['link:node02+node05:net.busbw'])
  // Fast cells are not slow ones; slow cells at the small sizes are not network-bound.
  assert.deepEqual(analyzeFleet(pairRows(N8, {}, flap('node07', [3, 4], 4)), N8).outliers, [])
  const small = (h: string[], t: number, i: number, v: number) => (h.includes('node07') && t === 0 && i < 2 ? v / 4 : v)
  assert.deepEqual(analyzeFleet(pairRows(N8, {}, small), N8).outliers, [])
})

/** The busbw cells at the large sizes per link, as the fleet analysis hands them on. */
function cellsOf(rows: readonly Row[]) {
  const m = new Map<string, { size: number; value: number }[]>()
  for (const r of rows)
    if (r.metric === 'busbw' && (r.sizeBytes as number) >= 8 * MIB)
      m.set(r.host as string, [...(m.get(r.host as string) ?? []), { size: r.sizeBytes as number, value: r.value }])
  return [...m].map(([k, cells]) => ({ hosts: k.split(','), cells }))
}

test('two flapping nodes: the larger share first, the second counted on the links left; slow on some links only', () => {
  // node07: 2 of 6 cells slow on each link; node03: 1 of 6 (2 on their shared link).
  const both = (h: string[], t: number, i: number, v: number) =>
    flap('node03', [3])(h, t, i, flap('node07', [3, 4])(h, t, i, v))
  const found = intermittentNodes(cellsOf(pairRows(N8, {}, both)))
  assert.deepEqual(
    found.map((t) => [t.node, t.slow, t.cells, t.slowLinks, t.links]),
    [
      ['node07', 14, 42, 7, 7],
      ['node03', 6, 36, 6, 6],
    ],
  )
  for (const t of found) {
    assert.ok(Math.abs(t.slowRatio - 0.25) < 0.01 && Math.abs(t.medianRatio - 1) < 0.01, JSON.stringify(t))
    assert.ok(t.p < 0.05 / 8, String(t.p))
  }
  // node07 slow on 5 of its 7 links (not those to node01 and node02).
  const some = (h: string[], t: number, i: number, v: number) =>
    h.includes('node01') || h.includes('node02') ? v : flap('node07', [3, 4])(h, t, i, v)
  const f = analyzeFleet([...perNodeRows(N8), ...pairRows(N8, {}, some)], N8)
  assert.match(f.outliers[0]?.mechanism ?? '', /^a flapping NIC: 10 of 42 network cells on 5 of its 7 links at ×0\.25/)
  assert.equal(f.outliers.length, 1)
})

test("two thirds of the cells slow is still a flap; a dip on every link is no node's", () => {
  // 4 of each link's 6 cells: 28 of 42, exactly two thirds.
  const most = (h: string[], t: number, i: number, v: number) =>
    h.includes('node07') && (t === 0 ? i >= 3 : i === 3) ? v / 4 : v
  const f = analyzeFleet([...perNodeRows(N8), ...pairRows(N8, {}, most)], N8)
  assert.deepEqual(names(f.outliers), ['node:node07:net.busbw'])
  assert.match(f.outliers[0]?.mechanism ?? '', /^a flapping NIC: 28 of 42 network cells/)
  const dips = (_h: string[], t: number, i: number, v: number) => (t === 0 && i === 5 ? v / 4 : v)
  assert.deepEqual(intermittentNodes(cellsOf(pairRows(N8, {}, dips))), [])
  assert.deepEqual(analyzeFleet(pairRows(N8, {}, dips), N8).outliers, [])
})

/** A link of `n` cells at one size, the first `slow` a quarter of the rest. */
const link = (hosts: string[], slow: number, n = 30) => ({
  hosts,
  cells: Array.from({ length: n }, (_, i) => ({ size: 1, value: i < slow ? 0.25 : 1 })),
})

test('three links are the fewest judged', () => {
  // Node a: 10 of 30 cells slow on each of its links, b–c clean.
  const found = intermittentNodes([link(['a', 'b'], 10), link(['a', 'c'], 10), link(['b', 'c'], 0)])
  assert.deepEqual(
    found.map((t) => [t.node, t.slow, t.cells]),
    [['a', 20, 60]],
  )
  assert.deepEqual(intermittentNodes([link(['a', 'b'], 10), link(['a', 'c'], 10)]), [])
})

test("the fleet's spread is the median of the other nodes' spreads, not the node's own", () => {
  // a flaps (10 of 30 cells slow on each link); b–d and c–d alternate 0.9 and 1.1. Spreads
  // (IQR/median of a node's cells): b 0.1, c 0.1, d 0.2, a 0.75. The others' median is 0.1;
  // with a's own 0.75 among them it would be 0.15.
  const wide = (hosts: string[]) => ({
    hosts,
    cells: Array.from({ length: 30 }, (_, i) => ({ size: 1, value: i % 2 ? 1.1 : 0.9 })),
  })
  const found = intermittentNodes([
    link(['a', 'b'], 10),
    link(['a', 'c'], 10),
    link(['a', 'd'], 10),
    link(['b', 'c'], 0),
    wide(['b', 'd']),
    wide(['c', 'd']),
  ])
  assert.deepEqual(
    found.map((t) => [t.node, t.slow, t.cells]),
    [['a', 30, 90]],
  )
  assert.ok(Math.abs((found[0]?.spread ?? 0) - 0.75) < 1e-12, String(found[0]?.spread))
  assert.ok(Math.abs((found[0]?.fleetSpread ?? 0) - 0.1) < 1e-12, String(found[0]?.fleetSpread))
})

test('judged on 6 cells or more besides the worst link, at 0.05 over the number of nodes', () => {
  // Node a: 2 slow cells on each of its two links; the worst left out, 2 of n cells against the
  // clean rest (rate 0.5 / (cells + 1)): 6 cells are judged (binomial tail 0.0097 ≤ 0.05 / 4)…
  const fleet = (n: number, restSlow = 0) => [
    link(['a', 'b'], 2, n),
    link(['a', 'c'], 2, n),
    link(['b', 'c'], 0, n),
    link(['b', 'd'], restSlow, n),
    link(['c', 'd'], 0, n),
  ]
  assert.deepEqual(
    intermittentNodes(fleet(6)).map((t) => [t.node, t.slow, t.cells, t.slowLinks, t.links]),
    [['a', 4, 12, 2, 2]],
  )
  // …3 are not (2 of 3 would be 0.0073).
  assert.deepEqual(intermittentNodes(fleet(3)), [])
  // One slow cell in the rest: rate 1.5 / 19, tail 0.076, above 0.05 / 4 (though below 0.05).
  assert.deepEqual(intermittentNodes(fleet(6, 1)), [])
})

test('two suspects in one round: the larger share of slow cells is explained first', () => {
  // n2: 12 of 60 cells slow on each link, n1: 6 of 60 (18 on their shared link); both beyond the
  // rest's rate in the first round. n2 first (90 of 420 cells), then n1 on its 6 links left.
  const nodes = ['n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7', 'n8']
  const share: Record<string, number> = { n1: 6, n2: 12 }
  const links = nodes.flatMap((a, i) =>
    nodes.slice(i + 1).map((b) => link([a, b], (share[a] ?? 0) + (share[b] ?? 0), 60)),
  )
  assert.deepEqual(
    intermittentNodes(links).map((t) => [t.node, t.slow, t.cells, t.links]),
    [
      ['n2', 90, 420, 7],
      ['n1', 36, 360, 6],
    ],
  )
})
