/** Pure parts of the topology doctor: grouping enumeration and ranking, bands, rules, hypervisor. */

import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { TopoGpu, TopologyReport, TopoPair } from '../../../src/topology/index.ts'
import {
  BANDS,
  deriveLink,
  expectedBand,
  judgeHypervisor,
  pairCost,
  pairLinkClass,
  rankGroupings,
  runRules,
} from '../../../src/topology/index.ts'

/** A report with n GPUs whose pair link is given by `link(a, b)`; NUMA node = index < n/2 ? 0 : 1. */
function synthetic(n: number, link: (a: number, b: number) => string, p2p: TopoPair['p2p'] = {}): TopologyReport {
  const gpus: TopoGpu[] = Array.from({ length: n }, (_, index) => ({ index, numa: index < n / 2 ? 0 : 1, from: {} }))
  const pairs: TopoPair[] = []
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      const p: TopoPair = {
        a,
        b,
        link: link(a, b),
        p2p,
        sameNuma: (gpus[a] as TopoGpu).numa === (gpus[b] as TopoGpu).numa,
        cost: 0,
        from: {},
      }
      p.cost = pairCost(p)
      pairs.push(p)
    }
  }
  return {
    schema: 1,
    gpus,
    pairs,
    findings: [],
    groupings: [],
    hypervisor: { detected: false, kind: 'none', from: [] },
    pciRootBuses: [],
    sources: [],
    diagnostics: [],
  }
}

const socket =
  (n: number) =>
  (a: number, b: number): string =>
    a < n / 2 === b < n / 2 ? 'NODE' : 'SYS'

test('every partition is enumerated: 8 GPUs → 105 TP2, 35 TP4, 1 TP8; 5 GPUs → 15 TP2, 5 TP4 (one GPU idle)', () => {
  const r8 = synthetic(8, socket(8))
  assert.deepEqual(
    [2, 4, 8].map((k) => rankGroupings(r8, k).length),
    [105, 35, 1],
  )
  const r5 = synthetic(5, () => 'NODE')
  assert.deepEqual(
    [2, 4, 8].map((k) => rankGroupings(r5, k).length),
    [15, 5, 0],
  )
  assert.ok(rankGroupings(r5, 4).every((g) => g.groups.length === 1 && g.groups[0]?.length === 4))
  assert.equal(new Set(rankGroupings(r8, 4).map((g) => JSON.stringify(g.groups))).size, 35, 'no duplicates')
})

test('TP4 on two sockets: one socket per group beats interleaving, by worst and by mean cost', () => {
  const ranked = rankGroupings(synthetic(8, socket(8)), 4)
  assert.deepEqual(ranked[0]?.groups, [
    [0, 1, 2, 3],
    [4, 5, 6, 7],
  ])
  assert.deepEqual([ranked[0]?.worstCost, ranked[0]?.meanCost], [5, 5])
  const interleaved = ranked.find((g) => JSON.stringify(g.groups) === '[[0,2,4,6],[1,3,5,7]]')
  assert.deepEqual([interleaved?.worstCost, interleaved?.meanCost], [7, (5 * 2 + 7 * 4) / 6])
  assert.match(
    ranked[0]?.reason ?? '',
    /^TP4 \{0-3\}: NODE, NUMA 0; \{4-7\}: NODE, NUMA 1; worst pair cost 5, mean 5\.$/,
  )
  for (let i = 1; i < ranked.length; i++) {
    const [p, q] = [ranked[i - 1] as (typeof ranked)[number], ranked[i] as (typeof ranked)[number]]
    assert.ok(
      p.worstCost < q.worstCost || (p.worstCost === q.worstCost && p.meanCost <= q.meanCost),
      'sorted best first',
    )
  }
})

test('16 GPUs TP2 is too many to enumerate: contiguous, strided and greedy candidates, still ranked', () => {
  const r = synthetic(16, (a, b) => (Math.floor(a / 2) === Math.floor(b / 2) ? 'PIX' : 'SYS'))
  const ranked = rankGroupings(r, 2)
  assert.equal(ranked.length, 3)
  assert.deepEqual(ranked[0]?.groups, [
    [0, 1],
    [2, 3],
    [4, 5],
    [6, 7],
    [8, 9],
    [10, 11],
    [12, 13],
    [14, 15],
  ])
  assert.equal(ranked[0]?.worstCost, 2)
})

test('pairLinkClass is symmetric; expected bands follow P2P status first, then link class', () => {
  const r = synthetic(4, socket(4))
  assert.equal(pairLinkClass(r, 3, 0), 'SYS')
  assert.equal(pairLinkClass(r, 0, 1), 'NODE')
  assert.equal(pairLinkClass(r, 0, 9), undefined)
  // NVLink bands by GPU model: A100's own; H100 has none published (nearest A100, said); no name: generic.
  const nv = (names: (string | undefined)[]) => expectedBand({ link: 'NV18', p2p: { read: 'OK' } }, names)
  assert.equal(nv(['NVIDIA A100-SXM4-80GB', 'NVIDIA A100-SXM4-80GB']).lowS, BANDS.nvlink.lowS)
  assert.match(nv(['NVIDIA A100-SXM4-80GB', 'NVIDIA A100-SXM4-80GB']).why, /A100: this GPU model's own published band/)
  assert.match(
    nv(['NVIDIA H100 80GB HBM3', 'NVIDIA H100 80GB HBM3']).why,
    /no published band for NVIDIA H100 80GB HBM3: the nearest published band is A100-SXM4 ×8 NVSwitch, another GPU model/,
  )
  assert.match(nv([undefined, undefined]).why, /does not name the GPU model: generic band/)
  assert.doesNotMatch(nv(['NVIDIA H100 80GB HBM3', 'NVIDIA H100 80GB HBM3']).why, /own published band/)
  assert.equal(expectedBand({ link: 'NV18', p2p: { read: 'OK', write: 'NS' } }), BANDS.staged)
  assert.equal(expectedBand({ link: 'PHB', p2p: { pci: 'OK' } }), BANDS.hostBridge)
  assert.equal(
    expectedBand({ link: 'SYS', p2p: { nvlink: 'NS' } }).lowS,
    BANDS.rootComplex.lowS,
    'nvlink NS on PCIe is not a blocked copy',
  )
  assert.match(expectedBand({ link: 'SYS', p2p: {} }).why, /if P2P works/)
  assert.deepEqual(
    [
      pairCost({ link: 'PIX', p2p: {} }),
      pairCost({ link: 'PIX', p2p: { read: 'CNS' } }),
      pairCost({ link: 'NODE', p2p: {}, sameNuma: false }),
    ],
    [2, 12, 7],
  )
})

test('deriveLink names levels as NVML does from the PCI paths', () => {
  const g = (rootBus: string, switchPath: string[], numa?: number): TopoGpu => ({
    index: 0,
    rootBus,
    switchPath,
    ...(numa !== undefined ? { numa } : {}),
    from: {},
  })
  assert.equal(deriveLink(g('0000:00', ['0000:01:00.0']), g('0000:00', ['0000:01:00.0'])), 'PIX')
  assert.equal(
    deriveLink(g('0000:00', ['0000:01:00.0', '0000:03:00.0']), g('0000:00', ['0000:01:00.0', '0000:05:00.0'])),
    'PXB',
  )
  assert.equal(deriveLink(g('0000:00', []), g('0000:00', [])), 'PHB')
  assert.equal(deriveLink(g('0000:00', [], 0), g('0000:40', [], 0)), 'NODE')
  assert.equal(deriveLink(g('0000:00', [], 0), g('0000:80', [], 1)), 'SYS')
})

test('rules: nccl-p2p-level only on bare-metal AMD with more than 2 GPUs; clique advice only in a VM without P2P', () => {
  const r = synthetic(4, socket(4))
  const ids = (cpuVendor: string | undefined, detected: boolean, pairs = r.pairs, gpus = r.gpus): string[] =>
    runRules({
      gpus,
      pairs,
      hypervisor: { detected, kind: detected ? 'vm' : 'none', from: [] },
      ...(cpuVendor ? { cpuVendor } : {}),
    }).map((f) => f.id)
  assert.ok(ids('AuthenticAMD', false).includes('nccl-p2p-level'))
  assert.ok(!ids('GenuineIntel', false).includes('nccl-p2p-level'))
  assert.ok(!ids('AuthenticAMD', true).includes('nccl-p2p-level'))
  assert.ok(
    !ids(
      'AuthenticAMD',
      false,
      r.pairs.filter((p) => p.a < 2 && p.b < 2),
      r.gpus.slice(0, 2),
    ).includes('nccl-p2p-level'),
  )
  assert.ok(ids(undefined, true).includes('vm-gpudirect-clique'), 'P2P not reported in a VM')
  const ok = r.pairs.map((p) => ({ ...p, p2p: { read: 'OK' } }))
  assert.ok(!ids(undefined, true, ok).includes('vm-gpudirect-clique'))
  assert.ok(!ids(undefined, true, ok).includes('p2p-unavailable'))
})

test('hypervisor: CPU flag, DMI vendor or systemd-detect-virt each detect a VM; a container alone is not one', () => {
  assert.equal(judgeHypervisor({ cpuFlag: true, from: [] }).kind, 'vm')
  assert.equal(judgeHypervisor({ cpuFlag: false, sysVendor: 'QEMU', from: [] }).detected, true)
  assert.equal(
    judgeHypervisor({ cpuFlag: false, productName: 'Virtual Machine', sysVendor: 'Microsoft Corporation', from: [] })
      .detected,
    true,
  )
  assert.equal(
    judgeHypervisor({ cpuFlag: false, virt: { vm: 'none', container: 'docker' }, from: [] }).kind,
    'container',
  )
  assert.equal(
    judgeHypervisor({ cpuFlag: false, sysVendor: 'Supermicro', virt: { vm: 'none' }, from: [] }).kind,
    'none',
  )
  assert.equal(judgeHypervisor({ from: [] }).kind, 'unknown')
})
