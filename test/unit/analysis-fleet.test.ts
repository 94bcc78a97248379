/**
 * The fleet analysis (src/analysis/fleet/_fleet.ts) on generated rows (test/analysis/fleet-rows.ts:
 * noise-free, each unit's median known exactly): which node or link it names, by which metric,
 * how far from the fleet, with which mechanism, and what it leaves unjudged. The simulator's
 * clusters are in test/analysis/fleet.test.ts; this file is fast enough to run per mutant.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { units } from '../../src/analysis/fleet/_fleet-units.ts'
import type { FleetOutlier } from '../../src/analysis/index.ts'
import { analyzeFleet, fleetHeading, outlierLines } from '../../src/analysis/index.ts'
import type { Row } from '../../src/model/index.ts'
import {
  INTRA_BW,
  INTRA_LAT,
  NET_BW,
  NET_LAT,
  nodeNames,
  pairRows,
  perNodeRows,
  unitRows,
} from '../analysis/fleet-rows.ts'

const N8 = nodeNames(8)
const N16 = nodeNames(16)
const names = (o: readonly FleetOutlier[]): string[] => o.map((x) => `${x.kind}:${x.hosts.join('+')}:${x.metric}`)
const close = (a: number, b: number, what: string) =>
  assert.ok(Math.abs(a - b) <= 1e-9 * Math.abs(b), `${what}: ${a} vs ${b}`)

test('a slow NIC: the node, net.busbw a quarter of the fleet, the NIC named, its evidence and the pairs', () => {
  const f = analyzeFleet([...perNodeRows(N8), ...pairRows(N8, { node05: { netBw: 0.25 } })], N8)
  assert.deepEqual(names(f.outliers), ['node:node05:net.busbw'])
  const o = f.outliers[0] as FleetOutlier
  close(o.value, 0.25 * NET_BW, 'value')
  close(o.fleetMedian, NET_BW, 'fleet median')
  close(o.delta, -0.75, 'delta')
  assert.ok(o.z < -3.5, String(o.z))
  assert.ok(o.p > 0 && o.p <= 0.05, String(o.p))
  assert.match(o.mechanism, /^the node's NIC: network bandwidth ×0\.25 on every link of this node at unchanged latency/)
  assert.equal(o.evidence.length, 1)
  assert.match(o.evidence[0] as string, /^net\.busbw ×0\.25 of the fleet median \(z -\d+\.\d, p 0\.0000\d\d\)$/)
  assert.deepEqual(f.nodes, N8)
  assert.equal(f.pairs.length, 28)
  assert.deepEqual(f.pairs[0], { hosts: ['node01', 'node02'], busbwBps: NET_BW })
  assert.deepEqual(
    f.pairs.find((p) => p.hosts.join() === 'node04,node05'),
    { hosts: ['node04', 'node05'], busbwBps: 0.25 * NET_BW },
  )
  assert.deepEqual(f.notes, [])
  assert.deepEqual(f.scaling, [])
})

test('each intra-node mechanism: PCIe, straggler, no P2P with and without bandwidth', () => {
  const f = analyzeFleet(
    [
      ...perNodeRows(N16, {
        node02: { intraBw: 0.5 },
        node03: { intraLat: 1.5, intraBw: 1 / 1.5 },
        node06: { intraLat: 2 },
      }),
      ...pairRows(N16),
    ],
    N16,
  )
  assert.deepEqual(names(f.outliers), [
    'node:node02:intra.busbw',
    'node:node03:intra.latency',
    'node:node06:intra.latency',
  ])
  const [pcie, straggler, lat] = f.outliers as [FleetOutlier, FleetOutlier, FleetOutlier]
  assert.match(pcie.mechanism, /^a degraded PCIe link: intra-node bandwidth ×0\.50 at unchanged latency/)
  close(pcie.delta, -0.5, 'PCIe delta')
  close(pcie.fleetMedian, INTRA_BW, 'PCIe fleet median')
  assert.match(
    straggler.mechanism,
    /^a straggler GPU: intra-node latency ×1\.50 and bandwidth ×0\.67, every size slower/,
  )
  assert.deepEqual(
    straggler.evidence.map((e) => e.split(' of ')[0]),
    ['intra.busbw ×0.67', 'intra.latency ×1.50'],
  )
  close(straggler.delta, 0.5, 'straggler delta')
  close(straggler.value, 1.5 * INTRA_LAT, 'straggler value')
  assert.match(
    lat.mechanism,
    /^no P2P on this node: intra-node latency ×2\.00, as when NCCL falls back from P2P to SHM/,
  )
  assert.deepEqual(lat.evidence.length, 1)
  for (const o of f.outliers) assert.equal(o.kind, 'node')
  // Latency ×2 and bandwidth ×0.8 (not one factor: 1.6): P2P off, the bandwidth beside it.
  const g = analyzeFleet([...perNodeRows(N16, { node04: { intraLat: 2, intraBw: 0.8 } }), ...pairRows(N16)], N16)
  assert.deepEqual(names(g.outliers), ['node:node04:intra.latency'])
  assert.match(
    g.outliers[0]?.mechanism ?? '',
    /^no P2P on this node: intra-node latency ×2\.00, bandwidth ×0\.80, as when NCCL falls back/,
  )
})

test('network latency up: no GPUDirect RDMA, with the bandwidth when it moved too; the outliers in node order', () => {
  const f = analyzeFleet(
    [
      ...perNodeRows(N16, { node07: { intraBw: 0.5 } }),
      ...pairRows(N16, { node02: { netLat: 3 }, node04: { netLat: 3, netBw: 0.5 } }),
    ],
    N16,
  )
  // The intra-node flag (node07) comes first; the outliers are in node order all the same.
  assert.deepEqual(names(f.outliers), ['node:node02:net.latency', 'node:node04:net.latency', 'node:node07:intra.busbw'])
  const [a, b] = f.outliers as [FleetOutlier, FleetOutlier]
  assert.match(
    a.mechanism,
    /^no P2P on this node: network latency ×3\.00 on every link, as when NCCL's NET data is staged/,
  )
  assert.match(b.mechanism, /^no P2P on this node: network latency ×3\.00, bandwidth ×0\.50 on every link/)
  close(a.value, 3 * NET_LAT, 'latency value')
  close(a.fleetMedian, NET_LAT, 'latency fleet median')
  close(a.delta, 2, 'latency delta')
})

test('better than the fleet, a small change, a wide fleet or two nodes: no outlier', () => {
  const fast = { node03: { intraBw: 2, intraLat: 0.5 }, node05: { netBw: 2, netLat: 0.5 } }
  assert.deepEqual(analyzeFleet([...perNodeRows(N8, fast), ...pairRows(N8, fast)], N8).outliers, [])
  // 8 % slower, far outside a fleet without spread, and every sample below: still noise.
  assert.deepEqual(analyzeFleet([...perNodeRows(N8, { node03: { intraBw: 0.92 } }), ...pairRows(N8)], N8).outliers, [])
  assert.deepEqual(
    names(analyzeFleet([...perNodeRows(N8, { node03: { intraBw: 0.88 } }), ...pairRows(N8)], N8).outliers),
    ['node:node03:intra.busbw'],
  )
  // A fleet whose nodes spread ±20 %: 30 % below its median is within 3.5 MADs.
  const wide = Object.fromEntries(
    N8.map((h, i) => [h, { intraBw: [1, 0.8, 1.2, 0.85, 1.15, 0.9, 1.1, 0.7][i] as number }]),
  )
  assert.deepEqual(analyzeFleet([...perNodeRows(N8, wide), ...pairRows(N8)], N8).outliers, [])
  // Three nodes are a fleet; two are not.
  const three = nodeNames(3)
  const one = { node02: { intraBw: 0.5 }, node03: { intraBw: 1.01 } }
  assert.deepEqual(names(analyzeFleet(perNodeRows(three, one), three).outliers), ['node:node02:intra.busbw'])
  const two = nodeNames(2)
  assert.deepEqual(
    analyzeFleet(perNodeRows(two, { node01: { intraBw: 1.01 }, node02: { intraBw: 0.5 } }), two).outliers,
    [],
  )
})

test('a slow link between healthy nodes is a link outlier; links of an outlier node are not', () => {
  const f = analyzeFleet(
    [
      ...perNodeRows(N16),
      ...pairRows(N16, {
        node08: { netBw: 0.25 },
        'node06,node07': { netBw: 0.5 },
        'node01,node03': { netLat: 2 },
        'node02,node04': { netBw: 0.5, netLat: 2 },
      }),
    ],
    N16,
  )
  assert.deepEqual(names(f.outliers), [
    'node:node08:net.busbw',
    'link:node01+node03:net.latency',
    'link:node02+node04:net.busbw',
    'link:node06+node07:net.busbw',
  ])
  const [, l13, l24, l67] = f.outliers as FleetOutlier[]
  assert.match(
    l13?.mechanism ?? '',
    /^this link only: net\.latency ×2\.00 while both nodes are normal with their other peers/,
  )
  assert.match(l24?.mechanism ?? '', /^this link only: net\.busbw ×0\.50, net\.latency ×2\.00 while both nodes/)
  assert.equal(l24?.evidence.length, 2)
  close(l67?.value ?? 0, 0.5 * NET_BW, 'link value')
  close(l67?.fleetMedian ?? 0, NET_BW, 'link fleet median')
  assert.equal(l67?.kind, 'link')
})

test('the intra-node bench is the first by name; without per-node rows a note says so', () => {
  const gather = perNodeRows(N8, { node04: { intraBw: 0.5 } }, 'nccl.all_gather')
  const reduce = perNodeRows(N8, {}, 'nccl.all_reduce')
  assert.deepEqual(names(analyzeFleet([...reduce, ...gather, ...pairRows(N8)], N8).outliers), [
    'node:node04:intra.busbw',
  ])
  // The other bench's rows, the scaling pattern's and rows without a size do not count.
  const badReduce = perNodeRows(N8, { node04: { intraBw: 0.5 } }, 'nccl.all_reduce')
  const okGather = perNodeRows(N8, {}, 'nccl.all_gather')
  assert.deepEqual(analyzeFleet([...badReduce, ...okGather, ...pairRows(N8)], N8).outliers, [])
  const scaling = perNodeRows(['node01,node02', 'node03,node04'], { 'node01,node02': { intraBw: 0.1 } })
  const withScaling = [...reduce, ...scaling.map((r) => ({ ...r, grouping: 'scaling' }))]
  assert.deepEqual(analyzeFleet(withScaling, N8).outliers, [])
  const slowLat = perNodeRows(N8, { node04: { intraLat: 2 } })
  const g = analyzeFleet([...slowLat, ...slowLat.map((r) => ({ ...r, sizeBytes: null }))], N8)
  assert.deepEqual(names(g.outliers), ['node:node04:intra.latency'])
  close(g.outliers[0]?.value ?? 0, 2 * INTRA_LAT, 'latency without the unsized rows')
  const f = analyzeFleet(pairRows(N8, { node04: { netBw: 0.5 } }), N8)
  assert.deepEqual(names(f.outliers), ['node:node04:net.busbw'])
  assert.deepEqual(f.notes, ['no per-node rows: intra-node mechanisms (P2P, PCIe, GPUs) cannot be told apart'])
})

test('a unit with fewer than 6 samples is not judged: one note per metric', () => {
  const f = analyzeFleet(perNodeRows(N8, { node04: { intraBw: 0.5, intraLat: 2 } }, 'nccl.all_reduce', 1), N8)
  assert.deepEqual(f.outliers, [])
  assert.deepEqual(f.notes, [
    'intra.busbw: a unit looked worse than the fleet but has fewer than 6 samples, too few to judge (more --trials or --sizes)',
    'intra.latency: a unit looked worse than the fleet but has fewer than 6 samples, too few to judge (more --trials or --sizes)',
  ])
})

test('a median that moved while the samples do not differ (Mann-Whitney p > 0.05) is not an outlier', () => {
  // node04: four of its six large-size samples at half the fleet, two at 1.5 times: median ×0.5,
  // but two samples above every other node's.
  const odd = (t: number, i: number, v: number) => (t === 0 || i === 3 ? v / 2 : v * 1.5)
  const rows = [
    ...perNodeRows(N8.filter((h) => h !== 'node04')),
    ...unitRows({ bench: 'nccl.all_reduce', host: 'node04', grouping: 'per-node' }, INTRA_BW, INTRA_LAT, odd),
  ]
  assert.deepEqual(analyzeFleet(rows, N8).outliers, [])
  const lower = (t: number, i: number, v: number) => (t === 0 || i === 3 ? v / 2 : v * 0.9)
  const moved = [
    ...perNodeRows(N8.filter((h) => h !== 'node04')),
    ...unitRows({ bench: 'nccl.all_reduce', host: 'node04', grouping: 'per-node' }, INTRA_BW, INTRA_LAT, lower),
  ]
  assert.deepEqual(names(analyzeFleet(moved, N8).outliers), ['node:node04:intra.busbw'])
})

test('in words: the heading, one line per node or link outlier with its values, or the one line for none', () => {
  const f = analyzeFleet(
    [...perNodeRows(N16), ...pairRows(N16, { node05: { netBw: 0.25 }, 'node01,node03': { netLat: 2 } })],
    N16,
  )
  assert.equal(fleetHeading(f), 'Fleet: 16 nodes (node01…node16), 120 node pairs measured')
  const lines = outlierLines(f)
  assert.equal(lines.length, 2)
  assert.match(
    lines[0] as string,
    /^node node05: net\.busbw 10 GB\/s against the fleet's 40 GB\/s \(-75\.0 %\); the node's NIC: /,
  )
  assert.match(
    lines[1] as string,
    /^link node01–node03: net\.latency 20 µs against the fleet's 10 µs \(\+100\.0 %\); this link only: /,
  )
  const none = analyzeFleet([...perNodeRows(N8), ...pairRows(N8)], N8)
  assert.deepEqual(outlierLines(none), [
    'no node or link is an outlier: every one within the fleet (median, MAD, Mann-Whitney as diff)',
  ])
})

test('units: the large end from a sixteenth of the largest size up, the small end up to 16 × the smallest (8 B at least)', () => {
  const sizes = [1, 2, 4, 16, 64, 128, 256, 1024, 4096]
  const rows = sizes.map((sizeBytes) => ({ sizeBytes, value: sizeBytes }) as Row)
  const u = (end: 'large' | 'small') => units(new Map([['node01,node02', rows]]), end)[0]
  assert.deepEqual(u('small')?.samples, [1, 2, 4, 16, 64, 128])
  assert.deepEqual(u('small')?.hosts, ['node01', 'node02'])
  assert.equal(u('small')?.value, 10)
  assert.deepEqual(u('large')?.samples, [256, 1024, 4096])
  assert.equal(u('large')?.value, 1024)
})

test("a unit is tested against the others' samples, never its own (five nodes: with its own, p 0.07)", () => {
  // node02: four of its six large-size samples at half the fleet, two at the fleet's. Against
  // the other four nodes' 24 samples Mann-Whitney gives p 0.023; with its own six added to
  // them, 0.071 (above 0.05), so an "others" that held the unit would name nothing.
  const N5 = nodeNames(5)
  const odd = (t: number, i: number, v: number) => (t === 0 || i === 3 ? v / 2 : v)
  const rows = [
    ...perNodeRows(N5.filter((h) => h !== 'node02')),
    ...unitRows({ bench: 'nccl.all_reduce', host: 'node02', grouping: 'per-node', ranks: 8 }, INTRA_BW, INTRA_LAT, odd),
  ]
  const f = analyzeFleet(rows, N5)
  assert.deepEqual(names(f.outliers), ['node:node02:intra.busbw'])
  close((f.outliers[0] as FleetOutlier).p, 0.0230103995621237, 'p against the other four nodes')
})
