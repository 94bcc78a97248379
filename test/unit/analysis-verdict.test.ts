/**
 * The verdict of src/analysis/verdict/_verdict.ts on hand-made fits, judgements and cited bands (no
 * set): the subject line, each way a cited band is worded, which cited bands a verdict shows,
 * the evidence it leaves out, the P2P-on cost of a host-staged pair, the bandwidth bands β falls
 * in, and bandById's NCCL model ids. Band values written out from the published tables:
 * PCIe Gen3 x16 15.75 GB/s, Gen5 x16 63 GB/s, RTX PRO 6000 P2P unidirectional 53–56.6 GB/s, Ada
 * P2P 26.3 GB/s, 8-GPU RTX PRO 6000 all_reduce busbw 22.2 GB/s (default) and 37.6 GB/s (8
 * channels), each widened by 10 %; NCCL's ring model base + 2(n−1)·hop µs.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { FitCore } from '../../src/analysis/verdict/_verdict.ts'
import {
  bandById,
  betaBands,
  citedText,
  judgeFit,
  subjectOf,
  verdictText,
} from '../../src/analysis/verdict/_verdict.ts'
import { context as ctx } from '../analysis/machine-context.ts'

const US = 1e-6
const GB = 1e9
type Cited = Parameters<typeof citedText>[0]
const band = (over: Partial<Cited> = {}): Cited => ({
  id: 'b',
  label: 'L',
  range: '1–2 µs',
  source: 'S',
  role: 'match',
  compared: 'floor α',
  distance: 0,
  position: 'inside',
  ...over,
})

test('citedText: inside, within tolerance, above and below, each role, what was compared, what differs', () => {
  assert.equal(citedText(band()), "within 'L' (1–2 µs, S)")
  assert.equal(
    citedText(band({ position: 'tolerance', distance: 0.04 })),
    "+4.0 % from the edge of (within tolerance) 'L' (1–2 µs, S)",
  )
  assert.equal(
    citedText(band({ position: 'tolerance', distance: -0.005 })),
    "−0.50 % from the edge of (within tolerance) 'L' (1–2 µs, S)",
  )
  assert.equal(citedText(band({ position: 'outside', distance: 0.9 })), "1.9× the top of 'L' (1–2 µs, S)")
  assert.equal(citedText(band({ position: 'outside', distance: 14 })), "15× the top of 'L' (1–2 µs, S)")
  assert.equal(citedText(band({ position: 'outside', distance: -0.5 })), "2.0× below 'L' (1–2 µs, S)")
  assert.equal(citedText(band({ position: 'outside', distance: -0.95 })), "20× below 'L' (1–2 µs, S)")
  assert.equal(citedText(band({ role: 'reference' })), "NCCL's model: within 'L' (1–2 µs, S)")
  assert.equal(
    citedText(band({ role: 'nearest', differs: ['GPU A100', '8 GPUs'] })),
    "nearest published: within 'L' (1–2 µs, S; differs: GPU A100, 8 GPUs)",
  )
  assert.equal(
    citedText(band({ compared: 'fitted time at 32 KiB–64 KiB' })),
    "within 'L' (1–2 µs, S) (fitted time at 32 KiB–64 KiB)",
  )
})

test('subjectOf: a pair, a group, the host, P2P and peer access', () => {
  const pair = { bench: 'p2p.latency', src: 0, dst: 1, p2p: null }
  assert.equal(subjectOf(pair), 'GPU0→GPU1 p2p.latency')
  assert.equal(
    subjectOf({ ...pair, p2p: 'disabled', peerAccess: false, host: 'node7' }),
    'node7 GPU0→GPU1 p2p.latency p2p=disabled (no peer access)',
  )
  assert.equal(subjectOf({ ...pair, p2p: 'enabled', peerAccess: true }), 'GPU0→GPU1 p2p.latency p2p=enabled')
  assert.equal(subjectOf({ ...pair, dst: 0 }), 'GPU0→GPU0 p2p.latency')
  const grp = { bench: 'nccl.all_reduce', p2p: null }
  assert.equal(subjectOf(grp), 'nccl.all_reduce')
  assert.equal(
    subjectOf({ ...grp, group: '0-7', ranks: 8, grouping: 'by-node', host: 'n1' }),
    'n1 nccl.all_reduce group 0-7 (8 ranks) by-node',
  )
  assert.equal(subjectOf({ ...grp, ranks: 0 }), 'nccl.all_reduce (0 ranks)')
  assert.equal(subjectOf({ ...grp, src: 3 }), 'nccl.all_reduce')
  assert.equal(subjectOf({ ...grp, dst: 3 }), 'nccl.all_reduce')
})

test('betaBands: unidirectional and link bands for a pair, busbw bands of the same size for all_reduce', () => {
  const pair = (beta: number | null, dst = 1) => betaBands({ bench: 'p2p.bandwidth', src: 0, dst, beta })
  assert.deepEqual(pair(15.75 * GB), ['pcie-gen3-x16'])
  assert.deepEqual(pair(25 * GB), ['bw-uni-ada-p2p'])
  // Bidirectional bands are never cited for β: 52.1 GB/s is only the RTX PRO 6000 one-way band.
  assert.deepEqual(pair(52.1 * GB), ['bw-uni-rtxpro6000-p2p'])
  assert.deepEqual(pair(58 * GB), ['pcie-gen5-x16', 'bw-uni-rtxpro6000-p2p'])
  assert.deepEqual(pair(5 * GB), [])
  assert.deepEqual(pair(null), [])
  assert.deepEqual(pair(25 * GB, 0), [], 'the same GPU')
  const ar = (beta: number, ranks: number | undefined) => betaBands({ bench: 'nccl.all_reduce', ranks, beta })
  // busbw = β·2(n−1)/n: 12 GB/s × 14/8 = 21 GB/s, 20 GB/s × 14/8 = 35 GB/s.
  assert.deepEqual(ar(12 * GB, 8), ['busbw-ar-rtxpro6000-8gpu-default'])
  assert.deepEqual(ar(20 * GB, 8), ['busbw-ar-rtxpro6000-8gpu-8ch'])
  assert.deepEqual(ar(24 * GB, 8), [], 'β itself in the default band; busbw 42 GB/s in none')
  assert.deepEqual(ar(12 * GB, 4), [], 'no 4-GPU band')
  assert.deepEqual(ar(12 * GB, undefined), [])
  // busbw 21 GB/s on 4 GPUs: the 8-GPU band is not cited.
  assert.deepEqual(ar(14 * GB, 4), [])
  // busbw 16 GB/s lies in the PCIe Gen3 band: not an all_reduce band.
  assert.deepEqual(ar((16 * GB * 8) / 14, 8), [])
  assert.deepEqual(betaBands({ bench: 'nccl.all_gather', ranks: 8, beta: 12 * GB }), [])
})

test("bandById: static ids and NCCL's model per link, protocol and size", () => {
  const model = bandById('nccl-model-pci-ll-n8')
  // 6.6 + 2·7·1.0 = 20.6 µs.
  assert.deepEqual([model?.kind, model?.ranks, +((model?.low ?? 0) / US).toFixed(3)], ['collective-model', 8, 20.6])
  // 6.6 + 2·3·0.6 = 10.2 µs; 8.4 + 2·1·5.7 = 19.8 µs.
  assert.equal(+((bandById('nccl-model-nvlink-ll-n4')?.high ?? 0) / US).toFixed(3), 10.2)
  assert.equal(+((bandById('nccl-model-pci-simple-n2')?.low ?? 0) / US).toFixed(3), 19.8)
  assert.equal(bandById('nccl-model-nvlink-simple-n4'), undefined, 'no NVLink/Simple model')
  // 6.6 + 2·15·1.0 = 36.6 µs.
  assert.equal(+((bandById('nccl-model-pci-ll-n16')?.low ?? 0) / US).toFixed(3), 36.6)
  assert.equal(bandById('nccl-model-pci-ll-n'), undefined)
  assert.equal(bandById('xnccl-model-pci-ll-n8'), undefined)
  assert.equal(bandById('nccl-model-pci-ll-n8x'), undefined)
  assert.equal(bandById('pcie-gen4-x16')?.low, 31.5 * GB)
  assert.equal(bandById('no-such-band'), undefined)
})

const fit = (over: Partial<FitCore> = {}): FitCore => ({
  bench: 'p2p.latency',
  src: 0,
  dst: 1,
  p2p: null,
  alpha: 13.7 * US,
  alphaCi: [13.5 * US, 13.9 * US],
  beta: null,
  segments: [],
  smallest: { sizeBytes: 16, median: 14 * US, min: 13.6 * US, n: 9 },
  ...over,
})
type J = Parameters<typeof verdictText>[1] & object
const judged = (over: Partial<J> = {}): J => ({
  mechanism: { id: 'undetermined', text: 'mechanism not determined' },
  evidence: [],
  cited: [],
  conflicts: [],
  ...over,
})
const FLOOR = 'Floor 13.7 µs [13.5, 13.9 µs] (smallest size 16 B: median 14 µs, min 13.6 µs)'

test('verdictText: no judgement, then mechanism, floor, the evidence shown, the bands shown, conflicts', () => {
  assert.equal(
    verdictText(fit({ smallest: { sizeBytes: null, median: 14 * US, min: 13.6 * US, n: 9 } }), undefined),
    'GPU0→GPU1 p2p.latency: floor 13.7 µs [13.5, 13.9 µs] (size not stated by the tool: median 14 µs, min ' +
      '13.6 µs); no published band for this bench',
  )
  assert.equal(
    verdictText(fit(), judged()),
    `GPU0→GPU1 p2p.latency: mechanism not determined. ${FLOOR}; no published band for this mechanism on this kind of machine`,
  )
  const j = judged({
    evidence: [
      { strength: 1, fact: 'A', source: 'a' },
      { strength: 3, fact: 'the value', source: 'this set' },
      { strength: 2, fact: 'B', source: 'b' },
    ],
    cited: [
      band({ id: 'first', label: 'F', position: 'outside', distance: 1 }),
      band({ id: 'hidden', label: 'H', position: 'outside', distance: 2 }),
      band({ id: 'ref', label: 'R', role: 'reference', position: 'outside', distance: -0.5 }),
      band({ id: 'in', label: 'I', position: 'tolerance', distance: 0.02 }),
    ],
    conflicts: [
      { text: 'one', facts: [] },
      { text: 'two', facts: [] },
    ],
  })
  assert.equal(
    verdictText(fit(), j),
    `GPU0→GPU1 p2p.latency: mechanism not determined. ${FLOOR}; evidence: A; B; bands: 2.0× the top of 'F' ` +
      "(1–2 µs, S); NCCL's model: 2.0× below 'R' (1–2 µs, S); +2.0 % from the edge of (within tolerance) 'I' " +
      '(1–2 µs, S); conflict: one; conflict: two',
  )
  // Only the value's own evidence: no "evidence:" part.
  const onlyValue = verdictText(fit(), judged({ evidence: [{ strength: 3, fact: 'the value', source: 's' }] }))
  assert.ok(!onlyValue.includes('evidence'), onlyValue)
})

test('a host-staged verdict says what peer access costs on machines like this one', () => {
  const staged = { id: 'host-staged' as const, text: 'host-staged copy' }
  const ada = (cite: J['cite']) => verdictText(fit(), judged({ mechanism: staged, cite }))
  assert.match(
    ada({ gpuFamily: 'RTX 6000 Ada', attach: 'direct', links: ['PHB'] }),
    /; with peer access this kind of machine copies in 1\.12–1\.14 µs \('P2P on, PHB \(RTX 6000 Ada ×2, Threadripper PRO WRX90\)', [^)]+\)$/,
  )
  assert.match(
    ada({ gpuFamily: 'RTX 6000 Ada' }),
    /; with peer access this kind of machine copies in 1\.12–1\.44 µs \(2 published setups: p2p-on-ada-genoa, p2p-on-ada-wrx90\)$/,
  )
  assert.ok(!ada({ gpuFamily: 'H100' }).includes('with peer access'))
  assert.ok(!ada(undefined).includes('with peer access'))
  const slow = verdictText(
    fit(),
    judged({ mechanism: { id: 'host-staged-slow', text: 's' }, cite: { gpuFamily: 'RTX 6000 Ada' } }),
  )
  assert.match(slow, /with peer access this kind of machine copies in 1\.12–1\.44 µs/)
  const p2p = verdictText(
    fit(),
    judged({ mechanism: { id: 'p2p-pcie', text: 'p' }, cite: { gpuFamily: 'RTX 6000 Ada' } }),
  )
  assert.ok(!p2p.includes('with peer access'))
})

const origins = { origins: new Set<string>() }

test('judgeFit: pairs by their evidence, collectives by the transport, other benches not at all', () => {
  assert.equal(judgeFit(fit({ bench: 'nvbandwidth.h2d', src: undefined, dst: undefined }), origins, ctx()), undefined)
  const ada = ctx({ gpuFamily: 'RTX 6000 Ada' })
  // 13.7 µs with P2P disabled on an Ada: inside the 2-socket Genoa host-staged band (10.27–14.22 µs).
  const pair = judgeFit(fit({ p2p: 'disabled' }), origins, ada)
  assert.equal(pair?.mechanism.id, 'host-staged')
  assert.ok(pair?.bands.includes('p2p-off-ada-genoa'), JSON.stringify(pair?.bands))
  assert.ok(pair?.cited.every((c) => bandById(c.id)?.kind === 'host-staged'))
  // bands: only the cited ones not outside.
  const cited = pair?.cited ?? []
  assert.deepEqual(
    pair?.bands,
    cited.filter((c) => c.position !== 'outside').map((c) => c.id),
  )
  assert.ok(
    cited.some((c) => c.position === 'outside'),
    'an outside band is cited but not listed',
  )
  const same = judgeFit(fit({ dst: 0, alpha: 2 * US, alphaCi: [1.9 * US, 2.1 * US] }), origins, ctx())
  assert.equal(same?.mechanism.id, 'same-gpu')
  assert.ok((same?.cited.length ?? 0) > 0 && same?.cited.every((c) => bandById(c.id)?.kind === 'same-gpu'))
  const coll = { bench: 'nccl.all_reduce', src: undefined, dst: undefined, group: '0-3', ranks: 4, alpha: 12.6 * US }
  const ar = judgeFit(
    fit(coll),
    origins,
    ctx({ nccl: () => ({ value: { transports: ['SHM'], algos: [], protos: [] }, source: 'l' }) }),
  )
  assert.equal(ar?.mechanism.id, 'nccl-shm')
  // NCCL's PCI/LL model for 4 GPUs is 12.6 µs: the floor lies on it.
  assert.deepEqual(
    ar?.cited.filter((c) => c.role === 'reference').map((c) => [c.id, c.position]),
    [['nccl-model-pci-ll-n4', 'inside']],
  )
  assert.ok(ar?.bands.includes('nccl-model-pci-ll-n4'))
  assert.equal(ar?.cite.transport, 'SHM')
  const ag = judgeFit(fit({ ...coll, bench: 'nccl.all_gather' }), origins, ctx())
  assert.deepEqual([ag?.mechanism.id, ag?.cited, ag?.bands], ['undetermined', [], []])
})
