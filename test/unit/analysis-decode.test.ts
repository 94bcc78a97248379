/**
 * decodeModel of src/analysis/compare/_decode.ts on hand-made rows (generated, not measured): which rows
 * are read (time rows with a size, not in-place), which all_reduce grouping serves TP8 and TP4,
 * the payload's time on each curve, the send/recv between pipeline stages, the step time and
 * the tokens-per-second ceiling, and which reading of the p2p floor the smallest all_reduce
 * supports. A tiny model written out here: 10 layers × 2 all-reduces, batch 4, hidden 1024,
 * 2-byte values: 20 all-reduces a step of 4 × 1024 × 2 = 8192 B. NCCL's PCI/LL ring model
 * 6.6 µs + 2(n−1)·α for the per-hop reading.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { decodeModel } from '../../src/analysis/compare/_decode.ts'
import type { ModelPreset } from '../../src/analysis/compare/_types-compare.ts'
import { makeRow, type Row } from '../../src/model/index.ts'
import type { ReadSet } from '../../src/resultset/index.ts'

const US = 1e-6
const M: ModelPreset = {
  id: 'tiny',
  name: 'tiny',
  layers: 10,
  hidden: 1024,
  dtypeBytes: 2,
  batch: 4,
  allreducesPerLayer: 2,
  source: 'test',
}
const source = { file: 'generated', line: 1 }
const time = (bench: string, sizeBytes: number, us: number, over: Partial<Row> = {}): Row =>
  makeRow({ bench, metric: 'time', unit: 's', value: us * US, sizeBytes, source, ...over })
/** All_reduce rows of a grouping: three trials per size, the middle one the median. */
const ar = (grouping: string | undefined, ranks: number, at: [number, number][]): Row[] =>
  at.flatMap(([size, us]) =>
    [us * 0.99, us, us * 1.01].map((v, trial) => time('nccl.all_reduce', size, v, { grouping, ranks, trial })),
  )
/** A p2p pair on the line α + size/β (µs, GB/s) at 1–8 KiB. */
const pair = (src: number, dst: number, p2p: 'enabled' | 'disabled', alphaUs: number, gbps: number): Row[] =>
  [1024, 2048, 4096, 8192, 16384].map((x) => time('p2p.latency', x, alphaUs + x / (gbps * 1e9) / US, { src, dst, p2p }))
const model = (rows: Row[]) => decodeModel({ rows } as unknown as ReadSet, M)
const close = (got: number | null | undefined, want: number) =>
  assert.ok(got != null && Math.abs(got / want - 1) < 1e-9, `${got} vs ${want}`)
const COMM_ONLY =
  'communication only: compute, kernel launches and MoE all-to-all are not counted, so real tok/s is lower than the ceiling'

test('TP8 reads tp8 between its sizes, TP4×PP2 reads tp4 (by name before rank count) at the payload and adds one send/recv', () => {
  const rows = [
    // Out of size order; 8192 B lies between 4096 and 16384, not 1024 and 4096.
    ...ar('tp8', 8, [
      [16384, 26],
      [1024, 19],
      [4096, 20],
    ]),
    ...ar('dp2', 4, [[8192, 40]]),
    ...ar('TP4', 4, [[8192, 15]]),
    time('nccl.sendrecv', 8192, 5),
    time('nccl.sendrecv', 8192, 7),
    time('nccl.sendrecv', 8192, 6),
    // Not read: in-place, another metric, no size.
    time('nccl.all_reduce', 8192, 900, { grouping: 'tp8', ranks: 8, placement: 'in-place' }),
    makeRow({
      bench: 'nccl.all_reduce',
      metric: 'busbw',
      unit: 'B/s',
      value: 1e9,
      sizeBytes: 8192,
      source,
      grouping: 'tp8',
    }),
    time('nccl.all_reduce', 0, 900, { grouping: 'tp8', ranks: 8, sizeBytes: null }),
    time('nccl.all_gather', 8192, 900, { grouping: 'tp8', ranks: 8 }),
  ]
  const d = model(rows)
  assert.equal(d.payloadBytes, 8192)
  assert.equal(d.allreducesPerStep, 20)
  const [tp8, tp4] = d.plans
  // 20 + (8192 − 4096) × 6 / 12288 = 22 µs; 20 × 22 = 440 µs a step; 4 / 440 µs.
  assert.deepEqual(
    [tp8?.plan, tp8?.tp, tp8?.pp, tp8?.grouping, tp8?.allreduces, tp8?.allreduceFrom],
    ['TP8', 8, 1, 'tp8', 20, 'interpolated'],
  )
  close(tp8?.allreduceTime, 22 * US)
  assert.deepEqual([tp8?.sendRecvs, tp8?.sendRecvTime, tp8?.sendRecvFrom], [0, null, 'no pipeline boundary'])
  close(tp8?.commTime, 440 * US)
  close(tp8?.tokPerSec, 4 / (440 * US))
  // 20 × 15 + 1 × 6 = 306 µs.
  assert.deepEqual(
    [tp4?.plan, tp4?.tp, tp4?.pp, tp4?.grouping, tp4?.allreduceFrom, tp4?.sendRecvs, tp4?.sendRecvFrom],
    ['TP4×PP2', 4, 2, 'TP4', 'measured', 1, 'nccl.sendrecv median at the payload'],
  )
  close(tp4?.allreduceTime, 15 * US)
  close(tp4?.sendRecvTime, 6 * US)
  close(tp4?.commTime, 306 * US)
  close(tp4?.tokPerSec, 4 / (306 * US))
  assert.deepEqual(d.notes, [COMM_ONLY])
  assert.equal(d.p2pReadings, null)
})

test('a grouping found by its rank count; none measured: no time, no ceiling, a note', () => {
  const d = model(ar(undefined, 4, [[8192, 12]]))
  assert.deepEqual(
    d.plans.map((p) => [p.grouping, p.allreduceFrom]),
    [
      [null, 'none'],
      ['ranks=4', 'measured'],
    ],
  )
  assert.deepEqual([d.plans[0]?.allreduceTime, d.plans[0]?.commTime, d.plans[0]?.tokPerSec], [null, null, null])
  // No send/recv measured: the boundary costs nothing known, the step only its all-reduces.
  assert.deepEqual(
    [d.plans[1]?.sendRecvTime, d.plans[1]?.sendRecvFrom],
    [null, 'not measured (no nccl.sendrecv or p2p rows)'],
  )
  close(d.plans[1]?.commTime, 240 * US)
  const named = model(ar('x', 8, [[8192, 30]]))
  assert.equal(named.plans[0]?.grouping, 'x')
  const none = model([time('nccl.sendrecv', 8192, 5)])
  assert.deepEqual(none.notes, ['no nccl all_reduce rows: the plans have no measured all-reduce time', COMM_ONLY])
  assert.deepEqual(
    none.plans.map((p) => [p.allreduceTime, p.commTime, p.tokPerSec]),
    [
      [null, null, null],
      [null, null, null],
    ],
  )
})

test('the p2p floor: P2P-enabled pairs first; it stands in for send/recv and decides the reading on a P2P all_reduce', () => {
  // Enabled pairs: α 7 and 8 µs at 10 GB/s (median α 7.5 µs; at the payload 7.5 + 0.8192 µs);
  // the disabled pair (14 µs) and the same-GPU pair are not counted.
  const p2p = [
    ...pair(0, 1, 'enabled', 7, 10),
    ...pair(1, 0, 'enabled', 8, 10),
    ...pair(0, 2, 'enabled', 7.5, 10),
    ...pair(0, 1, 'disabled', 14, 10),
    ...pair(0, 0, 'enabled', 0.5, 10),
  ]
  // The all_reduce ran over P2P (NCCL_P2P_LEVEL=SYS), the transport the floor was measured on.
  const viaP2p = (rows: Row[]) => rows.map((r) => ({ ...r, env: { NCCL_P2P_LEVEL: 'SYS' } }))
  // A row without a size is not the smallest size.
  const unsized = time('nccl.all_reduce', 0, 900, { grouping: 'tp8', ranks: 8, sizeBytes: null })
  const d = model([...p2p, ...viaP2p(ar('tp8', 8, [[8192, 100]])), unsized])
  close(d.p2pReadings?.alpha, 7.5 * US)
  assert.equal(d.plans[1]?.sendRecvFrom, 'median p2p pair time α + payload/β')
  close(d.plans[1]?.sendRecvTime, 7.5 * US + 8192 / 1e10)
  // Per hop on 8 GPUs: 6.6 + 14 × 7.5 = 111.6 µs; whole transfer 7.5 µs. 100 µs is 0.90× and 13.33×.
  assert.deepEqual(
    d.p2pReadings?.readings.map((r) => r.reading),
    ['per-hop', 'whole-transfer'],
  )
  close(d.p2pReadings?.readings[0]?.tp8.allreduce, 111.6 * US)
  assert.equal(d.p2pReadings?.supported, 'per-hop')
  assert.equal(
    d.p2pReadings?.why,
    "P2P all_reduce against the P2P pairs' floor: measured smallest-size all_reduce on 8 GPUs 100.0 µs is 0.90× " +
      'the per-hop reading, 13.33× the whole-transfer reading; the per-hop reading is closer',
  )
  // 300 µs: 2.69× and 40×, neither within 2×.
  const far = model([...p2p, ...viaP2p(ar('tp8', 8, [[8192, 300]]))]).p2pReadings
  assert.equal(far?.supported, 'undecided')
  assert.match(
    far?.why ?? '',
    /is 2\.69× the per-hop reading, 40\.00× the whole-transfer reading; neither is within 2×$/,
  )
  // 12 µs: 0.11× and 1.60×: the whole transfer; on TP4 only, its 4-GPU reading (6.6 + 6 × 7.5 = 51.6 µs).
  assert.equal(model([...p2p, ...viaP2p(ar('tp8', 8, [[8192, 12]]))]).p2pReadings?.supported, 'whole-transfer')
  const tp4 = model([...p2p, ...viaP2p(ar('tp4', 4, [[8192, 51.6]]))]).p2pReadings
  assert.match(tp4?.why ?? '', /measured smallest-size all_reduce on 4 GPUs 51\.6 µs is 1\.00× the per-hop reading/)
  // Disabled pairs count when no pair was measured with P2P on.
  close(model(pair(0, 1, 'disabled', 14, 10)).p2pReadings?.alpha, 14 * US)
  const only = model(p2p).p2pReadings
  assert.deepEqual(
    [only?.supported, only?.why],
    [
      'undecided',
      'only p2p latency was measured; measure nccl all_reduce over the groupings (e.g. tp8, tp4) to decide',
    ],
  )
})

test('the reading is judged on the transport the all_reduce used, or not at all; no whole-transfer reading below NCCL’s base latency', () => {
  const p2p = [...pair(0, 1, 'enabled', 0.5, 50), ...pair(0, 2, 'enabled', 0.5, 50)]
  const staged = pair(0, 1, 'disabled', 14, 10)
  // No env: with P2P pairs working, NCCL across CPU sockets may still run SHM: not judged.
  const plain = model([...p2p, ...ar('tp8', 8, [[8192, 45]])])
  assert.equal(plain.p2pReadings?.supported, 'undecided')
  assert.match(
    plain.p2pReadings?.why ?? '',
    /^not judged: the floor is the P2P pairs', and no all_reduce of this set is known to have run over P2P/,
  )
  // α 0.5 µs is below NCCL's 6.6 µs base: the per-hop reading only, and a note says why.
  assert.deepEqual(
    plain.p2pReadings?.readings.map((r) => r.reading),
    ['per-hop'],
  )
  assert.ok(
    plain.notes.some((n) => /^no whole-transfer reading: α 0\.50 µs is below NCCL's 6\.6 µs base latency/.test(n)),
  )
  // NCCL_P2P_DISABLE=1 beside host-staged pairs: judged on the host-staged floor, not the P2P one.
  const off = ar('tp8', 8, [[8192, 200]]).map((r) => ({ ...r, env: { NCCL_P2P_DISABLE: '1' } }))
  const judged = model([...p2p, ...staged, ...off]).p2pReadings
  close(judged?.alpha, 14 * US)
  assert.equal(judged?.supported, 'per-hop') // 6.6 + 14 × 14 = 202.6 µs
  assert.match(
    judged?.why ?? '',
    /^host-staged all_reduce against the host-staged pairs' floor: .* 200\.0 µs is 0\.99× the per-hop/,
  )
})

test("beyond the measured sizes: the first segment's line below them, the last segment's above", () => {
  // Eight sizes on two exact lines, 4 + 4: 10 µs + x/5 GB/s, then 50 µs + x/20 GB/s.
  const two = (sizes: number[]): [number, number][] => sizes.map((x, i) => [x, i < 4 ? 10 + x / 5e3 : 50 + x / 20e3])
  const above = two([16, 32, 64, 128, 256, 512, 1024, 2048])
  const below = two([16384, 32768, 65536, 131072, 262144, 524288, 1048576, 2097152])
  const d = model([...ar('tp8', 8, above), ...ar('tp4', 4, below)])
  assert.deepEqual(
    d.plans.map((p) => p.allreduceFrom),
    ['fit-extrapolated', 'fit-extrapolated'],
  )
  // 8192 B: above, 50 + 8192 / 20e3 = 50.4096 µs; below, 10 + 8192 / 5e3 = 11.6384 µs.
  close(d.plans[0]?.allreduceTime, 50.4096 * US)
  close(d.plans[1]?.allreduceTime, 11.6384 * US)
})

test('env and host-axis arms are never pooled: the plans read the arm without settings and say which', () => {
  const slow = { env: { NCCL_P2P_DISABLE: '1' } }
  const rows = [
    ...ar('tp8', 8, [[8192, 10]]),
    ...ar('tp8', 8, [[8192, 40]]).map((r) => ({ ...r, ...slow })),
    ...ar('tp8', 8, [[8192, 41]]).map((r) => ({ ...r, ...slow })),
  ]
  const d = model(rows)
  // A pool of the arms has its median at 40 µs; the arm without settings is 10 µs.
  close(d.plans[0]?.allreduceTime, 10 * US)
  assert.match(
    d.notes.join('\n'),
    /read the arm without env or host-axis settings; not pooled with "NCCL_P2P_DISABLE=1"/,
  )
  // No arm without settings: the first arm by name, named.
  const only = model([
    ...ar('tp8', 8, [[8192, 40]]).map((r) => ({ ...r, hostAxis: { cstates: 'shallow' } })),
    ...ar('tp8', 8, [[8192, 20]]).map((r) => ({ ...r, hostAxis: { cstates: 'deep' } })),
  ])
  close(only.plans[0]?.allreduceTime, 20 * US)
  assert.match(only.notes.join('\n'), /read the arm "cstates=deep"; not pooled with "cstates=shallow"/)
})
