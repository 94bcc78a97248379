/**
 * Each topology rule's whole finding (severity, GPUs, sentence, facts, reference) on hand-made
 * machines, and the edges where it stops applying: written against Stryker's survivors of
 * src/topology/rules/_rules.ts, whose other tests only look at which rule ids fire. The expected
 * sentences and facts are written out here; the bands' numbers are the published ones
 * (P2P off 10–15 µs, across root complexes 0.4–1.5 µs, below a switch 0.7–1.4 µs).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Finding, RuleContext, TopoGpu, TopoPair } from '../../../src/topology/index.ts'
import { BANDS, RULES, runRules } from '../../../src/topology/index.ts'

const BARE: RuleContext['hypervisor'] = { detected: false, kind: 'none', from: [] }
const ctx = (gpus: TopoGpu[], pairs: TopoPair[] = [], more: Partial<RuleContext> = {}): RuleContext => ({
  gpus,
  pairs,
  hypervisor: BARE,
  ...more,
})
const rule = (id: string, c: RuleContext): Finding | undefined => {
  const r = RULES.find((x) => x.id === id)
  assert.ok(r, id)
  return r.check(c)
}
const gpu = (index: number, g: Partial<TopoGpu> = {}): TopoGpu => ({ index, from: {}, ...g })
const pair = (a: number, b: number, p: Partial<TopoPair> = {}): TopoPair => ({ a, b, p2p: {}, cost: 0, from: {}, ...p })

test('own-root-complex: every GPU on its own root bus, with where each was read; not with one GPU, a shared or an unknown bus', () => {
  const two = [gpu(0, { rootBus: '0000:00', from: { rootBus: 'sysfs:/sys/bus/pci' } }), gpu(1, { rootBus: '0000:20' })]
  const f = rule('own-root-complex', ctx(two))
  assert.deepEqual(f, {
    id: 'own-root-complex',
    severity: 'info',
    gpus: [0, 1],
    message:
      'Each GPU sits alone on its own PCIe root complex (root bus): every peer copy crosses the ' +
      "CPU's root complexes. On bare metal P2P still works there (~0.4–1.5 µs per small copy); " +
      'in a VM it depends on the hypervisor.',
    facts: ['GPU0: root bus 0000:00 (sysfs:/sys/bus/pci)', 'GPU1: root bus 0000:20'],
    reference: BANDS.rootComplex.reference,
  })
  assert.equal(rule('own-root-complex', ctx([two[0] as TopoGpu])), undefined, 'one GPU')
  assert.equal(rule('own-root-complex', ctx([...two, gpu(2, { rootBus: '0000:20' })])), undefined, 'shared bus')
  assert.equal(rule('own-root-complex', ctx([...two, gpu(2)])), undefined, 'a bus not known')
  assert.equal(rule('own-root-complex', ctx([gpu(2), ...two])), undefined, 'a bus not known, first')
})

test('no-pcie-switch: each GPU path listed bridge by bridge; not when a switch or a path is missing', () => {
  const rp = { bdf: '0000:00:01.1', role: 'root-port' } as const
  const gpus = [
    gpu(0, { switchPath: [], upstream: [rp], busId: '0000:01:00.0', from: { upstream: 'sysfs' } }),
    gpu(1, { switchPath: [] }),
  ]
  assert.deepEqual(rule('no-pcie-switch', ctx(gpus)), {
    id: 'no-pcie-switch',
    severity: 'info',
    gpus: [0, 1],
    message:
      'No PCIe switch between any GPU and its root port, so there is no switch-local peer path: ' +
      'all peer traffic goes through the root complex.',
    facts: ['GPU0: 0000:00:01.1 root-port → 0000:01:00.0 (sysfs)', 'GPU1: ? → ?'],
  })
  assert.equal(rule('no-pcie-switch', ctx([])), undefined)
  assert.equal(rule('no-pcie-switch', ctx([...gpus, gpu(2, { switchPath: ['0000:03:00.0'] })])), undefined)
  assert.equal(rule('no-pcie-switch', ctx([gpu(2), ...gpus])), undefined, 'a path not known')
  assert.ok(rule('no-pcie-switch', ctx([gpus[1] as TopoGpu])), 'one GPU is enough')
})

test('acs-override-useless: each GPU group and bridges; not with one GPU or a path not known', () => {
  const gpus = [
    gpu(0, {
      iommuGroup: 12,
      upstream: [
        { bdf: '0000:00:01.1', role: 'root-port' },
        { bdf: '0000:01:00.0', role: 'bridge' },
      ],
    }),
    gpu(1, { upstream: [] }),
  ]
  const f = rule('acs-override-useless', ctx(gpus))
  assert.deepEqual(f?.facts, [
    'GPU0: IOMMU group 12, bridges 0000:00:01.1, 0000:01:00.0',
    'GPU1: IOMMU group ?, bridges none',
  ])
  assert.deepEqual([f?.severity, f?.gpus], ['info', [0, 1]])
  assert.equal(rule('acs-override-useless', ctx([gpus[0] as TopoGpu])), undefined)
  assert.equal(rule('acs-override-useless', ctx([...gpus, gpu(2)])), undefined)
})

test('p2p-unavailable: the blocked pairs, their statuses once each, eight facts then a count', () => {
  const from = { 'p2p.read': 'topo-r.txt:3', 'p2p.write': 'topo-w.txt:3', link: 'topo-m.txt:2' }
  const pairs = [
    pair(0, 1, { p2p: { read: 'NS', write: 'OK' }, from }),
    pair(0, 2, { p2p: { read: 'OK', write: 'OK' } }),
    pair(1, 2, { p2p: { read: 'CNS', write: 'NS' } }),
  ]
  assert.deepEqual(rule('p2p-unavailable', ctx([], pairs)), {
    id: 'p2p-unavailable',
    severity: 'problem',
    gpus: [0, 1, 2],
    message:
      'P2P is unavailable for 2 of 3 GPU pairs (topo -p2p: NS/CNS): copies are staged through host memory; ' +
      'expect ~10–15 µs per small copy instead of ~0.4–1.5 µs.',
    facts: ['pair 0-1: read NS, write OK (topo-r.txt:3, topo-w.txt:3)', 'pair 1-2: read CNS, write NS ()'],
    reference: BANDS.staged.reference,
  })
  assert.equal(rule('p2p-unavailable', ctx([], [pairs[1] as TopoPair])), undefined)
  const all = (n: number): TopoPair[] => Array.from({ length: n }, (_, i) => pair(i, i + 1, { p2p: { read: 'NS' } }))
  const eight = rule('p2p-unavailable', ctx([], all(8)))
  assert.match(eight?.message ?? '', /^P2P is unavailable for every GPU pair \(8\) \(topo -p2p: NS\)/)
  assert.equal(eight?.facts.length, 8)
  const nine = rule('p2p-unavailable', ctx([], all(9)))?.facts
  assert.deepEqual([nine?.length, nine?.[7], nine?.[8]], [9, 'pair 7-8: read NS ()', '… and 1 more pairs'])
})

test('nccl-p2p-level: bare-metal AMD, more than two GPUs, the pairs across host bridges with P2P not blocked', () => {
  const gpus = [gpu(0), gpu(1), gpu(2)]
  const pairs = [
    pair(0, 1, { link: 'PIX' }),
    pair(0, 2, { link: 'NODE' }),
    pair(1, 2, { link: 'SYS' }),
    pair(2, 3, { link: 'SYS', p2p: { read: 'NS' } }),
    pair(1, 3),
  ]
  assert.deepEqual(rule('nccl-p2p-level', ctx(gpus, pairs, { cpuVendor: 'AuthenticAMD' })), {
    id: 'nccl-p2p-level',
    severity: 'warn',
    gpus: [0, 2, 1],
    message:
      'Bare-metal AMD with 3 GPUs: by default NCCL uses P2P only up to PCIe switches (PATH_PXB) and moves data ' +
      'through shared host memory (SHM) for the 2 pairs that cross host bridges; set NCCL_P2P_LEVEL=SYS to let ' +
      'it use P2P there.',
    facts: ['CPU vendor AuthenticAMD (/proc/cpuinfo)', '2 pairs link NODE/SYS'],
    reference: 'NVIDIA/nccl src/graph/paths.cc (P2P level PATH_PXB on AMD with more than 2 GPUs)',
  })
  const amd = { cpuVendor: 'AuthenticAMD' }
  assert.equal(rule('nccl-p2p-level', ctx(gpus, [pairs[0] as TopoPair, pairs[3] as TopoPair], amd)), undefined)
  assert.equal(rule('nccl-p2p-level', ctx(gpus.slice(0, 2), pairs, amd)), undefined, 'two GPUs')
  assert.equal(rule('nccl-p2p-level', ctx(gpus, pairs, { ...amd, hypervisor: { ...BARE, detected: true } })), undefined)
  for (const link of ['PHB', 'SOC'])
    assert.ok(rule('nccl-p2p-level', ctx(gpus, [pair(0, 1, { link })], amd)), `${link} crosses a host bridge`)
})

test('nvlink: every pair or some of them, the link names once each, four facts at most', () => {
  const links = ['NV12', 'NV12', 'NV4', 'NV12', 'NV12', 'SYS']
  const pairs = links.map((link, i) => pair(i, i + 1, { link, from: i === 0 ? { link: 'topo-m.txt:2' } : {} }))
  assert.deepEqual(rule('nvlink', ctx([], pairs)), {
    id: 'nvlink',
    severity: 'info',
    gpus: [0, 1, 2, 3, 4, 5],
    message:
      '5 of 6 GPU pairs are joined by NVLink (NV12, NV4): peer copies and NCCL collectives go over NVLink, not PCIe.',
    facts: ['pair 0-1: NV12 (topo-m.txt:2)', 'pair 1-2: NV12 (?)', 'pair 2-3: NV4 (?)', 'pair 3-4: NV12 (?)'],
    reference: `${BANDS.nvlink.reference}; the input does not name the GPU model: generic band (the nearest published band is A100-SXM4 ×8 NVSwitch)`,
  })
  assert.match(
    rule('nvlink', ctx([], pairs.slice(0, 2)))?.message ?? '',
    /^Every GPU pair is joined by NVLink \(NV12\)/,
  )
  assert.equal(rule('nvlink', ctx([], [pair(0, 1, { link: 'SYS' }), pair(0, 2)])), undefined)
  assert.equal(rule('nvlink', ctx([], [pair(0, 1, { link: 'NV' })])), undefined, 'NV without a link count')
  // The band is looked up by the joined GPUs' model name.
  const named = [gpu(0, { name: 'Model Z' }), gpu(1, { name: 'Model Z' })]
  assert.match(
    rule('nvlink', ctx(named, [pair(0, 1, { link: 'NV4' })]))?.reference ?? '',
    /; no published band for Model Z: the nearest published band is A100-SXM4/,
  )
})

test('pcie-switch-p2p: the GPUs below each shared switch in order, else the pairs; one pair or several', () => {
  const sw = (s: string) => ({ switchPath: [s, '0000:09:00.0'] })
  const gpus = [
    gpu(3, sw('0000:01:00.0')),
    gpu(1, sw('0000:01:00.0')),
    gpu(2, sw('0000:05:00.0')),
    gpu(0, sw('0000:01:00.0')),
  ]
  const pairs = [
    pair(0, 1, { sameSwitch: true, p2p: { read: 'OK' } }),
    pair(1, 3, { link: 'PIX' }),
    pair(0, 3, { link: 'PXB' }),
    pair(2, 3, { link: 'PXB', p2p: { read: 'NS' } }),
    pair(0, 2, { link: 'NODE', sameSwitch: false }),
  ]
  assert.deepEqual(rule('pcie-switch-p2p', ctx(gpus, pairs)), {
    id: 'pcie-switch-p2p',
    severity: 'info',
    gpus: [0, 1, 3],
    message:
      '3 GPU pairs share a PCIe switch: P2P between them stays below the switch (~0.7–1.4 µs per small copy); ' +
      'keep TP groups within a switch.',
    facts: ['GPUs 0,1,3 below switch 0000:01:00.0'],
    reference: BANDS.pcieSwitch.reference,
  })
  const one = rule(
    'pcie-switch-p2p',
    ctx([gpu(0), gpu(1)], [pair(0, 1, { link: 'PIX', from: { link: 'topo-m.txt:2' } })]),
  )
  assert.equal(one?.message.slice(0, 32), '1 GPU pair share a PCIe switch: ')
  assert.deepEqual(one?.facts, ['pair 0-1: PIX (topo-m.txt:2)'], 'no switch path known: the pairs')
  const five = Array.from({ length: 5 }, (_, i) => pair(i, i + 1, { sameSwitch: true }))
  assert.deepEqual(rule('pcie-switch-p2p', ctx([], five))?.facts, [
    'pair 0-1: ? (?)',
    'pair 1-2: ? (?)',
    'pair 2-3: ? (?)',
    'pair 3-4: ? (?)',
  ])
  assert.equal(rule('pcie-switch-p2p', ctx(gpus, pairs.slice(3))), undefined)
})

test('acs-p2p-redirect: one fact per switch downstream port with redirect on', () => {
  const on = { capability: 0x5f, control: 0x1d, p2pRequestRedirect: true }
  const gpus = [
    gpu(0, { upstream: [{ bdf: '0000:02:00.0', role: 'switch-downstream', acs: on }] }),
    gpu(1, { upstream: [{ bdf: '0000:02:01.0', role: 'switch-downstream', acs: 'absent' }] }),
    gpu(2),
    gpu(3, { upstream: [{ bdf: '0000:02:02.0', role: 'switch-downstream', acs: on }] }),
  ]
  const f = rule('acs-p2p-redirect', ctx(gpus))
  assert.deepEqual(f?.facts, [
    'GPU0: downstream port 0000:02:00.0 has ACS P2P Request Redirect on',
    'GPU3: downstream port 0000:02:02.0 has ACS P2P Request Redirect on',
  ])
  assert.equal(f?.severity, 'warn')
  assert.equal(rule('acs-p2p-redirect', ctx(gpus.slice(1, 3))), undefined)
})

test('simulated and no-gpus say so only when it holds; expected-latency groups the pairs by link, P2P status and band', () => {
  const sim = rule('simulated', ctx([gpu(0)], [], { simulated: true }))
  assert.equal(sim?.severity, 'warn')
  assert.deepEqual(sim?.facts, [
    'capture.json "simulated": true, or an input starting with "# SIMULATED by gpucomm sim"',
  ])
  assert.equal(rule('simulated', ctx([gpu(0)], [], { simulated: false })), undefined)
  assert.equal(rule('simulated', ctx([gpu(0)])), undefined)
  assert.deepEqual(rule('no-gpus', ctx([]))?.facts, [])
  assert.equal(rule('no-gpus', ctx([gpu(0)])), undefined)

  const why = (w: string) => ({ lowS: 1.1e-6, highS: 1.2e-6, why: w })
  const pairs = [
    pair(0, 1, { link: 'PHB', p2p: { read: 'OK' }, expected: why('one host bridge') }),
    pair(0, 2, { link: 'SYS', p2p: { read: 'NS' }, expected: { ...BANDS.staged } }),
    pair(1, 2, { link: 'PHB', p2p: { read: 'OK' }, expected: why('second') }),
    pair(1, 3, { p2p: { write: 'OK', read: 'OK' } }),
    pair(2, 3, { link: 'PHB' }),
  ]
  assert.deepEqual(rule('expected-latency', ctx([], pairs)), {
    id: 'expected-latency',
    severity: 'info',
    message:
      'Expected cost of a small (16 B) peer copy per pair: PHB P2P: 1.1–1.2 µs (2 pairs); ' +
      'SYS host-staged: 10–15 µs (1 pair); ? P2P: 0.4–1.5 µs (1 pair); PHB P2P unknown: 0.4–1.5 µs (1 pair).',
    facts: [
      'PHB P2P: 1.1–1.2 µs: one host bridge',
      `SYS host-staged: 10–15 µs: ${BANDS.staged.why}`,
      '? P2P: 0.4–1.5 µs: ',
      'PHB P2P unknown: 0.4–1.5 µs: ',
    ],
    reference: 'docs/REFERENCE.md (p2pBandwidthLatencyTest latency matrix)',
  })
  assert.equal(rule('expected-latency', ctx([gpu(0)])), undefined)
})

test('runRules: the findings that apply, in the rules order, none undefined', () => {
  const gpus = [gpu(0, { rootBus: '0000:00', switchPath: [] }), gpu(1, { rootBus: '0000:20', switchPath: [] })]
  const ids = runRules(ctx(gpus, [pair(0, 1, { link: 'SYS', p2p: { read: 'NS' } })], { simulated: true })).map(
    (f) => f.id,
  )
  assert.deepEqual(ids, ['simulated', 'p2p-unavailable', 'own-root-complex', 'no-pcie-switch', 'expected-latency'])
})
