/**
 * judgeCollective and groupGpus of src/analysis/verdict/_transport.ts on hand-made fits and contexts
 * (no set, no simulator): which NCCL transport each kind of evidence gives, the words and order
 * of the evidence, the conflict, NCCL's model band set beside the floor, and the context the
 * bands are cited with. NCCL's ring model written out here from tuning.cc: base + 2(n−1)·hop µs
 * with PCI/LL 6.6 + 1.0, NVLink/LL 6.6 + 0.6, PCI/Simple 8.4 + 5.7.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { MachineContext, Sourced } from '../../src/analysis/verdict/_context.ts'
import type { NcclSeen } from '../../src/analysis/verdict/_sources.ts'
import { groupGpus, judgeCollective } from '../../src/analysis/verdict/_transport.ts'

const US = 1e-6
type CollFit = Parameters<typeof judgeCollective>[0]
const fit = (over: Partial<CollFit> = {}): CollFit => ({
  bench: 'nccl.all_reduce',
  group: '0-3',
  ranks: 4,
  alpha: 30 * US,
  ...over,
})
const series = { origins: new Set<string>() }
const none = () => undefined
const ctx = (over: Partial<MachineContext> = {}): MachineContext => ({
  ...{ linkClass: none, p2pStatus: none, peerAccess: none, nccl: none, gpusPerProcess: none },
  ...over,
})
const links = (lc: (a: number, b: number) => string) => (a: number, b: number) => ({
  value: lc(a, b),
  source: `topo.txt:${a}${b}`,
})
const said = (v: Partial<NcclSeen>) => (): Sourced<NcclSeen> => ({
  value: { transports: [], algos: [], protos: [], ...v },
  source: 'run.log:7',
})
const judge = (f: CollFit, c = ctx()) => judgeCollective(f, series, c)
const facts = (f: CollFit, c = ctx()) => judge(f, c).evidence.map((e) => `${e.strength} ${e.fact} | ${e.source}`)

test('groupGpus reads ranges and lists, and nothing else', () => {
  assert.deepEqual(groupGpus('0-3'), [0, 1, 2, 3])
  assert.deepEqual(groupGpus('0,2,4,6'), [0, 2, 4, 6])
  assert.deepEqual(groupGpus('0-1,4-5'), [0, 1, 4, 5])
  assert.deepEqual(groupGpus(' 2 , 7 '), [2, 7])
  assert.deepEqual(groupGpus('5'), [5])
  assert.deepEqual(groupGpus('8-11,15'), [8, 9, 10, 11, 15])
  assert.deepEqual(groupGpus('6-10'), [6, 7, 8, 9, 10])
  for (const bad of [undefined, '', 'a-b', '0-', '-3', '1;2', '0-3x', 'x0-3']) assert.equal(groupGpus(bad), undefined)
})

test('nothing known: undetermined, the floor beside the PCI/LL ring model', () => {
  const j = judge(fit())
  assert.equal(j.mechanism.id, 'undetermined')
  assert.equal(
    j.mechanism.text,
    'NCCL transport not determined (no NCCL_DEBUG=INFO output, and the topology does not settle it)',
  )
  assert.equal(j.mechanism.transports, undefined)
  // 6.6 + 2·3·1.0 = 12.6 µs; 30 / 12.6 = 2.38.
  assert.deepEqual(facts(fit()), [
    "3 floor 30 µs; NCCL's own model (PCI/LL, ring, 4 GPUs) predicts 12.6 µs: 2.38× | NVIDIA/nccl src/graph/tuning.cc @ 5067397 (v2.30.7)",
  ])
  assert.deepEqual(
    j.references.map((b) => [b.id, +(b.low / US).toFixed(3)]),
    [['nccl-model-pci-ll-n4', 12.6]],
  )
  assert.deepEqual(j.conflicts, [])
  assert.deepEqual(j.cite, { ranks: 4, singleProcess: false, env: {} })
  // Every measured all_reduce band is a candidate; another collective has none.
  assert.equal(j.candidates.length, 12)
  assert.ok(j.candidates.every((b) => b.metric === 'allreduce-time'))
  assert.deepEqual(judge(fit({ bench: 'nccl.all_gather' })).candidates, [])
  // Without a rank count there is no model band.
  assert.deepEqual(judge(fit({ ranks: undefined })).references, [])
  assert.deepEqual(facts(fit({ ranks: undefined })), [])
  assert.deepEqual(judge(fit({ ranks: undefined })).cite, { singleProcess: false, env: {} })
  assert.deepEqual(facts(fit({ ranks: undefined, group: undefined })), [], 'no ranks: no GPUs assumed')
})

test("NCCL's account: NET over NVLS over SHM over P2P, its words in the evidence", () => {
  const cases: [Partial<NcclSeen>, string][] = [
    [{ transports: ['P2P/IPC'] }, 'nccl-p2p'],
    [{ transports: ['P2P/IPC', 'SHM/direct/direct'] }, 'nccl-shm'],
    [{ transports: ['SHM', 'NET/IB/0'] }, 'nccl-net'],
    [{ transports: ['P2P/IPC'], algos: ['NVLS'] }, 'nccl-nvls'],
    [{ transports: ['P2P/IPC'], algos: ['NVLSTree'] }, 'nccl-nvls'],
    [{ transports: ['NET/Socket'], algos: ['NVLS'] }, 'nccl-net'],
    [{ transports: ['p2p/CUMEM'] }, 'nccl-p2p'],
    [{ transports: ['COLLNET'] }, 'undetermined'],
    [{ algos: ['Ring'] }, 'undetermined'],
  ]
  for (const [v, want] of cases)
    assert.equal(judge(fit(), ctx({ nccl: said(v) })).mechanism.id, want, JSON.stringify(v))
  const full = said({
    transports: ['P2P/IPC'],
    channels: 2,
    algos: ['Ring', 'Tree'],
    protos: ['LL'],
    version: '2.21.5',
  })
  const j = judge(fit(), ctx({ nccl: full }))
  assert.equal(j.mechanism.text, 'NCCL over its P2P transport (over PCIe)')
  assert.deepEqual(j.mechanism.transports, ['P2P/IPC'])
  assert.equal(
    facts(fit(), ctx({ nccl: full }))[0],
    '1 NCCL reported via P2P/IPC, 2 channel(s), algorithm Ring/Tree, protocol LL, NCCL 2.21.5 | run.log:7',
  )
  assert.equal(j.cite.channels, 2)
  assert.equal(j.cite.transport, 'P2P')
  assert.equal(facts(fit(), ctx({ nccl: said({}) }))[0], '1 NCCL reported no transport lines | run.log:7')
  assert.equal(judge(fit(), ctx({ nccl: said({}) })).mechanism.transports, undefined)
  // NET and NVLS floors are not set beside the ring model; SHM and P2P are.
  assert.deepEqual(judge(fit(), ctx({ nccl: said({ transports: ['NET/IB'] }) })).references, [])
  assert.deepEqual(judge(fit(), ctx({ nccl: said({ transports: ['P2P'], algos: ['NVLS'] }) })).references, [])
  assert.equal(judge(fit(), ctx({ nccl: said({ transports: ['SHM'] }) })).references.length, 1)
  assert.equal(judge(fit(), ctx({ nccl: said({ transports: ['SHM'] }) })).mechanism.text, MECH_SHM)
})

const MECH_SHM = 'NCCL over SHM (no P2P: every ring step staged through shared host memory)'

test('the run settings: P2P off gives SHM, SHM off too gives NET; "0" and "" are off', () => {
  const env = (e: Record<string, string>) => judge(fit({ env: e }))
  assert.equal(env({ NCCL_P2P_DISABLE: '1' }).mechanism.id, 'nccl-shm')
  assert.equal(env({ NCCL_P2P_DISABLE: '1', NCCL_SHM_DISABLE: '1' }).mechanism.id, 'nccl-net')
  assert.equal(env({ NCCL_P2P_DISABLE: '0' }).mechanism.id, 'undetermined')
  assert.equal(env({ NCCL_P2P_DISABLE: '' }).mechanism.id, 'undetermined')
  assert.equal(env({ NCCL_SHM_DISABLE: '1' }).mechanism.id, 'undetermined')
  assert.deepEqual(facts(fit({ env: { NCCL_ALGO: 'Ring', NCCL_P2P_DISABLE: '1', NCCL_PROTO: 'Simple', X: '1' } })), [
    '2 NCCL_P2P_DISABLE=1 requested | the run environment',
    '2 NCCL_PROTO=Simple requested | the run environment',
    '2 NCCL_ALGO=Ring requested | the run environment',
    '2 NCCL would use SHM: NCCL_P2P_DISABLE=1 | NCCL transport rules',
    // 8.4 + 2·3·5.7 = 42.6 µs; 30 / 42.6 = 0.70.
    "3 floor 30 µs; NCCL's own model (PCI/Simple, ring, 4 GPUs) predicts 42.6 µs: 0.70× | NVIDIA/nccl src/graph/tuning.cc @ 5067397 (v2.30.7)",
  ])
  assert.deepEqual(env({ NCCL_P2P_DISABLE: '1' }).conflicts, [], 'nothing NCCL said to conflict with')
  const j = env({ NCCL_P2P_LEVEL: 'SYS', NCCL_SHM_DISABLE: '0' })
  assert.deepEqual(j.cite.env, { NCCL_P2P_LEVEL: 'SYS', NCCL_SHM_DISABLE: '0' })
  assert.equal(j.references[0]?.id, 'nccl-model-pci-ll-n4')
})

test('pairs without P2P: topo -p2p not OK, or no peer access, give SHM', () => {
  const ns = ctx({ p2pStatus: (a) => (a === 1 ? { value: 'NS', source: 'p2p.txt:3' } : undefined) })
  assert.equal(judge(fit(), ns).mechanism.id, 'nccl-shm')
  assert.deepEqual(facts(fit({ ranks: undefined }), ns), [
    '1 2 of 6 pairs of the group have no P2P (GPU1–GPU2: nvidia-smi topo -p2p NS, …) | p2p.txt:3',
    '2 NCCL would use SHM: pairs without P2P | NCCL transport rules',
  ])
  const ok = ctx({ p2pStatus: () => ({ value: 'OK', source: 'p2p.txt:1' }) })
  assert.equal(judge(fit(), ok).mechanism.id, 'undetermined')
  const one = ctx({ peerAccess: (a, b) => ({ value: !(a === 0 && b === 3), source: 'set.csv:9' }) })
  assert.equal(judge(fit(), one).mechanism.id, 'nccl-shm')
  assert.equal(facts(fit(), one)[0], '1 1 of 6 pairs of the group have no P2P (GPU0–GPU3: no peer access) | set.csv:9')
  const shmOff = judge(fit({ env: { NCCL_SHM_DISABLE: '1' } }), one)
  assert.equal(shmOff.mechanism.id, 'nccl-net')
  // The evidence strongest first: the pairs without P2P before the settings found earlier.
  assert.deepEqual(
    facts(fit({ env: { NCCL_ALGO: 'Tree' } }), one).map((f) => f.slice(0, 12)),
    ['1 1 of 6 pai', '2 NCCL_ALGO=', '2 NCCL would', '3 floor 30 µ'],
  )
  // OK from topo -p2p does not hide the set's own CANNOT.
  const both = ctx({ ...one, p2pStatus: () => ({ value: 'OK', source: 'p2p.txt:1' }) })
  assert.equal(judge(fit(), both).mechanism.id, 'nccl-shm')
})

test('link classes: NVLink or PCIe switches give P2P; AMD with host bridges gives SHM', () => {
  const nv = ctx({ linkClass: links(() => 'NV12') })
  const j = judge(fit(), nv)
  assert.equal(j.mechanism.id, 'nccl-p2p')
  assert.equal(j.mechanism.text, 'NCCL over its P2P transport (over NVLink)')
  // 6.6 + 2·3·0.6 = 10.2 µs.
  assert.deepEqual(
    j.references.map((b) => [b.id, +(b.low / US).toFixed(3)]),
    [['nccl-model-nvlink-ll-n4', 10.2]],
  )
  assert.deepEqual(facts(fit(), nv).slice(0, 2), [
    '2 link classes in the group: NV12 | topo.txt:01',
    '2 NCCL would use P2P: every pair NVLink | NCCL transport rules',
  ])
  assert.deepEqual(j.cite.links, ['NV12', 'NV12', 'NV12', 'NV12', 'NV12', 'NV12'])
  assert.equal(j.cite.nvlink, true)
  const sw = ctx({ linkClass: links((a) => (a === 0 ? 'PIX' : 'PXB')) })
  assert.equal(judge(fit(), sw).mechanism.text, 'NCCL over its P2P transport (over PCIe)')
  assert.deepEqual(facts(fit(), sw).slice(0, 2), [
    '2 link classes in the group: PIX, PXB | topo.txt:01',
    '2 NCCL would use P2P: every pair within PCIe switches (PIX/PXB) | NCCL transport rules',
  ])
  assert.equal(judge(fit(), sw).cite.nvlink, undefined)
  // NVLink and PCIe switches mixed: P2P, but not "every pair NVLink".
  const mixed = ctx({ linkClass: links((a) => (a === 0 ? 'NV4' : 'PIX')) })
  assert.equal(judge(fit(), mixed).mechanism.text, 'NCCL over its P2P transport (over PCIe)')
  assert.equal(
    facts(fit(), mixed)[1],
    '2 NCCL would use P2P: every pair within PCIe switches (PIX/PXB) | NCCL transport rules',
  )
  assert.equal(judge(fit(), mixed).references[0]?.id, 'nccl-model-pci-ll-n4')
  // One link unknown: the classes settle nothing.
  const part = ctx({ linkClass: (a, b) => (a === 2 && b === 3 ? undefined : { value: 'NV4', source: 't' }) })
  assert.equal(judge(fit(), part).mechanism.id, 'undetermined')
  assert.equal(judge(fit(), part).cite.links, undefined)
  const amd = { value: 'AuthenticAMD', source: 'cpuinfo:1' }
  const sys = ctx({ linkClass: links((a) => (a === 0 ? 'SYS' : 'PXB')), cpuVendor: amd })
  assert.equal(judge(fit(), sys).mechanism.id, 'nccl-shm')
  assert.deepEqual(facts(fit(), sys).slice(0, 3), [
    '2 link classes in the group: PXB, SYS | topo.txt:01',
    '2 CPU AuthenticAMD | cpuinfo:1',
    "2 NCCL would use SHM: NCCL's default P2P level on AMD CPUs with more than 2 GPUs is PATH_PXB, and some pairs cross a host bridge (NVIDIA/nccl src/graph/paths.cc) | NCCL transport rules",
  ])
  assert.equal(judge(fit({ env: { NCCL_SHM_DISABLE: '1' } }), sys).mechanism.id, 'nccl-net')
  assert.equal(judge(fit({ env: { NCCL_P2P_LEVEL: 'SYS' } }), sys).mechanism.id, 'undetermined')
  assert.equal(judge(fit({ group: '0-1', ranks: 2 }), sys).mechanism.id, 'undetermined')
  assert.equal(judge(fit({ group: '0-2', ranks: 3 }), sys).mechanism.id, 'nccl-shm')
  assert.equal(judge(fit({ ranks: undefined }), sys).mechanism.id, 'undetermined')
  const intel = ctx({ linkClass: links(() => 'SYS'), cpuVendor: { value: 'GenuineIntel', source: 'c' } })
  assert.equal(judge(fit(), intel).mechanism.id, 'undetermined')
})

test('a group without GPU numbers: the ranks taken as every GPU only when the counts agree', () => {
  const nv = ctx({ gpus: 4, linkClass: links(() => 'NV4') })
  const j = judge(fit({ group: undefined }), nv)
  assert.equal(j.mechanism.id, 'nccl-p2p')
  assert.deepEqual(facts(fit({ group: undefined }), nv).slice(0, 2), [
    '2 the 4 ranks taken as GPUs 0–3 (every GPU the set or its topology knows) | assumption',
    '2 link classes in the group: NV4 | topo.txt:01',
  ])
  assert.equal(judge(fit({ group: undefined }), ctx({ ...nv, gpus: 8 })).mechanism.id, 'undetermined')
  assert.equal(judge(fit({ group: 'all' }), ctx({ ...nv, gpus: 8 })).mechanism.id, 'undetermined')
  // A group that names its GPUs is read, whatever the count.
  const seen: string[] = []
  const spy = ctx({ gpus: 4, linkClass: (a, b) => (seen.push(`${a}-${b}`), { value: 'NV4', source: 't' }) })
  const named = facts(fit({ group: '4-7' }), spy)
  assert.ok(!named.some((f) => f.includes('taken as GPUs')), named.join('\n'))
  assert.deepEqual([...new Set(seen)], ['4-5', '4-6', '4-7', '5-6', '5-7', '6-7'])
})

test('NCCL said one transport, the settings another: a conflict, and what NCCL said stands', () => {
  const c = ctx({ nccl: said({ transports: ['P2P/IPC'] }) })
  const j = judge(fit({ env: { NCCL_P2P_DISABLE: '1' } }), c)
  assert.equal(j.mechanism.id, 'nccl-p2p')
  assert.deepEqual(j.conflicts, [
    {
      text: 'NCCL reported P2P, but NCCL_P2P_DISABLE=1 points at SHM',
      facts: ['NCCL reported via P2P/IPC', 'NCCL_P2P_DISABLE=1'],
    },
  ])
  // The conflict's facts are NCCL's account and the reason, also when the GPUs were assumed first.
  const assumed = ctx({
    gpus: 4,
    nccl: said({ transports: ['P2P/IPC'] }),
    peerAccess: () => ({ value: false, source: 's' }),
  })
  assert.deepEqual(judge(fit({ group: undefined }), assumed).conflicts, [
    {
      text: 'NCCL reported P2P, but pairs without P2P points at SHM',
      facts: ['NCCL reported via P2P/IPC', 'pairs without P2P'],
    },
  ])
  // No "would use" when NCCL said what it used.
  assert.ok(!j.evidence.some((e) => e.fact.startsWith('NCCL would use')))
  // NET and NVLS do not conflict with a P2P-off inference; agreement does not either.
  for (const v of [{ transports: ['NET/IB'] }, { transports: ['SHM'] }, { transports: ['P2P'], algos: ['NVLS'] }])
    assert.deepEqual(judge(fit({ env: { NCCL_P2P_DISABLE: '1' } }), ctx({ nccl: said(v) })).conflicts, [])
})

test('the cite context: machine facts, NVLink from the context, one process driving every GPU', () => {
  const c = ctx({
    gpuFamily: 'A100',
    vm: { value: false, source: 'capture' },
    nvlink: { value: true, source: 'capture' },
    attach: { value: 'switch', source: 'capture' },
    gpusPerProcess: () => 4,
    nccl: said({ transports: ['P2P/IPC'], channels: 0 }),
  })
  const j = judge(fit({ env: { NCCL_ALGO: 'Ring' } }), c)
  assert.equal(j.mechanism.text, 'NCCL over its P2P transport (over NVLink)')
  assert.equal(j.references[0]?.id, 'nccl-model-nvlink-ll-n4')
  assert.deepEqual(j.cite, {
    gpuFamily: 'A100',
    vm: false,
    nvlink: true,
    attach: 'switch',
    transport: 'P2P',
    ranks: 4,
    singleProcess: true,
    env: { NCCL_ALGO: 'Ring' },
    channels: 0,
  })
  // NVLink said by the context counts only when the group's links are not all known.
  const pci = judge(fit(), ctx({ ...c, linkClass: links(() => 'PIX') }))
  assert.equal(pci.mechanism.text, 'NCCL over its P2P transport (over PCIe)')
  assert.equal(pci.cite.nvlink, true)
  const noNv = judge(fit(), ctx({ nvlink: { value: false, source: 'capture' }, nccl: said({ transports: ['P2P'] }) }))
  assert.equal(noNv.mechanism.text, 'NCCL over its P2P transport (over PCIe)')
  assert.equal(noNv.cite.nvlink, false)
  // One rank is never "one process driving every GPU"; another process count is not either.
  assert.equal(judge(fit({ group: '0', ranks: 1 }), ctx({ gpusPerProcess: () => 1 })).cite.singleProcess, false)
  assert.equal(judge(fit(), ctx({ gpusPerProcess: () => 1 })).cite.singleProcess, false)
  // The evidence comes strongest first, whatever order it was found in.
  const s = judge(fit({ env: { NCCL_PROTO: 'LL' } }), c).evidence.map((e) => e.strength)
  assert.deepEqual(s, [1, 2, 3])
})

test('RTX 4090/5090 (stock driver: P2P disabled) is weak evidence for SHM: it decides only where nothing stronger does', () => {
  const g = (value: string) => ({ gpuName: { value, source: 'ranks.txt:3' } })
  const pix = links(() => 'PIX')
  // Nothing else known: SHM, with the published fact and its source.
  const alone = judge(fit(), ctx(g('NVIDIA GeForce RTX 4090')))
  assert.equal(alone.mechanism.id, 'nccl-shm')
  assert.ok(
    alone.evidence.some(
      (e) => /RTX 4090 on NVIDIA's stock driver has P2P disabled/.test(e.fact) && /chlc/.test(e.source),
    ),
  )
  // Over the link classes (PIX would otherwise give P2P), and for the 5090 too.
  assert.equal(judge(fit(), ctx({ ...g('NVIDIA GeForce RTX 5090'), linkClass: pix })).mechanism.id, 'nccl-shm')
  // NCCL's own account is stronger: P2P stays P2P.
  const told = judge(
    fit(),
    ctx({ ...g('NVIDIA GeForce RTX 4090'), nccl: said({ transports: ['P2P/IPC'], infoLines: 4 }) }),
  )
  assert.equal(told.mechanism.id, 'nccl-p2p')
  // Neither the RTX PRO 6000 nor a 3090 is named by it.
  assert.equal(judge(fit(), ctx({ ...g('NVIDIA RTX PRO 6000 Blackwell'), linkClass: pix })).mechanism.id, 'nccl-p2p')
  assert.equal(judge(fit(), ctx(g('NVIDIA GeForce RTX 3090'))).mechanism.id, 'undetermined')
})
