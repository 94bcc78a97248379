/**
 * The nccl-tests text parser line by line, on a short piece of a real log (the a100 fixture's
 * command, banner, rank lines, header, first three rows and footer) and on lines written from
 * the printf formats of nccl-tests' src/common.cu (generated, named so): prefixes, comments, NCCL lines,
 * failures, command lines, broken rows and the end-of-file diagnostics, each with its line.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { SIM_MARKER } from '../../src/model/index.ts'
import type { Origin } from '../../src/parsers/types.ts'
import { BASE, FOOT, HEAD, parse, ROWS, summary } from '../nccl-text.ts'

test('a short real run: its 24 rows, its meta, no diagnostics', () => {
  const o = parse(BASE)
  assert.equal(o.rows.length, 3 * 8)
  assert.deepEqual(summary(o), ['17 nccl.all_reduce 8', '18 nccl.all_reduce 8', '19 nccl.all_reduce 8'])
  assert.deepEqual(o.diags, [])
  const m = o.meta
  assert.deepEqual(
    [m.collective, m.collectiveFrom, m.ranks, m.ranksFrom, m.complete, m.tableRows, m.rows],
    ['all_reduce', 'command', 8, 'rank-lines', true, 3, 24],
  )
  assert.deepEqual([m.outOfBounds, m.avgBusBandwidth], [{ count: 0, status: 'OK' }, 66.2058e9])
  for (const k of [
    'srunLabel',
    'tagOutput',
    'traceMode',
    'simulated',
    'runs',
    'program',
    'concluded',
    'nccl',
    'version',
  ])
    assert.equal(k in m, false, k)
})

test('srun labels, mpirun tags and ANSI colours are read past, and only the first two are noted', () => {
  const plain = parse(BASE)
  const label = parse(BASE.map((l) => `3: ${l}`))
  const tag = parse(BASE.map((l) => `[1,0]<stdout>:${l}`))
  const ansi = parse(BASE.map((l) => `\x1b[32m${l}\x1b[0m`))
  const bracket = parse([...HEAD, '[warn] not a tag', ...ROWS, ...FOOT])
  for (const o of [label, tag, ansi]) assert.deepEqual(o.rows, plain.rows)
  assert.deepEqual(
    bracket.rows.map((r) => r.value),
    plain.rows.map((r) => r.value),
  )
  assert.deepEqual(
    [label, tag, ansi, bracket, plain].map((o) => [o.meta.srunLabel, o.meta.tagOutput]),
    [
      [true, undefined],
      [undefined, true],
      [undefined, undefined],
      [undefined, undefined],
      [undefined, undefined],
    ],
  )
})

test('comment lines: the simulator marker, a bare #, banner order, test starting and concluded', () => {
  assert.equal(parse([SIM_MARKER, ...BASE]).meta.simulated, true)
  assert.deepEqual(parse(['#', '#   ', '# ']).diags, ['3 warn no-results'])
  // Generated from the v2.17+ banner formats: two banners back to back are two runs.
  const o = parse([
    '# nccl-tests version 2.17.8 nccl-headers=22703 nccl-library=22703',
    '# Collective test starting: all_gather_perf',
    '# nThread 1 nGpus 1 minBytes 8 maxBytes 64 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0',
    '# nccl-tests version 2.18.3 nccl-headers=21903 nccl-library=21903',
    '# Collective test starting: broadcast_perf',
    '# Collective test concluded: broadcast_perf',
    '# Collective test starting:',
    '# Collective test foo: alltoall_perf',
  ])
  const runs = o.meta.runs as Record<string, any>[]
  assert.deepEqual(
    runs.map((r) => [r.program, r.collective, r.collectiveFrom, r.version, r.params?.maxBytes, r.concluded]),
    [
      ['all_gather_perf', 'all_gather', 'banner', '2.17.8', 64, undefined],
      ['broadcast_perf', 'broadcast', 'banner', '2.18.3', undefined, true],
      [undefined, undefined, undefined, undefined, undefined, undefined],
    ],
  )
  assert.deepEqual([o.meta.version, o.meta.nccl, o.meta.runCount], ['2.17.8', '2.27.3', 3])
  assert.deepEqual(o.meta.collectives, ['all_gather', 'broadcast'])
  // A run's last line is the one that closed it (here the next banner): the diagnostics say so.
  assert.deepEqual(o.diags, ['4 warn incomplete', '7 warn incomplete', '8 warn incomplete'])
  assert.deepEqual(parse(['# Collective test concluded: all_gather_perf']).diags, ['1 warn no-results'])
})

test('the nccl-library code names NCCL only when no NCCL line did, and the first run that has one wins', () => {
  const v = (code: number): string => `# nccl-tests version 2.19.2 nccl-headers=${code} nccl-library=${code}`
  const a = parse(['# nccl-tests version 2.19.2', '# nThread 1', v(22803), '# nThread 1', v(22905)])
  assert.deepEqual([a.meta.version, a.meta.nccl], ['2.19.2', '2.28.3'])
  const b = parse(['NCCL version 2.18.1+cuda12.1', v(22803)])
  assert.equal(b.meta.nccl, '2.18.1+cuda12.1')
})

test('v1.0 lines without #: the banner, the footer; "Out of" that is no footer; nThread alone', () => {
  // Generated from the v1.0.0 printf formats (nccl-tests' src/common.cu).
  const o = parse([
    'nThread 1 nGpus 2 minBytes 8 maxBytes 16 step: 2(factor) warmup iters: 5 iters: 20 validation: 1 ',
    ' Out of memory on rank 0',
    ' Out of bounds values : 3 FAILED',
  ])
  assert.deepEqual([o.meta.params?.maxBytes, o.meta.outOfBounds], [16, { count: 3, status: 'FAILED' }])
  assert.deepEqual(o.diags, ['3 warn out-of-bounds'])
  assert.deepEqual(parse(['nThread', 'Out of']).diags, ['2 warn no-results'])
})

test('footers: a second footer of a kind starts a new run; a footer without a value is ignored', () => {
  const o = parse([
    ...BASE,
    '# Out of bounds values : x',
    '# Avg bus bandwidth    : 1.5 FAILED',
    '# Avg bus bandwidth : 2',
  ])
  const runs = o.meta.runs as Record<string, any>[]
  assert.deepEqual(
    runs.map((r) => [r.avgBusBandwidth, r.avgBusBandwidthStatus, r.outOfBounds, r.complete]),
    [
      [66.2058e9, undefined, { count: 0, status: 'OK' }, true],
      [1.5e9, 'FAILED', undefined, true],
      [2e9, undefined, undefined, true],
    ],
  )
  assert.deepEqual(o.diags, ['25 warn min-bandwidth'])
})

test('NCCL INFO and WARN lines: warnings counted, the version, nranks for the run (the first one) or the next', () => {
  // Generated from NCCL's INFO/WARN line format (host:pid:tid [dev] NCCL INFO ...).
  const info = (n: number): string => `node1:1:1 [0] NCCL INFO comm 0x1 rank 0 nranks ${n} cudaDev 0 - Init COMPLETE`
  const o = parse([
    'node1:1:1 [0] NCCL INFO NCCL version 2.18.3+cuda12.2',
    info(4),
    info(2),
    'node1:1:1 [0] NCCL WARN Cuda failure',
    'node1:1:1 [0] NCCL WARN NET/IB : no device',
    'x NCCL y',
    ...ROWS,
    info(16),
    '# Out of bounds values : 0 OK',
    info(8),
    ...ROWS,
  ])
  assert.deepEqual([o.meta.nccl, o.meta.ncclWarnings], ['2.18.3+cuda12.2', 2])
  const runs = o.meta.runs as Record<string, any>[]
  assert.deepEqual(
    runs.map((r) => [r.ranks, r.ranksFrom]),
    [
      [4, 'nccl-info'],
      [8, 'nccl-info'],
    ],
  )
  assert.deepEqual(parse(['NCCL version', 'NCCL version 2.7.8']).meta.nccl, '2.7.8')
})

test('failure lines: each kind of failure and its trace line, counted and reported at its line', () => {
  // Generated from the nccl-tests failure formats (common.h: "%s: Test CUDA failure %s:%d '%s'").
  const o = parse([
    "node1: Test CUDA failure common.cu:892 'unspecified launch failure'",
    "node1: Test NCCL failure common.cu:1030 'unhandled system error'",
    'node1: Test failure common.cu:400',
    'node1: Test timeout common.cu:500',
    ' .. node1 pid 12: Test failure common.cu:1200',
    'node1: Test passed',
    'node1: TestCUDA failure',
  ])
  assert.deepEqual(o.diags, [
    '1 error test-failure',
    '2 error test-failure',
    '3 error test-failure',
    '4 error test-failure',
    '5 info failure-trace',
    '7 warn no-results',
  ])
  assert.deepEqual([o.meta.failures, o.meta.failureTraces], [4, 1])
})

test('command lines: the collective of the run not yet started, else of the next run; other _perf lines say nothing', () => {
  const named = (lines: string[], origin?: Origin) => {
    const o = parse(lines, origin)
    return [summary(o)[0]?.split(' ')[1], o.meta.collectiveFrom, o.diags.filter((d) => d.endsWith('mismatch'))]
  }
  const nthread = HEAD[1] as string
  const bcast = './build/broadcast_perf -b 8 -e 32'
  assert.deepEqual(named([nthread, bcast, ...ROWS]), ['nccl.broadcast', 'command', []])
  assert.deepEqual(named([nthread, bcast, ...ROWS], { file: 'gather.log' }), ['nccl.broadcast', 'command', []])
  assert.deepEqual(named([nthread, bcast, ...ROWS], { file: 'x.log', collective: 'reduce' }), [
    'nccl.broadcast',
    'command',
    ['2 warn collective-mismatch'],
  ])
  assert.deepEqual(named([nthread, './build/foo_perf', ...ROWS], { file: 'gather.log' }), [
    'nccl.gather',
    'file-name',
    [],
  ])
  // A second command line before the run starts: the text named it already, the first stays.
  const twice = parse([HEAD[0] as string, nthread, bcast, ...ROWS])
  assert.equal(twice.rows[0]?.bench, 'nccl.all_reduce')
  // After the rows the command line belongs to the next run, whatever that run's banner says.
  const next = parse([...BASE, bcast, ...HEAD.slice(1), ...ROWS, ...FOOT])
  assert.deepEqual(
    (next.meta.runs as Record<string, any>[]).map((r) => [r.collective, r.collectiveFrom]),
    [
      ['all_reduce', 'command'],
      ['broadcast', 'command'],
    ],
  )
})

test('lines that only look like banner, footer, NCCL or command lines start no run and set nothing', () => {
  // Generated near-misses of nccl-tests' line shapes: one word off, or a piece missing.
  const near = [
    '# nccl-tests',
    '# nccl-test version 2.17.8',
    '# x test starting: all_reduce_perf',
    '# Collective x starting: all_reduce_perf',
    '# Rank',
    '# Rank x on node1',
    '# Out x bounds values : 0 OK',
    '# x of bounds values : 0 OK',
    '# Out of bounds values : x',
    '# Avg x bandwidth : 1.5',
    '# x bus bandwidth : 1.5',
    '# Avg bus bandwidth : x',
    'Out of memory : 1 GB',
    'x of bounds values : 0 OK',
    'Out x bounds values : 0 OK',
    'NCCL foo 2.1',
    'x version 2.2',
    'NCCL version',
    'NCCL INFO comm 0x1 rank 0 nranks 4 - Init COMPLETE',
    'NCCL WARN Cuda failure',
    'node1:1:1 [0] NCCL INFO Bootstrap : Using eth0',
    'running all_reduce and alltoall, no binary named',
  ]
  for (const l of near) {
    const o = parse([l])
    assert.deepEqual(o.diags, ['1 warn no-results'], l)
    assert.deepEqual(Object.keys(o.meta), [], l)
  }
  const nccl = parse(['node1:1:1 [0] NCCL INFO Bootstrap : Using eth0', ...BASE])
  assert.equal('nccl' in nccl.meta || 'ncclWarnings' in nccl.meta, false)
  // NCCL's own lines carry a host prefix: without " NCCL " inside, nranks is not taken.
  const bare = parse(['NCCL INFO comm 0x1 rank 0 nranks 4 - Init COMPLETE', ...ROWS])
  assert.deepEqual([bare.meta.ranks, bare.meta.ranksFrom], [undefined, undefined])
  // A line starting with a digit that is no row still counts: a failure on host 4gpu-node.
  const host = parse([...HEAD, ...ROWS, "4gpu-node: Test CUDA failure common.cu:892 'x'", ...FOOT])
  assert.deepEqual(host.diags, ['20 error test-failure'])
})
