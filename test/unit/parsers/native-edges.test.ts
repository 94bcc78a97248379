/**
 * The native bench parser line by line (issue 18, mutation testing of scope parsers-rest):
 * bench names, the keys of a result line and the row fields each fixes, values and units,
 * marked lines, config lines and the meta built from them, lines that are no bench line, and
 * detection. Generated lines in the format of native/README.md (made-up numbers).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Row } from '../../../src/model/index.ts'
import { parseText } from '../../../src/parsers/_text.ts'
import { benchOf, native as P } from '../../../src/parsers/p2p/native.ts'
import type { ParseOutput } from '../../../src/parsers/types.ts'

const parse = (lines: string[], trial?: number): ParseOutput =>
  parseText(P, lines.join('\n'), { file: 'n.txt', ...(trial === undefined ? {} : { trial }) })
const diag = (o: ParseOutput): (string | number)[][] =>
  o.diagnostics.map((d) => [d.line, d.severity, d.code, d.message])
const one = (keys: string, values = '1  2.5 us/op'): Row => {
  const o = parse([`BenchmarkNcclAllReduce/${keys}  ${values}`])
  assert.equal(o.rows.length, 1, keys)
  return o.rows[0] as Row
}

test('benchOf: p2p benches by name, Nccl<Name> as nccl.<snake_case>, anything else unknown', () => {
  assert.equal(benchOf('NcclX'), 'nccl.x')
  assert.equal(benchOf('NcclAllToAllV'), 'nccl.all_to_all_v')
  for (const bad of ['Nccl', 'Ncclall', 'NcclAll2', 'xNcclAll', 'NcclAll x', 'P2PLatencyX', 'p2PLatency', ''])
    assert.equal(benchOf(bad), undefined, bad)
})

test('result keys: every row field they fix, and what each ignores', () => {
  const r = one(
    'ranks=4/size=1024/src=-1/dst=3/place=out/p2p=enabled/copy=sm/peer=1/iter=7/type=float/redop=sum/root=0/batch=5',
  )
  assert.deepEqual(r, {
    bench: 'nccl.all_reduce',
    metric: 'time',
    unit: 's',
    value: 2.5e-6,
    sizeBytes: 1024,
    ranks: 4,
    src: -1,
    dst: 3,
    placement: 'out-of-place',
    p2p: 'enabled',
    timer: 'gpu',
    trial: 0,
    source: { file: 'n.txt', line: 1 },
    copy: 'sm',
    batch: 5,
    peerAccess: true,
    iteration: 7,
    dtype: 'float',
    redop: 'sum',
    root: 0,
  })
  const bare = one('x=1')
  assert.deepEqual(
    [bare.sizeBytes, bare.ranks, bare.src, bare.dst, bare.placement, bare.p2p],
    [null, null, null, null, null, null],
  )
  for (const k of ['copy', 'batch', 'peerAccess', 'iteration', 'dtype', 'redop', 'root', 'staging'])
    assert.equal(k in bare, false, k)
  const odd = one('place=x/p2p=x/copy=x/peer=0/batch=0/redop=none/root=-1/size=1.5/ranks=+2/src=9007199254740993')
  assert.deepEqual(
    [odd.placement, odd.p2p, odd.peerAccess, odd.sizeBytes, odd.ranks, odd.src],
    [null, null, false, null, null, null],
  )
  for (const k of ['copy', 'batch', 'redop', 'root', 'staging']) assert.equal(k in odd, false, k)
  assert.deepEqual(
    [one('place=in').placement, one('p2p=disabled').p2p, one('copy=ce').copy, one('peer=yes').peerAccess],
    ['in-place', 'disabled', 'ce', false],
  )
  const bounce = one('p2p=bounce/batch=-2')
  assert.deepEqual([bounce.p2p, bounce.staging, 'batch' in bounce], ['disabled', 'bounce', false])
  assert.deepEqual([one('root=3').root, one('iter=0').iteration, one('k=v=w/src=2').src], [3, 0, 2])
  assert.equal(parse(['BenchmarkNcclAllReduce/x=1  1  2 us/op'], 6).rows[0]?.trial, 6)
})

test('result values: pairs of number and unit in base units; p2p bandwidth lines drop their time', () => {
  const o = parse([
    'BenchmarkNcclAllReduce/size=8  1  2.5 us/op  3 algGB/s  4 busGB/s  0 wrong  5 GB/s',
    'BenchmarkP2PBwUni/size=8  1  9 us/op  7 GB/s',
    'BenchmarkP2PLatency/size=8  1  9 us/op',
    'BenchmarkP2PBwBi/size=8  1  9 us/op',
  ])
  assert.deepEqual(
    o.rows.map((r) => [r.bench, r.metric, r.unit, r.value]),
    [
      ['nccl.all_reduce', 'time', 's', 2.5e-6],
      ['nccl.all_reduce', 'algbw', 'B/s', 3e9],
      ['nccl.all_reduce', 'busbw', 'B/s', 4e9],
      ['nccl.all_reduce', 'wrong', 'count', 0],
      ['nccl.all_reduce', 'bandwidth', 'B/s', 5e9],
      ['p2p.bw_uni', 'bandwidth', 'B/s', 7e9],
      ['p2p.latency', 'latency', 's', 9e-6],
    ],
  )
  // A line whose only value is dropped still counts as a result (no "no-results").
  assert.deepEqual(diag(o), [])
  const bad = parse([
    'BenchmarkNcclAllReduce/size=8  1  2.5',
    'BenchmarkNcclAllReduce/size=8  1  2.5 us/op 3',
    'BenchmarkNcclAllReduce/size=8  1  2.5 ms/op',
    'BenchmarkNcclAllReduce/size=8  1  x us/op',
    'BenchmarkNcclAllReduce/size=8  1  1 us/op  -0.5 GB/s',
    'BenchmarkNcclAllReduce/size8  1  1 us/op',
    'BenchmarkNcclAllReduce/=8  1  1 us/op',
    'BenchmarkFoo/size=8  1  1 us/op',
  ])
  assert.equal(bad.rows.length, 0)
  assert.deepEqual(diag(bad), [
    [1, 'warn', 'bad-line', 'values are not <number> <unit> pairs; line skipped'],
    [2, 'warn', 'bad-line', 'values are not <number> <unit> pairs; line skipped'],
    [3, 'warn', 'bad-line', 'bad value "2.5 ms/op"; line skipped'],
    [4, 'warn', 'bad-line', 'bad value "x us/op"; line skipped'],
    [5, 'warn', 'bad-line', 'bad value "-0.5 GB/s"; line skipped'],
    [6, 'warn', 'unknown-bench', 'unknown native bench BenchmarkNcclAllReduce; line skipped'],
    [7, 'warn', 'unknown-bench', 'unknown native bench BenchmarkNcclAllReduce; line skipped'],
    [8, 'warn', 'unknown-bench', 'unknown native bench BenchmarkFoo; line skipped'],
    [8, 'warn', 'no-results', 'no result lines (did the bench stop early? see its stderr)'],
  ])
  assert.equal(parse(['BenchmarkNcclAllReduce/size=8  1  0 us/op']).rows[0]?.value, 0)
})

test('marked lines, comments, NCCL log lines and lines that are no bench line', () => {
  const o = parse([
    'CORRUPT BenchmarkX/a=1 mismatches=3',
    'CORRUPT BenchmarkX/a=1',
    'WARN  w1   rest of it',
    'SKIP s1',
    '# a comment',
    '   ',
    'gpu1:123:456 [0] NCCL INFO Bootstrap',
    'NCCL WARN x',
    'NCCL version 2.28',
    'NCCLx INFO y',
    'Benchmarkoops',
    `other ${'z'.repeat(200)}`,
    'Key: value',
    'BenchmarkNcclAllReduce/size=8  1  1 us/op',
  ])
  assert.deepEqual(diag(o), [
    [1, 'error', 'corrupt', 'data check failed, values not to be trusted: BenchmarkX/a=1: mismatches=3'],
    [2, 'error', 'corrupt', 'data check failed, values not to be trusted: BenchmarkX/a=1'],
    [3, 'warn', 'bench-warning', 'w1: rest of it'],
    [4, 'info', 'skipped', 'skipped s1'],
    [10, 'info', 'unparsed', 'not a native bench line: NCCLx INFO y'],
    [11, 'warn', 'unparsed', 'not a native bench line: Benchmarkoops'],
    [12, 'info', 'unparsed', `not a native bench line: ${`other ${'z'.repeat(200)}`.slice(0, 120)}`],
    [13, 'info', 'unparsed', 'not a native bench line: Key: value'],
  ])
  assert.deepEqual(diag(parse([])), [
    [0, 'warn', 'no-results', 'no result lines (did the bench stop early? see its stderr)'],
  ])
})

test('config lines and the meta built from them', () => {
  const o = parse([
    'format: gpucomm-native/1',
    'bench:   coll_bench  ',
    'nccl-version-string: 2.28.7',
    'nccl-library: /lib/libnccl.so',
    'cuda-runtime: 13000',
    'cuda-driver: 13010',
    'gpu.0: NVIDIA H200 | cc 9.0 | bus 0000:19:00.0',
    'gpu.12: Solo',
    'gpu.2: A | 9.0 | 0000:01:00.0',
    'gpu.x: not a gpu',
    'xgpu.3: not a gpu',
    'a.b-c_d: 1',
    'BenchmarkNcclAllReduce/size=8  1  1 us/op',
  ])
  assert.deepEqual(o.meta, {
    config: {
      format: 'gpucomm-native/1',
      bench: 'coll_bench',
      'nccl-version-string': '2.28.7',
      'nccl-library': '/lib/libnccl.so',
      'cuda-runtime': '13000',
      'cuda-driver': '13010',
      'gpu.0': 'NVIDIA H200 | cc 9.0 | bus 0000:19:00.0',
      'gpu.12': 'Solo',
      'gpu.2': 'A | 9.0 | 0000:01:00.0',
      'gpu.x': 'not a gpu',
      'xgpu.3': 'not a gpu',
      'a.b-c_d': '1',
    },
    version: 'gpucomm-native/1',
    bench: 'coll_bench',
    nccl: '2.28.7',
    ncclLibrary: '/lib/libnccl.so',
    cudaRuntime: 13000,
    cudaDriver: 13010,
    gpus: [
      { index: 0, name: 'NVIDIA H200', computeCap: '9.0', busId: '0000:19:00.0' },
      { index: 12, name: 'Solo' },
      { index: 2, name: 'A' },
    ],
  })
  assert.deepEqual(parse(['BenchmarkNcclAllReduce/size=8  1  1 us/op']).meta, { config: {} })
  assert.deepEqual(parse(['gpu.0:  | cc 8.0', 'BenchmarkNcclX/a=1  1  1 us/op']).meta.gpus, [
    { index: 0, computeCap: '8.0' },
  ])
})

test('detect: the format line (0.99) or a result line (0.8), with or without a launcher prefix', () => {
  const d = (t: string): number => P.detect(t)
  assert.equal(d('format: gpucomm-native/1'), 0.99)
  assert.equal(d('x\nformat: gpucomm-native/12  \ny'), 0.99)
  assert.equal(d('[1,0]<stdout>:format: gpucomm-native/2'), 0.99)
  assert.equal(d('3: format: gpucomm-native/2'), 0.99)
  assert.equal(d('format: gpucomm-native/1x'), 0)
  assert.equal(d('format: gpucomm-native/'), 0)
  assert.equal(d('x format: gpucomm-native/1'), 0)
  for (const ok of [
    'BenchmarkP2PLatency/src=0  1  2.1 us/op',
    'BenchmarkP2PBwUni/src=0  10  1 GB/s',
    'BenchmarkP2PBwBi/a=1 1 1 wrong',
    'BenchmarkNcclAllReduce/size=8  1  25 us/op',
    '[0,1]<stdout>:BenchmarkNcclX/a  1  1 us/op',
    '12: BenchmarkNcclX/a  1  1 us/op',
  ])
    assert.equal(d(ok), 0.8, ok)
  for (const no of [
    'BenchmarkP2PWarp/src=0  1  2.1 us/op',
    'BenchmarkNcclallReduce/a  1  1 us/op',
    'BenchmarkNcclX  1  1 us/op',
    'BenchmarkNcclX/a  x  1 us/op',
    'BenchmarkNcclX/a  1  1 ms/op',
    'x BenchmarkNcclX/a  1  1 us/op',
    '[0,1]<stderr>:BenchmarkNcclX/a  1  1 us/op',
  ])
    assert.equal(d(no), 0, no)
})

test('result lines: single blanks, a count of two digits, indented; not when something precedes Benchmark', () => {
  const o = parse([
    'BenchmarkNcclX/a=1 1 1 us/op',
    'BenchmarkNcclX/a=1  10  2 us/op',
    '   BenchmarkNcclX/a=1  1  3 us/op',
    'x BenchmarkNcclX/a=1  1  4 us/op',
    'gpu.1x: G',
    'BenchmarkNcclX/size=1e3/ranks=0x10  1  5 us/op',
  ])
  assert.deepEqual(
    o.rows.map((r) => [r.source.line, r.value, r.sizeBytes, r.ranks]),
    [
      [1, 1e-6, null, null],
      [2, 2e-6, null, null],
      [3, 3e-6, null, null],
      [6, 5e-6, null, null],
    ],
  )
  assert.deepEqual(diag(o), [[4, 'info', 'unparsed', 'not a native bench line: x BenchmarkNcclX/a=1  1  4 us/op']])
  assert.equal(o.meta.gpus, undefined)
})
