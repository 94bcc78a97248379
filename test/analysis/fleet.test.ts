/**
 * Fleet analysis of simulated clusters (issue 16 acceptance): with one degraded NIC and one
 * node without P2P, `analyze` names exactly those two nodes, at 20 seeds, on 16 nodes (every
 * pair; 64 nodes in fleet-64.test.ts, a flapping NIC in fleet-tail.test.ts); every injected
 * kind gets its mechanism; a slow pair whose nodes are healthy is a link outlier. The
 * simulator runs in-process.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { analyzeFleet } from '../../src/analysis/index.ts'
import type { Row } from '../../src/model/index.ts'
import { fleet, named, namesTwoNodes } from './_fleet.ts'

test(...namesTwoNodes(16))

test('a healthy cluster has no outlier', async () => {
  for (let seed = 1; seed <= 5; seed++) {
    const { rows, nodes } = await fleet(16, '', seed)
    assert.deepEqual(named(rows, nodes), [], `seed ${seed}`)
  }
})

test('each fault kind gets its own mechanism, metric and a delta of the right sign', async () => {
  const { rows, nodes } = await fleet(12, 'slow-nic@node02,no-p2p@node04,pcie-gen3@node06,straggler-gpu@node08', 7, {
    preset: 'baremetal-turin',
  })
  const out = analyzeFleet(rows, nodes).outliers
  const by = (h: string) => out.find((o) => o.hosts[0] === h)
  assert.equal(out.length, 4, JSON.stringify(out, null, 1))
  assert.match(by('node02')?.mechanism ?? '', /NIC/)
  assert.equal(by('node02')?.metric, 'net.busbw')
  // A quarter of the bandwidth (400 → 100 Gb/s), within the noise.
  assert.ok(Math.abs((by('node02')?.delta ?? 0) + 0.75) < 0.05, String(by('node02')?.delta))
  assert.match(by('node04')?.mechanism ?? '', /no P2P/)
  assert.match(by('node06')?.mechanism ?? '', /PCIe/)
  assert.equal(by('node06')?.metric, 'intra.busbw')
  assert.match(by('node08')?.mechanism ?? '', /straggler/)
  for (const o of out) assert.equal(o.kind, 'node')
})

test('one slow pair between healthy nodes is a link outlier naming both nodes', async () => {
  const { rows, nodes } = await fleet(16, '', 3)
  // A bad cable between node03 and node09: half the sendrecv bandwidth on that pair only.
  const bad = rows.map((r) =>
    r.host === 'node03,node09' && r.bench === 'nccl.sendrecv'
      ? { ...r, value: r.metric === 'time' ? r.value * 2 : r.value / 2 }
      : r,
  )
  const out = analyzeFleet(bad, nodes).outliers
  assert.deepEqual(
    out.map((o) => `${o.kind}:${o.hosts.join('+')}`),
    ['link:node03+node09'],
  )
  assert.match(out[0]?.mechanism ?? '', /this link only/)
})

test('a node with fewer than 6 samples is not judged, and a note says why', async () => {
  // One trial at two large sizes: 4 busbw values per node, too few for a bounded CI of the median.
  const { rows, nodes } = await fleet(8, 'pcie-gen3@node03', 2, { sizes: '8,32,128,32M,128M', pattern: 'per-node' })
  const f = analyzeFleet(rows, nodes)
  assert.deepEqual(f.outliers, [])
  assert.ok(
    f.notes.some((n) => /^intra\.busbw: .*fewer than 6 samples/.test(n)),
    f.notes.join('\n'),
  )
})

test('scaling against NCCL model: the ring curve from the 2-node anchor meets 4, 8, 16 nodes; a slow NIC on the 16th node is a busbw gap there only', async () => {
  const pattern = { pattern: 'scaling', sizes: '8,32,128,8M,32M,128M', trials: 3 }
  const healthy = analyzeFleet(...(Object.values(await fleet(16, '', 1, pattern)) as [Row[], string[]]), 'ib').scaling
  assert.deepEqual(
    healthy.map((s) => s.nodes),
    [2, 4, 8, 16],
  )
  for (const s of healthy) {
    assert.ok(Math.abs(s.gap.busbw) < 0.05, `${s.nodes} nodes busbw gap ${s.gap.busbw}`)
    assert.ok(Math.abs(s.gap.ring) < 0.05, `${s.nodes} nodes ring latency gap ${s.gap.ring}`)
    assert.equal(s.sizeBytes, 128 * 2 ** 20)
  }
  // The model's busbw falls as α grows with the ring (254 steps at 16×8 ranks); NCCL's tree
  // (2·log2(m) NET steps) would be the faster small-message algorithm from 2 nodes up.
  const last = healthy[3] as (typeof healthy)[number]
  assert.ok(last.model.busbwBps < (healthy[0]?.model.busbwBps ?? 0) * 0.95)
  assert.equal(last.model.algorithm, 'tree')
  assert.ok(last.gap.latency > 3, String(last.gap.latency))
  const slow = analyzeFleet(
    ...(Object.values(await fleet(16, 'slow-nic@node16', 1, pattern)) as [Row[], string[]]),
    'ib',
  ).scaling
  assert.deepEqual(
    slow.map((s) => s.gap.busbw < -0.3),
    [false, false, false, true],
    slow.map((s) => s.gap.busbw.toFixed(2)).join(' '),
  )
})
