/**
 * The `#` line readers of the nccl-tests text parser (src/parsers/nccl-tests/_nccl-meta.ts), one function at a
 * time: the banner's parameters, rank lines of each era, the version line, NCCL's version codes on
 * both sides of 2.9, footer values, failure lines, the file meta of zero, one and many runs, and
 * what an NCCL INFO / WARN line says. Lines are the fixtures' own (split on blanks here, after the
 * `#`); the expected values are written out by hand.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  classifyFailure,
  fileMeta,
  ncclCodeToVersion,
  ncclLineFacts,
  parseBanner,
  parseFooterValue,
  parseRankLine,
  parseVersionLine,
} from '../../src/parsers/nccl-tests/_nccl-meta.ts'

/** Blank-separated tokens of a line (the text after `#`). */
const tk = (s: string): string[] => s.trim().split(/\s+/).filter(Boolean)

test('parseBanner: every parameter of the v2.13+ banner, step as factor or bytes', () => {
  assert.deepEqual(
    parseBanner(
      tk(
        'nThread 1 nGpus 8 minBytes 8 maxBytes 4294967296 step: 2(factor) warmup iters: 5 iters: 20 ' +
          'agg iters: 1 validation: 1 graph: 0 unalign: 0',
      ),
    ),
    {
      nThread: 1,
      nGpus: 8,
      minBytes: 8,
      maxBytes: 4294967296,
      stepFactor: 2,
      warmupIters: 5,
      iters: 20,
      aggIters: 1,
      validation: 1,
      graph: 0,
      unalign: 0,
    },
  )
  assert.deepEqual(parseBanner(tk('nThread 1 nGpus 12 minBytes 8 step: 1048576(bytes) validation: 1')), {
    nThread: 1,
    nGpus: 12,
    minBytes: 8,
    stepBytes: 1048576,
    validation: 1,
  })
  assert.deepEqual(parseBanner(tk('step: 16(factor)')), { stepFactor: 16 })
  assert.deepEqual(parseBanner(tk('step: 3')), { step: 3 })
})

test('parseBanner: labels of several words, a number first, and step tokens that are not whole', () => {
  // A label nccl-tests may add later becomes camelCase of its words; a trailing colon is dropped.
  assert.deepEqual(parseBanner(tk('cuda graph launches: 4 blocking: 1')), { cudaGraphLaunches: 4, blocking: 1 })
  assert.deepEqual(parseBanner(tk('a b:c: 7')), { 'aB:c': 7 })
  // A number with no label before it is a label word itself.
  assert.deepEqual(parseBanner(tk('5 x 3')), { '5X': 3 })
  // Labels named like Object's own members are plain keys too.
  assert.deepEqual(parseBanner(tk('constructor 5 toString: 6 has Own Property: 7')), {
    constructor: 5,
    toString: 6,
    hasOwnProperty: 7,
  })
  assert.deepEqual(parseBanner(tk('nGpus 2 4')), { nGpus: 2 })
  assert.deepEqual(parseBanner(tk('iters: -2 graph: 1e3')), { iters: -2, graph: 1000 })
  // Only a whole `N(factor)` / `N(bytes)` token is a step; anything else is one more label word.
  for (const bad of ['a2(factor)', '2(factor)x', '2(factors)', '(factor)', '2(Bytes)', '2.5(factor)', 'x(bytes)'])
    assert.deepEqual(parseBanner(['step:', bad]), {}, bad)
  assert.deepEqual(parseBanner(tk('step: 2 (factor) graph: 1')), { step: 2, '(factor)Graph': 1 })
  assert.deepEqual(parseBanner([]), {})
  assert.deepEqual(parseBanner(tk('nThread')), {})
})

test('parseRankLine: v2.13+ with Group, v2.0 without, prefixes before Rank, bus ids and truncated names', () => {
  assert.deepEqual(
    parseRankLine(tk('Rank  0 Group  0 Pid  54740 on     thanos device  0 [0x07] NVIDIA A100-SXM4-80GB')),
    {
      rank: 0,
      group: 0,
      pid: 54740,
      host: 'thanos',
      device: 0,
      busId: '0x07',
      name: 'NVIDIA A100-SXM4-80GB',
    },
  )
  assert.deepEqual(parseRankLine(tk('Rank 11 Pid  88618 on    seville device 11 [0xe7] Tesla V100-SXM3-32GB')), {
    rank: 11,
    pid: 88618,
    host: 'seville',
    device: 11,
    busId: '0xe7',
    name: 'Tesla V100-SXM3-32GB',
  })
  assert.deepEqual(parseRankLine(tk('host-3: Rank 7 Group -1 device 3 [0009:01:00] NVIDIA GH200 ...')), {
    rank: 7,
    group: -1,
    device: 3,
    busId: '0009:01:00',
    name: 'NVIDIA GH200 ...',
    truncated: true,
  })
  assert.deepEqual(parseRankLine(tk('Rank 2 [0x07')), { rank: 2, name: '[0x07' })
  assert.deepEqual(parseRankLine(tk('Rank 2 0x07]')), { rank: 2, name: '0x07]' })
  assert.deepEqual(parseRankLine(tk('Rank 2 []')), { rank: 2, busId: '' })
  assert.deepEqual(parseRankLine(tk('Rank 2 NVIDIA ..')), { rank: 2, name: 'NVIDIA ..' })
})

test('parseRankLine: a field whose value is missing or not a number is left in the name', () => {
  assert.deepEqual(parseRankLine(tk('Rank 1')), { rank: 1 })
  for (const word of ['Group', 'Pid', 'on', 'device']) {
    assert.deepEqual(parseRankLine(['Rank', '1', word]), { rank: 1, name: word }, word)
    if (word !== 'on') assert.deepEqual(parseRankLine(['Rank', '1', word, 'x']), { rank: 1, name: `${word} x` }, word)
  }
  assert.deepEqual(parseRankLine(tk('Rank 1 Pid 9 Group 0 x')), { rank: 1, pid: 9, name: 'Group 0 x' })
  assert.deepEqual(parseRankLine(tk('Rank 1 on h Pid 9')), { rank: 1, host: 'h', name: 'Pid 9' })
  assert.deepEqual(parseRankLine(tk('Rank 1 device 2 on h')), { rank: 1, device: 2, name: 'on h' })
  for (const bad of ['Rank', 'Rank x', 'Rank -1', 'Rank 1.5', '5 x', '3', 'Ranks 3', ''])
    assert.equal(parseRankLine(tk(bad)), undefined, bad)
})

test('parseVersionLine: the version and both NCCL codes; other tokens are ignored', () => {
  assert.deepEqual(parseVersionLine(tk('nccl-tests version 2.18.3 nccl-headers=23003 nccl-library=22902')), {
    version: '2.18.3',
    ncclHeaders: 23003,
    ncclLibrary: 22902,
  })
  assert.deepEqual(parseVersionLine(tk('nccl-tests version')), {})
  assert.deepEqual(parseVersionLine(tk('nccl-tests version 2.13.8')), { version: '2.13.8' })
  assert.deepEqual(
    parseVersionLine(tk('nccl-tests version 2.17 nccl-headers nccl-library=x foo=1 =5 nccl-headers= cuda=12')),
    { version: '2.17' },
  )
  assert.deepEqual(parseVersionLine(tk('nccl-tests version nccl-headers=5 nccl-library=-1 nccl-library==3')), {
    version: 'nccl-headers=5',
  })
})

test('ncclCodeToVersion: codes from 2.9 on are major*10000+minor*100+patch, before that *1000', () => {
  const cases: [number, string | undefined][] = [
    [22606, '2.26.6'],
    [23003, '2.30.3'],
    [21913, '2.19.13'],
    [20900, '2.9.0'],
    [20899, '20.8.99'],
    [2804, '2.8.4'],
    [2708, '2.7.8'],
    [1, '0.0.1'],
    [0, undefined],
    [-22606, undefined],
    [22606.5, undefined],
    [Number.NaN, undefined],
  ]
  for (const [code, want] of cases) assert.equal(ncclCodeToVersion(code), want, String(code))
})

test('parseFooterValue: the value after the colon and an OK / FAILED status', () => {
  const f = (s: string) => parseFooterValue(tk(s))
  assert.deepEqual(f('Avg bus bandwidth    : 66.2058'), { value: 66.2058 })
  assert.deepEqual(f('Out of bounds values : 0 OK'), { value: 0, status: 'OK' })
  assert.deepEqual(f('Out of bounds values : 4 FAILED'), { value: 4, status: 'FAILED' })
  assert.deepEqual(f('Out of bounds values: 4 failed'), { value: 4 })
  assert.deepEqual(f('a: 1 b: 2'), { value: 1 })
  for (const bad of ['Avg bus bandwidth 66.2', 'Avg bus bandwidth :', 'x: abc OK', '5 OK', ': OK 5', ''])
    assert.equal(f(bad), undefined, bad)
})

test('classifyFailure: a failure is an error, its ".." trace line an info; text trimmed to 300', () => {
  assert.deepEqual(classifyFailure("gpu-1-7: Test CUDA failure common.cu:1304 'busy'  "), {
    key: 'failures',
    severity: 'error',
    code: 'test-failure',
    text: "gpu-1-7: Test CUDA failure common.cu:1304 'busy'",
  })
  assert.deepEqual(classifyFailure(' .. gpu-1-1 pid 3617715: Test failure common.cu:1189'), {
    key: 'failureTraces',
    severity: 'info',
    code: 'failure-trace',
    text: '.. gpu-1-1 pid 3617715: Test failure common.cu:1189',
  })
  assert.equal(classifyFailure('. Test failure').key, 'failures')
  const long = `Test failure ${'x'.repeat(400)}`
  assert.equal(classifyFailure(`  ${long}`).text, long.slice(0, 300))
})

test('fileMeta: no run, one run at the top level, several runs listed up to the kept count', () => {
  const file = { version: '2.13.8', nccl: '2.18.3' }
  const runs = [{ collective: 'all_reduce' }, { collective: 'broadcast' }, { collective: 'all_reduce', ranks: 2 }]
  const names = new Set(['all_reduce', 'broadcast'])
  assert.deepEqual(fileMeta(file, [], 0, new Set(), 4), file)
  assert.deepEqual(fileMeta(file, runs.slice(0, 1), 1, names, 4), { ...file, collective: 'all_reduce' })
  assert.deepEqual(fileMeta(file, runs.slice(0, 2), 2, names, 2), {
    ...file,
    runs: runs.slice(0, 2),
    runCount: 2,
    collectives: ['all_reduce', 'broadcast'],
  })
  assert.deepEqual(fileMeta(file, runs.slice(0, 2), 5, names, 2), {
    ...file,
    runs: runs.slice(0, 2),
    runsNotListed: 3,
    runCount: 5,
    collectives: ['all_reduce', 'broadcast'],
  })
  assert.deepEqual(fileMeta(file, runs, 3, names, 4).runsNotListed, undefined)
  assert.deepEqual(file, { version: '2.13.8', nccl: '2.18.3' }, 'the file facts are not changed')
})

test('ncclLineFacts: WARN lines, NCCL version, a communicator nranks', () => {
  const f = (s: string) => ncclLineFacts(s, tk(s))
  assert.deepEqual(f('gpu-1:61:113 [0] NCCL INFO NCCL version 2.18.3+cuda12.2'), {
    warning: false,
    version: '2.18.3+cuda12.2',
  })
  assert.deepEqual(f('nccl-test-worker-0:61:113 [1] NCCL INFO comm 0xbae1 rank 1 nranks 8 cudaDev 1 busId 901000'), {
    warning: false,
    nranks: 8,
  })
  assert.deepEqual(f('NCCL WARN Cuda failure'), { warning: true })
  assert.deepEqual(f('h:1:2 [0] NCCL WARN NCCL version 2.19.3 nranks 16'), {
    warning: true,
    version: '2.19.3',
    nranks: 16,
  })
  for (const s of [
    'x NCCL INFO NCCL version',
    'x NCCL INFO CUDA version 12.2',
    'version 2.18.3',
    'nranks 8',
    'x NCCL INFO nranks 0',
    'x NCCL INFO nranks -2',
    'x NCCL INFO nranks 2.5',
    'x NCCL INFO nranks x',
    'x NCCL INFO nranks',
    'x NCCL INFO warn: NCCL  WARN',
  ])
    assert.deepEqual(f(s), { warning: false }, s)
})
