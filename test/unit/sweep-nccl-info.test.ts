import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { ExecResult } from '../../src/exec/index.ts'
import { makeRow } from '../../src/model/index.ts'
import type { PointEvidence } from '../../src/nccl-log/index.ts'
import { findNoEffect, mergeAccounts, NcclInfoCollector } from '../../src/nccl-log/index.ts'
import { progressLine } from '../../src/output/index.ts'
import { classifyLaunch, enrichRow } from '../../src/run/index.ts'
import type { Point } from '../../src/sweep/index.ts'

// generated: NCCL_DEBUG=INFO lines in the shapes NCCL prints (see the doc comment of
// src/nccl-log/_account.ts), with mpirun --tag-output prefixes on some.
const GENERATED_INFO = [
  'box:101:101 [0] NCCL INFO NCCL version 2.21.5+cuda12.4',
  '[1,0]<stdout>:box:101:140 [0] NCCL INFO NCCL_P2P_DISABLE set by environment to 1.',
  'box:101:140 [0] NCCL INFO Channel 00/02 :    0   1   2   3',
  'box:101:140 [0] NCCL INFO Channel 01/02 :    0   1   2   3',
  'box:101:140 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via SHM/direct/direct',
  'box:102:141 [1] NCCL INFO Channel 00/0 : 1[1] -> 2[2] via P2P/CUMEM/read',
  'box:102:141 [1] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [receive] via NET/IB/0/GDRDMA',
  'box:101:140 [0] NCCL INFO 2 coll channels, 2 collnet channels, 0 nvls channels, 2 p2p channels, 2 p2p channels per peer',
  'box:101:101 [0] NCCL INFO AllReduce: 4096 Bytes -> Algo TREE proto LL channel{Lo..Hi}={0..1}',
  'box:101:101 [0] NCCL INFO AllReduce: 8388608 Bytes -> Algo RING proto SIMPLE channel{Lo..Hi}={0..1}',
  'box:101:101 [0] NCCL INFO 1048576 Bytes -> Algo 1 proto 1 time 36.500000',
  '       8             2     float     sum      -1    20.18    0.00    0.00       0    20.89    0.00    0.00       0',
]

test('NCCL INFO lines → transports, channels, algorithms, protocols, env and version', () => {
  const c = new NcclInfoCollector()
  for (const l of GENERATED_INFO) c.line(l)
  const a = c.account()
  assert.ok(a)
  assert.deepEqual(a.transports, ['NET/IB/GDRDMA', 'P2P/CUMEM', 'SHM'])
  assert.equal(a.channels, 2)
  assert.deepEqual(a.algos, ['Ring', 'Tree'])
  assert.deepEqual(a.protos, ['LL', 'LL128', 'Simple'])
  assert.deepEqual(a.choices[2], { collective: '', bytes: 1048576, algo: 'Ring', proto: 'LL128' })
  assert.deepEqual(a.envSet, { NCCL_P2P_DISABLE: '1' })
  assert.equal(a.version, '2.21.5+cuda12.4')
  assert.equal(a.infoLines, GENERATED_INFO.length - 1)
  const none = new NcclInfoCollector()
  none.line('#  Rank  0 Group  0 Pid   7666 on box device  0 [0000:05:00] GPU')
  assert.equal(none.account(), undefined)
  const m = mergeAccounts([
    a,
    undefined,
    { transports: ['P2P/IPC'], algos: [], protos: [], choices: [], envSet: {}, infoLines: 1, channels: 4 },
  ])
  assert.deepEqual(m?.transports, ['NET/IB/GDRDMA', 'P2P/CUMEM', 'P2P/IPC', 'SHM'])
  assert.equal(m?.channels, 4)
})

const point = (env: Record<string, string>, trial: number, grouping = 'tp8'): Point => ({
  id: `nccl.all_reduce~${grouping}~${Object.entries(env)
    .map(([k, v]) => `${k}=${v}`)
    .join('~')}~t${trial}`,
  instrument: 'sim',
  bench: 'nccl.all_reduce',
  kind: 'collective',
  collective: 'all_reduce',
  grouping,
  groups: [[0, 1, 2, 3, 4, 5, 6, 7]],
  sizes: [8, 1024],
  env,
  trial,
})

test('no visible effect: equal NCCL accounts, or times within 5%, flag the axis; a real change does not', () => {
  const pts = [point({ A: '0' }, 1), point({ A: '1' }, 1), point({ B: 'x' }, 1, 'tp4'), point({ B: 'y' }, 1, 'tp4')]
  const acc = (t: string[]) => ({
    transports: t,
    algos: ['Ring'],
    protos: ['Simple'],
    choices: [],
    envSet: {},
    infoLines: 3,
  })
  const times = (a: number, b: number) =>
    new Map([
      [8, [a]],
      [1024, [b]],
    ])
  const ev = new Map<string, PointEvidence>([
    [pts[0]!.id, { account: acc(['SHM']), times: times(20e-6, 30e-6) }],
    [pts[1]!.id, { account: acc(['SHM']), times: times(25e-6, 31e-6) }],
    [pts[2]!.id, { times: times(20e-6, 30e-6) }],
    [pts[3]!.id, { times: times(20.5e-6, 30.3e-6) }],
  ])
  const flags = findNoEffect(
    [
      ['A', ['0', '1']],
      ['B', ['x', 'y']],
    ],
    pts,
    ev,
  )
  assert.deepEqual(
    flags.map((f) => [f.axis, f.basis]),
    [
      ['A', 'nccl-info'],
      ['B', 'timing'],
    ],
  )
  assert.match(flags[0]!.detail, /same transports SHM/)
  ev.set(pts[1]!.id, { account: acc(['P2P/IPC']), times: times(25e-6, 31e-6) })
  ev.set(pts[3]!.id, { times: times(30e-6, 30e-6) })
  assert.deepEqual(
    findNoEffect(
      [
        ['A', ['0', '1']],
        ['B', ['x', 'y']],
      ],
      pts,
      ev,
    ),
    [],
  )
})

const exec = (over: Partial<ExecResult> = {}): ExecResult => ({
  exitCode: 0,
  startedMs: 0,
  signal: null,
  wallS: 1,
  stdoutBytes: 10,
  stderrBytes: 0,
  ...over,
})
const time = (size: number, placement: 'out-of-place' | 'in-place' = 'out-of-place') =>
  makeRow({
    bench: 'nccl.all_reduce',
    metric: 'time',
    unit: 's',
    value: 1e-5,
    sizeBytes: size,
    placement,
    source: { file: 'x', line: 1 },
  })

test('classify: watchdog kills are hung, signals and exit codes failed, bad output corrupt', () => {
  const p = point({}, 1)
  const full = [time(8), time(1024), time(8, 'in-place')]
  assert.equal(classifyLaunch(p, exec(), full, [], 60).status, 'ok')
  assert.deepEqual(classifyLaunch(p, exec({ killed: 'no-output', exitCode: null, signal: 'SIGTERM' }), [], [], 5), {
    status: 'hung',
    reason: 'no output for 5 s; killed the process group',
  })
  assert.match(
    classifyLaunch(p, exec({ exitCode: null, signal: 'SIGABRT' }), full, [], 60).reason,
    /crashed: killed by SIGABRT/,
  )
  assert.deepEqual(classifyLaunch(p, exec({ exitCode: 3 }), [], [], 60), {
    status: 'failed',
    reason: 'exited with status 3',
  })
  assert.equal(classifyLaunch(p, exec(), [], [], 60).status, 'corrupt')
  assert.match(classifyLaunch(p, exec(), [time(8)], [], 60).reason, /rows for 1 of 2 sizes/)
  const wrong = makeRow({
    bench: 'nccl.all_reduce',
    metric: 'wrong',
    unit: 'count',
    value: 12,
    sizeBytes: 8,
    source: { file: 'x', line: 1 },
  })
  assert.deepEqual(classifyLaunch(p, exec({ exitCode: 1 }), [...full, wrong], [], 60).status, 'corrupt')
  // The bench's own last stderr line says why it stopped.
  const why =
    'p2p_bench: error: cudaGetDeviceCount(&n): cudaErrorNoDevice (no CUDA-capable device is detected) at native/common.cuh:184'
  assert.deepEqual(classifyLaunch(p, exec({ exitCode: 3 }), [], [], 60, why), {
    status: 'failed',
    reason: `exited with status 3: ${why}`,
  })
  assert.equal(
    classifyLaunch(p, exec({ exitCode: 3 }), [], [], 60, 'x'.repeat(400)).reason,
    `exited with status 3: ${'x'.repeat(300)}…`,
  )
  // A native CORRUPT line (exit 1, no 'wrong' rows): corrupt, naming the line.
  const corrupt = {
    file: 'p2p.stdout',
    line: 42,
    severity: 'error' as const,
    code: 'corrupt',
    message: 'data check failed, values not to be trusted: BenchmarkP2PBwBi/src=1/dst=0',
  }
  assert.deepEqual(classifyLaunch(p, exec({ exitCode: 1 }), full, [corrupt], 60), {
    status: 'corrupt',
    reason: `${corrupt.message} (p2p.stdout:42)`,
  })
})

test('rows get the sweep fields; visible device ordinals map back to physical GPUs; unrequested pairs drop', () => {
  const coll = enrichRow(time(8), point({ NCCL_PROTO: 'LL' }, 2, 'tp4'), [4, 5, 6, 7], true)
  assert.equal(coll?.grouping, 'tp4')
  assert.equal(coll?.group, '4-7')
  assert.equal(coll?.trial, 2)
  assert.deepEqual(coll?.env, { NCCL_PROTO: 'LL' })
  const pairs: Point = {
    id: 'p2p~0,2,4~t1',
    instrument: 'sim',
    bench: 'p2p',
    kind: 'pairs',
    groups: [[0, 2, 4]],
    pairs: [[0, 4]],
    sizes: [],
    env: {},
    trial: 1,
  }
  const lat = (src: number, dst: number) =>
    makeRow({
      bench: 'p2p.latency',
      metric: 'latency',
      unit: 's',
      value: 1e-5,
      src,
      dst,
      source: { file: 'x', line: 1 },
    })
  assert.deepEqual(
    [enrichRow(lat(0, 2), pairs, [0, 2, 4], true)?.src, enrichRow(lat(0, 2), pairs, [0, 2, 4], true)?.dst],
    [0, 4],
  )
  assert.equal(enrichRow(lat(1, 2), pairs, [0, 2, 4], true), undefined)
  assert.equal(enrichRow(lat(1, 1), pairs, [0, 2, 4], true)?.src, 2)
})

test('progress: redrawn in place on a TTY, plain lines otherwise', () => {
  const e = {
    type: 'point' as const,
    index: 2,
    todo: 9,
    id: 'p2p~0-7~t1',
    outcome: { status: 'ok' as const, attempts: 1, wallS: 0.5, rows: 10 },
    elapsedS: 3,
    etaS: 65,
  }
  assert.equal(progressLine(e, false), '[3/9] p2p~0-7~t1 ok 0.50 s, 10 rows  elapsed 0:03 ETA 1:05\n')
  assert.match(progressLine(e, true) ?? '', /^\r\[3\/9\].*\x1b\[K$/)
  assert.equal(progressLine({ type: 'point-start', index: 0, todo: 9, id: 'x' }, false), undefined)
})
