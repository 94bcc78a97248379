/**
 * The machine context (src/analysis/verdict/_context.ts) of hand-made sets and topology views: which
 * GPU name wins and where it was read, its family, a VM declared or detected, the CPU, the
 * GPU count, link classes, NVLink and how the GPUs attach, peer access from the set's own
 * rows (one CANNOT wins), NCCL's account of the launches a series came from, and GPUs per
 * process. Every expected value and source line is written out here.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { TopologyView } from '../../src/analysis/index.ts'
import { gpuFamilyOf, machineContext, transportFamily } from '../../src/analysis/index.ts'
import type { Manifest, Row } from '../../src/model/index.ts'
import { makeRow } from '../../src/model/index.ts'
import { manifest } from '../analysis/analyze-rows.ts'

const p2p = (src: number | null, dst: number | null, over: Partial<Row> = {}): Row =>
  makeRow({
    bench: 'p2p.latency',
    metric: 'latency',
    unit: 's',
    value: 1e-6,
    sizeBytes: 8,
    src,
    dst,
    source: { file: 'raw/a.txt', line: 1 },
    ...over,
  })
const ctxOf = (m: Partial<Manifest>, rows: Row[] = [], topo: TopologyView | null = null) =>
  machineContext({ dir: 'd', manifest: manifest(m), diagnostics: [], rows }, topo)
const view = (over: Partial<TopologyView> = {}): TopologyView => ({
  source: 'raw/topo-m.txt',
  linkClass: (a, b) => (a + b === 1 ? 'NODE' : undefined),
  ...over,
})
const FUNCTIONS = ['gpusPerProcess', 'launch', 'linkClass', 'nccl', 'p2pBandwidth', 'p2pStatus', 'peerAccess']

test('GPU families as the bands spell them, and transport families as NCCL prints them', () => {
  const names: [string | undefined, string | undefined][] = [
    ['NVIDIA RTX PRO 6000 Blackwell Workstation Edition', 'RTX PRO 6000 Blackwell'],
    ['nvidia rtx pro 6000 blackwell', 'RTX PRO 6000 Blackwell'],
    ['NVIDIA RTX 6000 Ada Generation', 'RTX 6000 Ada'],
    ['nvidia rtx 6000 ada', 'RTX 6000 Ada'],
    ['NVIDIA A100-SXM4-80GB', 'A100'],
    ['nvidia a100 pcie', 'A100'],
    ['NVIDIA GeForce RTX 4090', 'RTX 4090'],
    ['NVIDIA GeForce RTX 3090', 'RTX 3090'],
    ['NVIDIA H100 80GB HBM3', undefined],
    ['', undefined],
    [undefined, undefined],
  ]
  for (const [name, family] of names) assert.equal(gpuFamilyOf(name), family, String(name))
  const transports: [string, string | undefined][] = [
    ['P2P/IPC', 'P2P'],
    ['p2p/CUMEM/read', 'P2P'],
    ['SHM/direct/direct', 'SHM'],
    ['NET/IB/0/GDRDMA', 'NET'],
    ['NVLS', 'NVLS'],
    ['COLLNET/x', undefined],
    ['', undefined],
  ]
  for (const [t, family] of transports) assert.equal(transportFamily(t), family, t)
})

test('the GPU name: the manifest host first, then device lines of a source, then the topology capture', () => {
  const topo = view({
    gpuName: { value: 'NVIDIA H100 80GB HBM3', source: 'raw/smi.txt' },
    vm: { value: true, source: 'raw/lspci.txt: hypervisor' },
    cpuVendor: { value: 'AMD', source: 'raw/cpu.txt' },
    gpus: 4,
  })
  const devices = { raw: 'raw/001-b.txt', format: 'nvbandwidth', meta: { devices: [{}, { name: 'NVIDIA A100 PCIe' }] } }
  const unnamed = { raw: 'raw/002-c.txt', format: 'nvbandwidth', meta: { devices: [{}] } }
  const sources = [{ raw: 'raw/000-a.txt', format: 'p2p', meta: {} }, unnamed, devices] as Manifest['sources']
  const host = { gpus: [{ index: 0 }, { index: 1, name: 'NVIDIA RTX 6000 Ada Generation' }], vm: false }
  const a = ctxOf({ host, sources }, [p2p(0, 1)], topo)
  assert.deepEqual(a.gpuName, { value: 'NVIDIA RTX 6000 Ada Generation', source: 'manifest host.gpus' })
  assert.equal(a.gpuFamily, 'RTX 6000 Ada')
  assert.deepEqual(a.vm, { value: false, source: 'manifest host.vm (declared)' })
  assert.deepEqual(a.cpuVendor, { value: 'AMD', source: 'raw/cpu.txt' })
  assert.equal(a.gpus, 4)
  // No name in the host facts, a VM flag that is not a boolean: the source's device lines, the capture's VM.
  const b = ctxOf({ host: { gpus: [{ index: 0 }], vm: 'yes' }, sources }, [], topo)
  assert.deepEqual(b.gpuName, { value: 'NVIDIA A100 PCIe', source: 'raw/001-b.txt (nvbandwidth device lines)' })
  assert.equal(b.gpuFamily, 'A100')
  assert.deepEqual(b.vm, { value: true, source: 'raw/lspci.txt: hypervisor' })
  assert.deepEqual(ctxOf({ host: { vm: true } }).vm, { value: true, source: 'manifest host.vm (declared)' })
  // Only the capture names it; a family the bands do not know is left out.
  const c = ctxOf({ sources: [sources?.[0]] as Manifest['sources'] }, [], topo)
  assert.deepEqual(c.gpuName, { value: 'NVIDIA H100 80GB HBM3', source: 'raw/smi.txt' })
  assert.deepEqual(Object.keys(c).sort(), ['cpuVendor', 'gpuName', 'gpus', ...FUNCTIONS, 'vm'].sort())
  // Nothing known: only the questions, each answering nothing.
  const d = ctxOf({})
  assert.deepEqual(Object.keys(d).sort(), FUNCTIONS)
  assert.equal(d.linkClass(0, 1), undefined)
  assert.equal(d.p2pStatus(0, 1), undefined)
  assert.equal(d.peerAccess(0, 1), undefined)
  assert.equal(d.nccl({ origins: new Set(['raw/000-a.txt']) }), undefined)
  assert.equal(d.gpusPerProcess({ origins: new Set(['raw/000-a.txt']) }), undefined)
})

test('the GPU count from the capture, else from the p2p rows when they name two GPUs or more', () => {
  const rows = [
    p2p(0, 1),
    p2p(2, 1, { bench: 'p2p.bw_uni', unit: 'B/s', metric: 'bandwidth' }),
    p2p(null, null),
    p2p(5, 6, { bench: 'nccl.sendrecv' }),
  ]
  assert.equal(ctxOf({}, rows).gpus, 3)
  assert.equal(ctxOf({}, rows, view({ gpus: 8 })).gpus, 8)
  assert.equal(ctxOf({}, [p2p(3, 3)]).gpus, undefined)
  assert.equal(ctxOf({}, [p2p(5, 6, { bench: 'nccl.sendrecv' })]).gpus, undefined)
})

test('link classes and p2p status from the capture; NVLink and how the GPUs attach from its classes, else an SXM name', () => {
  const status = { value: 'CNS', source: 'raw/topo-p2p.txt' }
  const t = view({ classes: ['NODE', 'SYS', 'PIX'], p2pStatus: (a) => (a === 0 ? status : undefined) })
  const a = ctxOf({}, [], t)
  assert.deepEqual(a.linkClass(1, 0), { value: 'NODE', source: 'raw/topo-m.txt' })
  assert.equal(a.linkClass(0, 2), undefined)
  assert.deepEqual(a.p2pStatus(0, 1), status)
  assert.equal(a.p2pStatus(1, 0), undefined)
  assert.deepEqual(a.nvlink, { value: false, source: 'raw/topo-m.txt' })
  assert.deepEqual(a.attach, { value: 'switch', source: 'raw/topo-m.txt' })
  assert.equal(ctxOf({}, [], view()).p2pStatus(0, 1), undefined)
  const nv = ctxOf({}, [], view({ classes: ['NV12', 'SYS'] }))
  assert.deepEqual([nv.nvlink?.value, nv.attach?.value], [true, 'direct'])
  assert.deepEqual(ctxOf({}, [], view({ classes: ['nv4'] })).nvlink?.value, true)
  assert.deepEqual(ctxOf({}, [], view({ classes: ['PXB', 'PHB'] })).attach?.value, 'switch')
  assert.deepEqual(ctxOf({}, [], view({ classes: ['PHB'] })).attach?.value, 'direct')
  // No classes: an SXM or NVL module name says NVLink; a PCIe card says nothing.
  const sxm = ctxOf({ host: { gpus: [{ index: 0, name: 'NVIDIA A100-SXM4-80GB' }] } }, [], view({ classes: [] }))
  assert.deepEqual(sxm.nvlink, {
    value: true,
    source: 'manifest host.gpus: NVIDIA A100-SXM4-80GB (SXM modules are connected by NVLink)',
  })
  assert.equal(sxm.attach, undefined)
  assert.equal(ctxOf({ host: { gpus: [{ index: 0, name: 'NVIDIA H100 NVL' }] } }).nvlink?.value, true)
  assert.equal(ctxOf({ host: { gpus: [{ index: 0, name: 'NVIDIA H100 PCIe' }] } }).nvlink, undefined)
  assert.equal(ctxOf({ host: { gpus: [{ index: 0, name: 'NVIDIA H100 NVLX' }] } }).nvlink, undefined)
})

test('peer access per unordered pair from the rows: one CANNOT wins, else the last CAN line is the source', () => {
  const ctx = ctxOf({}, [
    p2p(0, 1, { peerAccess: true }),
    p2p(1, 0, { peerAccess: false, source: { file: 'raw/b.txt', line: 4 } }),
    p2p(0, 1, { peerAccess: true, source: { file: 'raw/c.txt', line: 2 } }),
    p2p(3, 2, { peerAccess: true }),
    p2p(2, 3, { peerAccess: true, source: { file: 'raw/c.txt', line: 7 } }),
    p2p(4, 4, { peerAccess: false }),
    p2p(5, null, { peerAccess: false }),
    p2p(null, 5, { peerAccess: false }),
    p2p(6, 7),
    p2p(0, 3, { peerAccess: true, source: { file: 'raw/d.txt', line: 3 } }),
    // p2p_bench's peer=0 on a P2P-disabled run: the copy did not ask for peer access.
    p2p(8, 9, { peerAccess: false, p2p: 'disabled' }),
  ])
  const cannot = { value: false, source: 'raw/b.txt: Device=1 CANNOT Access Peer Device=0' }
  assert.deepEqual(ctx.peerAccess(0, 1), cannot)
  assert.deepEqual(ctx.peerAccess(1, 0), cannot)
  assert.deepEqual(ctx.peerAccess(3, 2), { value: true, source: 'raw/c.txt: Device=2 CAN Access Peer Device=3' })
  assert.deepEqual(ctx.peerAccess(3, 0), { value: true, source: 'raw/d.txt: Device=0 CAN Access Peer Device=3' })
  for (const [a, b] of [
    [4, 4],
    [5, 5],
    [0, 5],
    [6, 7],
    [8, 9],
  ] as const)
    assert.equal(ctx.peerAccess(a, b), undefined)
})

test("NCCL's account of a series' launches, merged, and GPUs per process from the nccl-tests banner", () => {
  const sources = [
    {
      raw: 'raw/000-a.txt',
      format: 'nccl-tests',
      meta: { banner: { nGpus: 2 } },
      nccl: { transports: ['SHM/direct', 'P2P/IPC'], channels: 2, algos: ['Ring'], protos: ['LL'], version: '2.21.5' },
    },
    { raw: 'raw/001-b.txt', format: 'nccl-tests', meta: { banner: { nGpus: 'x' } } },
    {
      raw: 'raw/002-c.txt',
      format: 'nccl-tests',
      meta: { banner: { nGpus: 1 } },
      nccl: { transports: ['P2P/IPC'], channels: 4, algos: ['Tree', 'Ring'], protos: ['Simple'] },
    },
  ] as unknown as Manifest['sources']
  const points = {
    p1: { nccl: { transports: ['NET/IB'], algos: ['Ring'], protos: ['LL128'], version: '2.19.3' } },
    p2: {},
  }
  const ctx = ctxOf({ sources, extra: { sweep: { points } } })
  const of = (...o: string[]) => ({ origins: new Set(o) })
  assert.deepEqual(ctx.nccl(of('p1', 'p2', 'raw/000-a.txt', 'raw/001-b.txt', 'raw/002-c.txt')), {
    value: {
      transports: ['NET/IB', 'P2P/IPC', 'SHM/direct'],
      algos: ['Ring', 'Tree'],
      protos: ['LL', 'LL128', 'Simple'],
      channels: 4,
      version: '2.19.3',
    },
    source: 'NCCL_DEBUG=INFO lines of sweep point p1, raw/000-a.txt, raw/002-c.txt',
  })
  assert.deepEqual(ctx.nccl(of('raw/002-c.txt')), {
    value: { transports: ['P2P/IPC'], algos: ['Ring', 'Tree'], protos: ['Simple'], channels: 4 },
    source: 'NCCL_DEBUG=INFO lines of raw/002-c.txt',
  })
  assert.deepEqual(ctx.nccl(of('p1'))?.value, {
    transports: ['NET/IB'],
    algos: ['Ring'],
    protos: ['LL128'],
    version: '2.19.3',
  })
  assert.equal(ctx.nccl(of('p2', 'raw/001-b.txt', 'p9')), undefined)
  assert.equal(ctx.gpusPerProcess(of('p1', 'raw/001-b.txt', 'raw/002-c.txt', 'raw/000-a.txt')), 1)
  assert.equal(ctx.gpusPerProcess(of('raw/000-a.txt')), 2)
  assert.equal(ctx.gpusPerProcess(of('p1', 'raw/001-b.txt')), undefined)
})

test('P2P bandwidth per unordered pair: the highest P2P-enabled B/s row, its first line on a tie', () => {
  const bw = (src: number | null, dst: number | null, value: number, over: Partial<Row> = {}) =>
    p2p(src, dst, { bench: 'p2p.bw_uni', metric: 'bandwidth', unit: 'B/s', value, p2p: 'enabled', ...over })
  const rows = [
    bw(0, 2, 10e9),
    bw(0, 1, 20e9),
    bw(1, 0, 25e9),
    bw(0, 1, 22e9),
    bw(0, 1, 25e9, { source: { file: 'raw/b.txt', line: 9 } }),
    // None of these is a P2P-enabled bandwidth between two GPUs.
    bw(0, 1, 30e9, { p2p: 'disabled' }),
    bw(0, 1, 40e9, { peerAccess: false }),
    bw(0, 1, 50e9, { bench: 'p2p.bw_bidi' }),
    bw(0, 1, 55e9, { unit: 's' }),
    bw(1, 1, 60e9),
    bw(null, 1, 70e9),
    bw(1, null, 70e9),
  ]
  const ctx = ctxOf({}, rows)
  const at01 = { value: 25e9, source: 'raw/a.txt: P2P=Enabled unidirectional bandwidth GPU1→GPU0' }
  assert.deepEqual(ctx.p2pBandwidth?.(0, 1), at01)
  assert.deepEqual(ctx.p2pBandwidth?.(1, 0), at01)
  assert.equal(ctx.p2pBandwidth?.(0, 2)?.value, 10e9)
  assert.equal(ctx.p2pBandwidth?.(1, 2), undefined)
  assert.equal(ctx.p2pBandwidth?.(1, 1), undefined)
  // 25 GB/s is within PCIe: no NVLink said.
  assert.equal(ctx.nvlink, undefined)
})

test('NVLink from the fastest measured pair when no capture names the links: beyond PCIe Gen5 x16', () => {
  const bw = (src: number, dst: number, value: number) =>
    p2p(src, dst, { bench: 'p2p.bw_uni', metric: 'bandwidth', unit: 'B/s', value, p2p: 'enabled' })
  // The slower pair first: the fastest is found by value, not by order.
  const ctx = ctxOf({}, [bw(0, 2, 20e9), bw(0, 1, 150e9)], view({ classes: [] }))
  assert.equal(ctx.nvlink?.value, true)
  assert.match(
    ctx.nvlink?.source ?? '',
    /^raw\/a\.txt: P2P=Enabled unidirectional bandwidth GPU0→GPU1: P2P unidirectional bandwidth 150 GB\/s, above .*: NVLink$/,
  )
  assert.equal(ctx.attach, undefined)
  assert.equal(ctxOf({}, [bw(0, 1, 40e9)]).nvlink, undefined)
})

test('the launch of a series: the first of its origins whose file states one, named with its format', () => {
  const sources = [
    { raw: 'raw/000-a.txt', format: 'nccl-tests', meta: {} },
    { raw: 'raw/001-b.txt', format: 'nccl-tests-json', meta: { hosts: ['h1', 'h2'] } },
    { raw: 'raw/002-c.txt', format: 'nccl-tests', meta: { hosts: ['h3'] } },
  ] as unknown as Manifest['sources']
  const ctx = ctxOf({ sources })
  const of = (...o: string[]) => ({ origins: new Set(o) })
  assert.deepEqual(ctx.launch?.(of('p1', 'raw/000-a.txt', 'raw/001-b.txt', 'raw/002-c.txt')), {
    value: { named: ['h1', 'h2'], count: 2, countFrom: 'the rank lines', env: {} },
    source: 'raw/001-b.txt (nccl-tests-json)',
  })
  assert.equal(ctx.launch?.(of('p1', 'raw/000-a.txt')), undefined)
})
