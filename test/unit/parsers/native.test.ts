/** The native bench parser on generated sample output (test/fixtures/native/generated-*.txt). */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { cellKey } from '../../../src/cells/index.ts'
import type { Parser } from '../../../src/parsers/index.ts'
import { detectParser, parserById, parseText } from '../../../src/parsers/index.ts'
import { benchOf } from '../../../src/parsers/p2p/native.ts'
import { checkGolden } from '../../golden.ts'
import { FIXTURES } from '../../helpers.ts'

const read = (name: string): string => readFileSync(join(FIXTURES, 'native', name), 'utf8')
const parser = parserById('native') as Parser

test('the native parser is registered and detects its output, not others', () => {
  assert.ok(parser, 'native parser is in the registry')
  assert.equal(detectParser(read('generated-p2p.txt'))?.id, 'native')
  assert.equal(detectParser(read('generated-coll.txt'))?.id, 'native')
  // Result lines alone (a log whose config lines were cut) are still recognised.
  const body = read('generated-coll.txt')
    .split('\n')
    .filter((l) => l.startsWith('Benchmark'))
    .join('\n')
  assert.equal(detectParser(body)?.id, 'native')
  assert.equal(parser.detect('#  Rank  0 Group  0 Pid  54740 on thanos device  0\nsize: 8\n'), 0)
})

test('bench names map to gpucomm bench ids', () => {
  assert.equal(benchOf('P2PLatency'), 'p2p.latency')
  assert.equal(benchOf('P2PBwUni'), 'p2p.bw_uni')
  assert.equal(benchOf('P2PBwBi'), 'p2p.bw_bi')
  assert.equal(benchOf('NcclAllReduce'), 'nccl.all_reduce')
  assert.equal(benchOf('NcclReduceScatter'), 'nccl.reduce_scatter')
  assert.equal(benchOf('NcclAlltoall'), 'nccl.alltoall')
  assert.equal(benchOf('NcclSendrecv'), 'nccl.sendrecv')
  assert.equal(benchOf('P2PWarp'), undefined)
})

test('p2p_bench output: latency and bandwidth rows in base units, one per iteration', () => {
  const out = parseText(parser, read('generated-p2p.txt'), { file: 'raw/000-p2p.txt', trial: 2 })
  const lat = out.rows.filter((r) => r.bench === 'p2p.latency')
  assert.equal(lat.length, 5)
  const first = lat[0]
  assert.ok(first)
  assert.equal(first.metric, 'latency')
  assert.equal(first.unit, 's')
  assert.ok(Math.abs(first.value - 2.144e-6) < 1e-15)
  assert.deepEqual(
    [
      first.src,
      first.dst,
      first.sizeBytes,
      first.p2p,
      first.copy,
      first.peerAccess,
      first.iteration,
      first.timer,
      first.trial,
    ],
    [0, 0, 16, 'enabled', 'ce', true, 0, 'gpu', 2],
  )
  assert.deepEqual(first.source, { file: 'raw/000-p2p.txt', line: 14 })
  const staged = lat.filter((r) => r.p2p === 'disabled')
  assert.deepEqual(
    staged.map((r) => [r.src, r.dst, r.peerAccess, r.iteration]),
    [
      [0, 1, false, 0],
      [0, 1, false, 1],
    ],
  )
  const uni = out.rows.filter((r) => r.bench === 'p2p.bw_uni')
  assert.equal(uni.length, 1, 'the line with a non-number is skipped, not read as a row')
  assert.equal(uni[0]?.metric, 'bandwidth')
  assert.equal(uni[0]?.unit, 'B/s')
  assert.equal(uni[0]?.value, 26.2012e9)
  const bi = out.rows.filter((r) => r.bench === 'p2p.bw_bi')
  assert.deepEqual(
    bi.map((r) => [r.src, r.dst, r.copy, r.p2p, r.value]),
    [[1, 0, 'sm', 'disabled', 22.0173e9]],
  )
  assert.ok(
    out.rows.every((r) => r.metric !== 'time'),
    'p2p lines give latency or bandwidth rows only',
  )
})

test('p2p_bench output: CORRUPT is a diagnostic without a number, SKIP is info, bad lines warn', () => {
  const out = parseText(parser, read('generated-p2p.txt'), { file: 'p2p.txt' })
  const byCode = (c: string) => out.diagnostics.filter((d) => d.code === c)
  const corrupt = byCode('corrupt')
  assert.equal(corrupt.length, 1)
  assert.equal(corrupt[0]?.severity, 'error')
  assert.equal(corrupt[0]?.line, 23)
  assert.match(corrupt[0]?.message ?? '', /BenchmarkP2PBwBi\/src=1\/dst=0\/size=1048576.*mismatches=12/)
  assert.equal(out.rows.filter((r) => r.source.line === 23).length, 0, 'no row from a CORRUPT line')
  assert.equal(byCode('skipped')[0]?.severity, 'info')
  assert.deepEqual(
    byCode('bad-line').map((d) => d.line),
    [24],
  )
  assert.deepEqual(
    byCode('unknown-bench').map((d) => d.line),
    [25],
  )
  assert.equal(byCode('unparsed').length, 0, 'NCCL INFO lines are ignored silently')
  assert.deepEqual(
    byCode('bench-warning').map((d) => [d.line, d.severity]),
    [[26, 'warn']],
  )
  assert.match(
    byCode('bench-warning')[0]?.message ?? '',
    /^BenchmarkP2PLatency\/src=0\/dst=1\/size=4\/.*iter=0: the latch timed out/,
  )
  assert.equal(out.meta.version, 'gpucomm-native/1')
  assert.equal(out.meta.bench, 'p2p_bench')
  assert.deepEqual(out.meta.gpus, [
    { index: 0, name: 'NVIDIA RTX PRO 6000 Blackwell Server Edition', computeCap: '12.0', busId: '0000:01:00.0' },
    { index: 1, name: 'NVIDIA RTX PRO 6000 Blackwell Server Edition', computeCap: '12.0', busId: '0000:02:00.0' },
  ])
  assert.equal((out.meta.config as Record<string, string>)['peer.0.1'], '0')
})

test('coll_bench output: time/algbw/busbw per iteration, wrong per size and placement', () => {
  const out = parseText(parser, read('generated-coll.txt'), { file: 'coll.txt' })
  const ar = out.rows.filter((r) => r.bench === 'nccl.all_reduce')
  assert.deepEqual(
    ar.filter((r) => r.placement === 'out-of-place' && r.iteration === 0).map((r) => [r.metric, r.unit, r.value]),
    [
      ['time', 's', 25e-6],
      ['algbw', 'B/s', 41.943e9],
      ['busbw', 'B/s', 41.943e9],
    ],
  )
  const wrong = ar.filter((r) => r.metric === 'wrong')
  assert.deepEqual(
    wrong.map((r) => [r.placement, r.value, r.unit, r.iteration]),
    [
      ['out-of-place', 0, 'count', undefined],
      ['in-place', 3, 'count', undefined],
    ],
  )
  const t = ar[0]
  assert.deepEqual(
    [t?.ranks, t?.sizeBytes, t?.dtype, t?.redop, t?.root, t?.src, t?.timer],
    [2, 1048576, 'float', 'sum', undefined, null, 'gpu'],
  )
  const ag = out.rows.find((r) => r.bench === 'nccl.all_gather')
  assert.deepEqual([ag?.redop, ag?.root, ag?.sizeBytes], [undefined, undefined, 1024])
  const bc = out.rows.find((r) => r.bench === 'nccl.broadcast')
  assert.deepEqual([bc?.root, bc?.dtype], [1, 'half'])
  const rs = out.rows.find((r) => r.bench === 'nccl.reduce_scatter')
  assert.deepEqual([rs?.redop, rs?.placement], ['max', 'in-place'])
  assert.deepEqual(
    out.diagnostics.map((d) => [d.code, d.line]),
    [['corrupt', 23]],
  )
  assert.equal(out.meta.nccl, '2.28.7')
  assert.equal(out.meta.ncclLibrary, '/opt/nccl/lib/libnccl.so.2')
  assert.equal(out.meta.cudaRuntime, 13000)
})

test('streaming: rows come out line by line, before the input ends', () => {
  const seen: number[] = []
  const lp = parser.open({ file: 'x' }, (r) => seen.push(r.source.line))
  const lines = read('generated-coll.txt').split('\n')
  lp.line(lines[0] as string, 1)
  lp.line(lines[17] as string, 18)
  assert.deepEqual(seen, [18, 18, 18])
  const end = lp.end()
  assert.equal(end.diagnostics.length, 0)
})

test('output with no result line says so', () => {
  const out = parseText(parser, 'format: gpucomm-native/1\nbench: coll_bench\n', { file: 'x' })
  assert.equal(out.rows.length, 0)
  assert.deepEqual(
    out.diagnostics.map((d) => [d.code, d.severity]),
    [['no-results', 'warn']],
  )
})

test('golden: rows of both generated samples', () => {
  const rows = ['generated-p2p.txt', 'generated-coll.txt'].flatMap((f) => parseText(parser, read(f), { file: f }).rows)
  checkGolden('native/generated-rows', rows)
})

test('negative, infinite and overflowing values are bad lines, never rows', () => {
  const text = [
    'BenchmarkP2PLatency/src=0/dst=0/size=16/iter=0  1  -3.000 us/op',
    'BenchmarkP2PBwUni/src=0/dst=0/size=16/iter=0  1  1.0 us/op  1e400 GB/s',
    'BenchmarkP2PBwUni/src=0/dst=0/size=16/iter=0  1  1.0 us/op  1e300 GB/s',
    `BenchmarkP2PLatency/src=0/dst=0/size=${'9'.repeat(400)}/iter=0  1  3.000 us/op`,
  ].join('\n')
  const out = parseText(parser, text, { file: 'x' })
  assert.deepEqual(
    out.diagnostics.filter((d) => d.code === 'bad-line').map((d) => d.line),
    [1, 2, 3],
  )
  assert.deepEqual(
    out.rows.map((r) => [r.source.line, r.sizeBytes, r.value]),
    [[4, null, 3e-6]],
  )
})

test('multi-process output: mpirun --tag-output and srun --label prefixes give the same rows, meta and diagnostics', () => {
  for (const name of ['generated-coll.txt', 'generated-p2p.txt']) {
    const text = read(name)
    const want = parseText(parser, text, { file: name })
    assert.ok(want.rows.length > 0)
    for (const prefix of ['[1,0]<stdout>:', '0: ', ' 0: ']) {
      const tagged = text
        .split('\n')
        .map((l) => (l === '' ? l : prefix + l))
        .join('\n')
      assert.equal(detectParser(tagged)?.id, 'native', `${name} with "${prefix}" detected`)
      const got = parseText(parser, tagged, { file: name })
      assert.deepEqual(got.rows, want.rows, `${name} with "${prefix}": rows`)
      assert.deepEqual(got.meta, want.meta, `${name} with "${prefix}": meta`)
      assert.deepEqual(got.diagnostics, want.diagnostics, `${name} with "${prefix}": diagnostics`)
    }
  }
})

test('format 2 (p2p_bench with --batch and the bounce mode): batch per row, bounce a staging of its own', () => {
  const text = [
    '# generated: a hand-written sample of the format-2 p2p_bench output, made-up numbers',
    'format: gpucomm-native/2',
    'bench: p2p_bench',
    'batch: auto (a sample spans at least 20 us)',
    'BenchmarkP2PLatency/src=0/dst=1/size=16/p2p=disabled/copy=ce/peer=0/batch=2/iter=0  1  13.712 us/op',
    'BenchmarkP2PLatency/src=0/dst=1/size=16/p2p=bounce/copy=ce/peer=0/batch=2/iter=0  1  15.100 us/op',
    'BenchmarkP2PLatency/src=0/dst=0/size=16/p2p=enabled/copy=sm/peer=1/batch=13/iter=0  1  2.000 us/op',
  ].join('\n')
  const out = parseText(parser, text, { file: 'p2p.txt' })
  assert.deepEqual(out.diagnostics, [])
  assert.deepEqual(
    out.rows.map((r) => [r.p2p, r.staging, r.batch, r.value]),
    [
      ['disabled', undefined, 2, 13.712e-6],
      ['disabled', 'bounce', 2, 15.1e-6],
      ['enabled', undefined, 13, 2e-6],
    ],
  )
  const [driver, bounce] = out.rows.map(cellKey)
  assert.notEqual(driver, bounce, 'driver-staged and bounced copies are different cells')
  assert.match(bounce as string, / p2p=disabled .*copy=ce staging=bounce /)
  assert.equal(out.meta.version, 'gpucomm-native/2')
  // Format-1 output (no batch key, p2p=disabled only) still parses, with neither field.
  const old = parseText(parser, read('generated-p2p.txt'), { file: 'old.txt' }).rows
  assert.ok(old.length > 0 && old.every((r) => r.batch === undefined && r.staging === undefined))
})
