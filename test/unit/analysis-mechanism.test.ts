/**
 * judgePair and the mechanism helpers of src/analysis/verdict/_mechanism.ts, evidence by evidence, on
 * hand-made fits and contexts (no set, no simulator): which mechanism each kind of evidence
 * gives, the order and words of the evidence, the two conflicts, and the value ranges at their
 * edges. The ranges are the published p2p-latency bands', written out here: P2P over PCIe
 * 0.36–1.69 µs, NVLink 2.94–3.49 µs, host-staged 10.27–24.8 µs, same GPU 1.3–3.3 µs, each
 * widened by 10 % (so PCIe up to 1.859 µs, NVLink up to 3.839 µs, host-staged 9.243–27.28 µs).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { judgePair, RANGES } from '../../src/analysis/index.ts'
import { mechanismOf, pairCandidates, slowCauses } from '../../src/analysis/verdict/_mechanism.ts'
import { context as ctx } from '../analysis/machine-context.ts'

const US = 1e-6
type PairFit = Parameters<typeof judgePair>[0]
const fit = (alphaUs: number, over: Partial<PairFit> = {}): PairFit => ({
  bench: 'p2p.latency',
  src: 0,
  dst: 1,
  p2p: null,
  alpha: alphaUs * US,
  alphaCi: [alphaUs * 0.99 * US, alphaUs * 1.01 * US],
  ...over,
})
const S = (value: string) => () => ({ value, source: 'topo.txt:4' })
const id = (f: PairFit, c = ctx()) => judgePair(f, c).mechanism.id
const facts = (f: PairFit, c = ctx()) => judgePair(f, c).evidence.map((e) => `${e.strength} ${e.fact} | ${e.source}`)

test('the ranges are the published bands, lowest low to highest high of each kind', () => {
  const us = (r: { low: number; high: number }) => [+(r.low / US).toFixed(4), +(r.high / US).toFixed(4)]
  assert.deepEqual(Object.values(RANGES).map(us), [
    [0.36, 1.69],
    [2.94, 3.49],
    [10.27, 24.8],
    [1.3, 3.3],
  ])
})

test('no tool evidence: the value decides, each range widened by 10 %', () => {
  const cases: [number, string | undefined, string][] = [
    [1.85, undefined, 'p2p-pcie'],
    [1.87, undefined, 'undetermined'],
    [9.2, undefined, 'undetermined'],
    [9.3, undefined, 'host-staged'],
    [27.2, undefined, 'host-staged'],
    [27.3, undefined, 'host-staged-slow'],
    [3.8, 'NV12', 'p2p-nvlink'],
    [1.0, 'nv4', 'p2p-nvlink'],
    [3.85, 'NV12', 'undetermined'],
    [3.8, 'SYS', 'undetermined'],
  ]
  for (const [v, lc, want] of cases) assert.equal(id(fit(v, lc ? { linkClass: lc } : {})), want, `${v} µs ${lc}`)
  // Exactly at each widened edge the value still belongs to the range.
  assert.equal(id(fit(1.69 * 1.1, { alpha: 1.69e-6 * (1 + 0.1) })), 'p2p-pcie')
  assert.equal(id(fit(3.49 * 1.1, { alpha: 3.49e-6 * (1 + 0.1), linkClass: 'NV12' })), 'p2p-nvlink')
  assert.equal(id(fit(10.27 * 0.9, { alpha: 10.27e-6 * (1 - 0.1) })), 'host-staged')
  assert.equal(id(fit(24.8 * 1.1, { alpha: 24.8e-6 * (1 + 0.1) })), 'host-staged')
  assert.deepEqual(facts(fit(5)), [
    '3 floor 5 µs [4.95 µs, 5.05 µs]; published P2P 360 ns–1.69 µs ± 10 %, host-staged 10.27 µs–24.8 µs ± 10 % | this set',
  ])
  assert.equal(judgePair(fit(5), ctx()).mechanism.text, 'mechanism not determined')
})

test('same GPU: same-GPU copy whatever the value, the pair itself first, machine facts after', () => {
  const c = ctx({
    gpuName: { value: 'NVIDIA RTX 6000 Ada Generation', source: 'smi.txt:1' },
    gpuFamily: 'RTX 6000 Ada',
    vm: { value: false, source: 'capture' },
    nvlink: { value: false, source: 'capture' },
    attach: { value: 'direct', source: 'capture' },
  })
  const j = judgePair(fit(40, { src: 2, dst: 2, p2p: 'disabled' }), c)
  assert.equal(j.mechanism.id, 'same-gpu')
  assert.equal(j.mechanism.text, 'same-GPU copy (copy engine, no link crossed)')
  assert.deepEqual(
    j.evidence.map((e) => `${e.strength} ${e.fact} | ${e.source}`),
    [
      '2 source and destination are the same GPU (GPU2) | the pair itself',
      '2 GPU model NVIDIA RTX 6000 Ada Generation | smi.txt:1',
      '2 bare metal (no hypervisor seen) | capture',
      '3 floor 40 µs [39.6 µs, 40.4 µs]; published same-GPU copies 1.3 µs–3.3 µs ± 10 % | this set',
    ],
  )
  assert.deepEqual(j.conflicts, [])
  assert.deepEqual(j.cite, { gpuFamily: 'RTX 6000 Ada', vm: false, nvlink: false, attach: 'direct' })
  assert.deepEqual(judgePair(fit(2, { src: 1, dst: 1 }), ctx({ vm: { value: true, source: 'manifest' } })).cite, {
    vm: true,
  })
  assert.match(facts(fit(2, { src: 1, dst: 1 }), ctx({ vm: { value: true, source: 'm' } }))[1] ?? '', /^2 a VM/)
})

test('what the tools said comes first and decides: P2P disabled, CANNOT, CAN, topo -p2p', () => {
  const disabled = fit(13.7, { p2p: 'disabled', peerAccess: true })
  assert.equal(id(disabled), 'host-staged')
  assert.equal(id({ ...disabled, alpha: 30 * US, alphaCi: [29 * US, 31 * US] }), 'host-staged-slow')
  assert.deepEqual(facts(disabled), [
    '1 the tool measured this with P2P disabled: copies go through host memory | p2p.latency P2P=Disabled rows',
    '3 floor 13.7 µs [13.56 µs, 13.84 µs]; published host-staged copies 10.27 µs–24.8 µs ± 10 % | this set',
  ])
  const cannot = fit(12, { peerAccess: false })
  assert.equal(id(cannot), 'host-staged')
  assert.equal(facts(cannot)[0], '1 Device=0 CANNOT Access Peer Device=1 | p2p.latency rows')
  const fromSet = ctx({ peerAccess: () => ({ value: false, source: 'p2p.txt:9' }) })
  assert.equal(facts(fit(12), fromSet)[0], '1 Device=0 CANNOT Access Peer Device=1 | p2p.txt:9')
  const can = ctx({ peerAccess: () => ({ value: true, source: 'p2p.txt:9' }), linkClass: S('NODE') })
  assert.equal(id(fit(1.2), can), 'p2p-pcie')
  assert.deepEqual(facts(fit(1.2), can), [
    '1 Device=0 CAN Access Peer Device=1 | p2p.txt:9',
    '2 link class NODE | topo.txt:4',
    '3 floor 1.2 µs [1.188 µs, 1.212 µs]; published P2P copies 360 ns–1.69 µs ± 10 % | this set',
  ])
  const j = judgePair(fit(1.2), can)
  assert.equal(j.mechanism.text, 'P2P over PCIe (NODE: across PCIe host bridges within one NUMA node)')
  assert.deepEqual([j.mechanism.linkClass, j.cite.links, j.cite.nvlink], ['NODE', ['NODE'], undefined])
  assert.equal(id(fit(1.2, { linkClass: 'NV8' }), can), 'p2p-nvlink', 'CAN over NVLink')
  assert.equal(judgePair(fit(1.2, { linkClass: 'NV8' }), can).mechanism.text, 'P2P over NVLink/NVSwitch (NV8)')
  // CAN with P2P disabled is no peer evidence: the copies were staged.
  assert.deepEqual(
    facts(fit(13, { p2p: 'disabled' }), can).map((f) => f.slice(0, 10)),
    ['1 the tool', '2 link cla', '3 floor 13'],
  )
  // topo -p2p alone: OK is peer evidence, NS is staged evidence.
  const ok = ctx({ p2pStatus: S('OK') })
  assert.equal(id(fit(20), ok), 'p2p-pcie')
  assert.equal(facts(fit(20), ok)[0], '1 nvidia-smi topo -p2p: OK | topo.txt:4')
  assert.equal(id(fit(0.5), ctx({ p2pStatus: S('NS') })), 'host-staged')
  assert.equal(facts(fit(0.5), ctx({ p2pStatus: S('NS') }))[0], '1 nvidia-smi topo -p2p: NS | topo.txt:4')
  // OK beside P2P disabled or CANNOT is kept as a plain fact after the tool's own.
  for (const [f, c] of [
    [fit(12, { p2p: 'disabled' }), ok],
    [fit(12, { peerAccess: false }), ok],
  ] as const) {
    assert.equal(id(f, c), 'host-staged')
    assert.deepEqual(
      facts(f, c).map((x) => x.slice(0, 12)),
      [facts(f, c)[0]?.slice(0, 12), '1 nvidia-smi', '3 floor 12 µ'],
    )
  }
})

test('conflicts: peer access with topo -p2p NS; staged by the tools but fast; peer access but slow', () => {
  const can = { peerAccess: () => ({ value: true, source: 'p2p.txt:9' }) }
  const ns = judgePair(fit(1.2), ctx({ ...can, p2pStatus: S('NS') }))
  assert.equal(ns.mechanism.id, 'p2p-pcie')
  assert.deepEqual(ns.conflicts, [
    {
      text: 'the tool reports peer access, but nvidia-smi topo -p2p says NS for this pair',
      facts: ['Device=0 CAN Access Peer Device=1', 'nvidia-smi topo -p2p: NS'],
    },
  ])
  assert.deepEqual(
    ns.evidence.map((e) => e.fact.slice(0, 16)),
    ['Device=0 CAN Acc', 'nvidia-smi topo ', 'floor 1.2 µs [1.'],
  )

  const fast = judgePair(fit(0.9, { p2p: 'disabled' }), ctx())
  assert.equal(fast.mechanism.id, 'host-staged')
  assert.deepEqual(fast.conflicts, [
    {
      text:
        'no peer access, but copies cost 900 ns, as P2P copies do (host-staged 10.27 µs–24.8 µs ± 10 %): check which ' +
        'matrix the rows came from and verify the copied data',
      facts: [
        'the tool measured this with P2P disabled: copies go through host memory',
        'floor 900 ns [891 ns, 909 ns]',
      ],
    },
  ])
  const mid = judgePair(fit(5, { peerAccess: false }), ctx()).conflicts.map((c) => c.text.slice(0, 80))
  assert.deepEqual(mid, ['no peer access, but copies cost 5 µs, less than any published host-staged copy ('])
  assert.deepEqual(judgePair(fit(9.5, { peerAccess: false }), ctx()).conflicts, [], 'inside the widened range')
  assert.deepEqual(judgePair(fit(5), ctx()).conflicts, [], 'no tool said anything')

  const slow = judgePair(fit(10), ctx(can))
  assert.equal(slow.mechanism.id, 'p2p-pcie')
  assert.deepEqual(
    slow.conflicts.map((c) => [c.text, c.facts]),
    [
      [
        'peer access reported, but copies cost 10 µs, as host-staged copies do: check ACS/IOMMU (P2P requests ' +
          'redirected through the root complex), the driver, and whether P2P really is in use',
        ['Device=0 CAN Access Peer Device=1', 'floor 10 µs [9.9 µs, 10.1 µs]'],
      ],
    ],
  )
  assert.match(
    judgePair(fit(5), ctx(can)).conflicts[0]?.text ?? '',
    /^peer access reported, but copies cost 5 µs, more than any published P2P copy \(360 ns–1\.69 µs ± 10 %\): check/,
  )
  assert.match(
    judgePair(fit(5, { linkClass: 'NV12' }), ctx(can)).conflicts[0]?.text ?? '',
    /more than any published P2P copy \(2\.94 µs–3\.49 µs ± 10 %\)/,
  )
  assert.deepEqual(judgePair(fit(3.5, { linkClass: 'NV12' }), ctx(can)).conflicts, [], 'NVLink range')
  assert.deepEqual(judgePair(fit(1.8), ctx(can)).conflicts, [], 'inside the widened PCIe range')
})

test('NVLink from the context: the fact, the link, the cited NVLink condition', () => {
  const nv = ctx({ nvlink: { value: true, source: 'topo-m.txt' } })
  const j = judgePair(fit(3), nv)
  assert.equal(j.mechanism.id, 'p2p-nvlink')
  assert.equal(j.mechanism.text, 'P2P over NVLink/NVSwitch', 'no link class captured')
  assert.equal(j.cite.nvlink, true)
  assert.equal(j.cite.links, undefined)
  assert.equal(facts(fit(3), nv)[0], '2 NVLink-connected GPUs | topo-m.txt')
  const both = judgePair(fit(3), ctx({ nvlink: { value: true, source: 't' }, linkClass: S('PIX') }))
  assert.deepEqual([both.mechanism.id, both.cite.links, both.cite.nvlink], ['undetermined', ['PIX'], true])
  const host = judgePair(fit(12), ctx({ linkClass: S('NV4') }))
  assert.deepEqual([host.mechanism.id, host.cite.nvlink], ['host-staged', true], 'an NVLink pair cites NVLink bands')
  assert.equal(judgePair(fit(12), ctx({ linkClass: S('SYS') })).cite.nvlink, undefined)
  assert.equal(facts(fit(1, { linkClass: 'PIX' }))[0], '2 link class PIX | topology')
})

test('mechanismOf, pairCandidates and slowCauses', () => {
  assert.deepEqual(mechanismOf('host-staged-slow', 'SYS', ['a', 'b']), {
    id: 'host-staged-slow',
    text: 'host-staged copy, slower than any published host-staged copy (likely: a; or b)',
    linkClass: 'SYS',
    causes: ['a', 'b'],
  })
  assert.deepEqual(mechanismOf('host-staged-slow', undefined, []), {
    id: 'host-staged-slow',
    text: 'host-staged copy, slower than any published host-staged copy',
  })
  assert.deepEqual(mechanismOf('host-staged', undefined, ['a']).text, MECH_STAGED)
  assert.equal(mechanismOf('p2p-pcie').text, 'P2P over PCIe (link class not captured)')
  const kinds = (id: Parameters<typeof pairCandidates>[0], same = false) => [
    ...new Set(pairCandidates(id, same).map((b) => `${b.metric} ${b.kind}`)),
  ]
  assert.deepEqual(kinds('p2p-pcie', true), ['p2p-latency same-gpu'])
  assert.deepEqual(kinds('undetermined'), ['p2p-latency p2p-on', 'p2p-latency host-staged'])
  assert.deepEqual(kinds('host-staged-slow'), ['p2p-latency host-staged'])
  assert.deepEqual(kinds('p2p-nvlink'), ['p2p-latency p2p-on'])
  assert.deepEqual(kinds('nccl-shm'), [])
  assert.equal(pairCandidates('host-staged', false).length, 7, 'the seven published host-staged setups')
  const all = slowCauses({ sameGpuSlow: true, linkClass: 'sys', oneGpu: 0 })
  assert.deepEqual(
    all.map((c) => c.slice(0, 24)),
    ['per-copy driver overhead', 'cross-socket staging (th', "GPU0's own path (every s", 'contention (other copies'],
  )
  assert.deepEqual(slowCauses({ linkClass: 'NODE' }).length, 1)
  assert.deepEqual(slowCauses({ sameGpuSlow: false }).length, 1)
})

const MECH_STAGED = 'host-staged copy through pinned host memory (no peer access)'

test('RTX 4090/5090 by name (stock driver: P2P off): a floor between the ranges is host-staged; a P2P floor is a conflict (a patched driver); the tool’s CAN access wins', () => {
  const g = (value: string) => ctx({ gpuName: { value, source: 'smi.txt:1' } })
  assert.equal(id(fit(5), g('NVIDIA GeForce RTX 4090')), 'host-staged')
  assert.equal(id(fit(5), g('NVIDIA RTX 6000 Ada Generation')), 'undetermined')
  const fast = judgePair(fit(1.2), g('NVIDIA GeForce RTX 5090'))
  assert.equal(fast.mechanism.id, 'p2p-pcie')
  assert.match(
    fast.conflicts[0]?.text ?? '',
    /^RTX 5090's stock driver disables P2P, but copies cost 1\.2 µs, as P2P copies do/,
  )
  const told = judgePair(fit(1.2, { peerAccess: true }), g('NVIDIA GeForce RTX 4090'))
  assert.equal(told.conflicts.length, 0)
  assert.ok(!told.evidence.some((e) => /stock driver/.test(e.fact)))
})
