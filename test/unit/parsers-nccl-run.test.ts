/**
 * One nccl-tests run as the text parser keeps it (src/parsers/nccl-tests/_nccl-run.ts, _nccl-run-meta.ts,
 * _nccl-text-rows.ts): ranks from split groups, rows held until the collective is known (and
 * given up on at 20,000), requested sizes, wrong counts and deviations, bad cells, the
 * end-of-run diagnostics, the `#` lines of the table's surroundings and the run's meta. Lines
 * are the a100 fixture's (test/nccl-text.ts) or written from the printf formats of nccl-tests' src/common.cu (generated, named so).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Row } from '../../src/model/index.ts'
import { ncclTestsText } from '../../src/parsers/nccl-tests/nccl-tests-text.ts'
import { BASE, FOOT, HEAD, parse, ROWS } from '../nccl-text.ts'

const NTHREAD = HEAD[1] as string
const TABLE = HEAD.slice(12, 16)
/** A generated rank line in the v2.14.1+ format of nccl-tests' src/common.cu. */
const rank = (r: number, g: number, host = 'node1'): string =>
  `#  Rank ${String(r).padStart(2)} Group ${String(g).padStart(2)} Pid   1234 on ${host.padStart(10)} device ${String(r).padStart(2)} [0000:07:00] NVIDIA H100`

test('ranks: the group of rank 0 when NCCL_TESTS_SPLIT made several; hosts and groups in the meta', () => {
  const split = [rank(2, 1, 'b'), rank(0, 0), rank(1, 1, 'b'), rank(3, 1, 'b'), rank(1, 0)]
  const o = parse([NTHREAD, '# Using devices', ...split, ...TABLE])
  assert.deepEqual([o.meta.ranks, o.meta.ranksFrom, o.meta.groups, o.meta.hosts], [2, 'rank-lines', 2, ['b', 'node1']])
  const noZero = parse([NTHREAD, rank(3, 1), rank(4, 1), rank(5, 2), ...TABLE])
  assert.deepEqual([noZero.meta.ranks, noZero.meta.groups], [2, 2])
  const one = parse([NTHREAD, '#  Rank  0 Pid 1 device 0 [0x07] GPU', '#  Rank  1 Pid 1 device 1 [0x0a] GPU', ...TABLE])
  assert.deepEqual([one.meta.ranks, one.meta.groups, one.meta.hosts], [2, undefined, []])
  const cut = parse([NTHREAD, rank(0, 0), `${rank(1, 0)} ...`, ...TABLE])
  assert.deepEqual(cut.diags, ['7 warn incomplete', '1 warn rank-lines-truncated'])
})

test('rows wait for the collective; 20,000 undecided rows go out unknown before the end', () => {
  // Generated: root-less non-reduction rows with total-sized buffers and -c 0 fit all_gather and alltoall.
  const row = (s: number): string =>
    `${String(s).padStart(12)}  ${String(s / 16).padStart(12)}     float    none      -1    20.00   51.20   38.40    N/A    20.00   51.20   38.40    N/A`
  const rows: Row[] = []
  const lp = ncclTestsText.open({ file: 'x.txt' }, (r) => rows.push(r))
  for (let i = 1; i <= 19_999; i++) lp.line(row(1024), i)
  assert.equal(rows.length, 0)
  lp.line(row(1024), 20_000)
  assert.equal(rows.length, 20_000 * 6)
  assert.equal(rows[0]?.bench, 'nccl.unknown')
  lp.line(row(2048), 20_001)
  assert.equal(rows.length, 20_001 * 6)
  const end = lp.end()
  assert.deepEqual(
    end.diagnostics.map((d) => `${d.line} ${d.code}`),
    ['1 collective-unknown', '1 ranks-inferred', '20001 incomplete', '1 na-cell'],
  )
})

test('requested sizes follow the banner until a row does not fit; 0 B rows without a banner are noted', () => {
  // Generated all_gather rows on 12 ranks (nccl-tests prints count × type size: the size rounds down to 12 elements).
  const ag = (size: number, count: number): string =>
    `${String(size).padStart(12)}  ${String(count).padStart(12)}     float    none      -1    20.00    0.00    0.00      0    20.00    0.00    0.00      0`
  const banner = '# nThread 1 nGpus 12 minBytes 8 maxBytes 64 step: 2(factor) warmup iters: 5 iters: 20 validation: 1'
  const table = [
    '# Collective test starting: all_gather_perf',
    banner,
    ...Array.from({ length: 12 }, (_, r) => rank(r, 0)),
  ]
  const lines = [...table, ...TABLE, ag(0, 0), ag(0, 0), ag(0, 0), ag(48, 12), ag(48, 12), ag(0, 0), ...FOOT]
  const o = parse(lines)
  const req = (x: { rows: Row[] }) =>
    x.rows.filter((r) => r.metric === 'time' && r.placement === 'in-place').map((r) => r.requestedBytes)
  assert.deepEqual(req(o), [8, 16, 32, 64, undefined, undefined])
  assert.deepEqual(o.diags, ['1 info size-printed'])
  const bare = parse(lines.filter((l) => l !== banner))
  assert.deepEqual(req(bare), Array(6).fill(undefined))
  assert.deepEqual(bare.diags, ['1 info size-printed'])
  assert.match(bare.messages[0] ?? '', /^4 table rows print size 0 B/)
  assert.match(o.messages[0] ?? '', /^1 table rows print size 0 B/)
  // After a row that does not fit, no later row is given a requested size, even one that would fit.
  const off = parse([...table, ...TABLE, ag(0, 0), ag(48, 12), ag(0, 0), ...FOOT])
  assert.deepEqual(req(off), [8, undefined, undefined])
})

test('#wrong counts become rows and add up; error-column deviations keep the largest magnitude', () => {
  const wrong = ROWS.map((r, i) => r.replace(/ 0( .*) 0$/, ` ${i + 1}$1 ${2 * i}`))
  const o = parse([...HEAD, ...wrong, ...FOOT])
  assert.deepEqual(
    o.rows.filter((r) => r.metric === 'wrong').map((r) => r.value),
    [1, 0, 2, 2, 3, 4],
  )
  assert.equal(o.meta.wrongElements, 12)
  assert.equal('wrongElements' in parse(BASE).meta, false)
  // Generated v2.0 rows with the error column (nccl-tests' src/common.cu v2.0): deviations, not counts.
  const head =
    '#       size         count    type   redop     time   algbw   busbw  error     time   algbw   busbw  error'
  const dev = (a: string, b: string): string =>
    `           8             2   float     sum    40.12    0.00    0.00  ${a}    38.85    0.00    0.00  ${b}`
  const d = parse([
    NTHREAD,
    rank(0, 0),
    rank(1, 0),
    head,
    dev('1e-07', '3e-07'),
    dev('-5e-07', '2e-07'),
    dev('0e+00', '4e-07'),
    ...FOOT,
  ])
  assert.deepEqual([d.meta.maxDeviation, d.rows.filter((r) => r.metric === 'wrong').length], [5e-7, 0])
  assert.equal('maxDeviation' in parse(BASE).meta, false)
})

test('a cell that is no number is one warning and no row; N/A cells are counted, not stored', () => {
  const bad = (ROWS[0] as string).replace('40.12', '40.1x')
  const o = parse([...HEAD, bad, ...ROWS.slice(1), ...FOOT])
  assert.deepEqual(o.diags, ['17 warn bad-row'])
  // A number past the double range is cell-shaped but not usable: that cell only.
  const huge = parse([...HEAD, (ROWS[0] as string).replace('40.12', '1e999'), ...FOOT])
  assert.deepEqual(huge.diags, ['17 warn bad-cell'])
  assert.deepEqual(
    huge.rows.filter((r) => r.source.line === 17).map((r) => `${r.placement} ${r.metric}`),
    [
      'out-of-place algbw',
      'out-of-place busbw',
      'out-of-place wrong',
      'in-place time',
      'in-place algbw',
      'in-place busbw',
      'in-place wrong',
    ],
  )
  const na = (ROWS[0] as string).replace('40.12', '  N/A')
  const n = parse([...HEAD, na, ...ROWS.slice(1), ...FOOT])
  assert.equal(n.rows.filter((r) => r.source.line === 17).length, 7)
  assert.deepEqual(n.diags, ['17 info na-cell'])
})

test('end of a run: incomplete with or without rows, out-of-bounds and min-bandwidth failures, at their lines', () => {
  assert.deepEqual(parse([...HEAD, ...ROWS]).diags, ['19 warn incomplete'])
  assert.deepEqual(parse([...HEAD, ...ROWS, '', 'x']).diags, ['21 warn incomplete'])
  assert.deepEqual(parse(HEAD).diags, ['16 warn incomplete'])
  assert.deepEqual(parse([...HEAD.slice(3), ...ROWS, ...FOOT]).diags, [])
  const failed = parse([...HEAD, ...ROWS, '# Out of bounds values : 7 FAILED', '# Avg bus bandwidth    : 0.5 FAILED'])
  assert.deepEqual(failed.diags, ['21 warn out-of-bounds', '21 warn min-bandwidth'])
  assert.deepEqual(
    [failed.meta.outOfBounds, failed.meta.avgBusBandwidth, failed.meta.avgBusBandwidthStatus],
    [{ count: 7, status: 'FAILED' }, 0.5e9, 'FAILED'],
  )
  const plain = parse([...HEAD, ...ROWS, '# Out of bounds values : 7', '# Avg bus bandwidth    : 0.5'])
  assert.deepEqual(
    [plain.meta.outOfBounds, plain.meta.avgBusBandwidthStatus, plain.diags],
    [{ count: 7 }, undefined, []],
  )
})

test('the table header: columns, cputime, bytes in ms, the v1.0 units line; lines that only look like one', () => {
  const cols = (lines: string[]) => {
    const o = parse([NTHREAD, rank(0, 0), ...lines, ...ROWS.slice(0, 1)])
    return [o.meta.columns?.timeLabel, o.meta.columns?.timeUnit, o.rows[0]?.value]
  }
  const size = TABLE[2] as string
  assert.deepEqual(cols([size]), ['time', 'us', 40.12e-6])
  assert.deepEqual(cols([size.replace(/ time /g, ' cputime ')]), ['cputime', 'us', 40.12e-6])
  assert.deepEqual(cols([size.replace('size', 'bytes')]), ['time', 'ms', 40.12e-3])
  assert.deepEqual(cols([size, TABLE[3] as string]), ['time', 'us', 40.12e-6])
  assert.deepEqual(cols([size, (TABLE[3] as string).replace(/\(us\)/g, '(ms)')]), ['time', 'ms', 40.12e-3])
  assert.deepEqual(cols(['#  size of the buffers in bytes']), [undefined, undefined, 40.12e-6])
  assert.deepEqual(cols(['#  bytes sent']), [undefined, undefined, 40.12e-6])
  assert.deepEqual(cols(['#  (B) (us)']), [undefined, undefined, 40.12e-6])
  assert.deepEqual(cols(['#  (B) (ms)']), [undefined, undefined, 40.12e-3])
  assert.equal(parse(['#  (B) (ms)', ...ROWS.slice(0, 1)]).rows[0]?.value, 40.12e-6)
})

test('the lines around the table: modes, reduced maxBytes, JSON output, memory, errors, compiled-with', () => {
  const o = parse([
    '# Writing JSON output to /tmp/out.json',
    NTHREAD,
    '# Blocking Enabled: wait for completion and barrier after each collective ',
    '# Parallel Init Enabled: threads call into NcclInitRank concurrently ',
    '# Per-Iteration Report: CUDA event timing',
    '# Reducing maxBytes to 1073741824 due to memory limitation',
    '# NCCL Tests compiled with NCCL 2.18',
    ...HEAD.slice(2),
    ...ROWS,
    ...FOOT,
    '# GPU memory usage     : 1.5 GiB: peak',
    '# error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)',
    '# error:',
  ])
  const m = o.meta
  assert.deepEqual(
    [m.jsonOutput, m.modes, m.reducedMaxBytes, m.ncclCompiled, m.gpuMemoryUsage],
    [
      '/tmp/out.json',
      [
        'Blocking Enabled: wait for completion and barrier after each collective',
        'Parallel Init Enabled: threads call into NcclInitRank concurrently',
        'Per-Iteration Report: CUDA event timing',
      ],
      1073741824,
      '2.18',
      '1.5 GiB: peak',
    ],
  )
  assert.deepEqual(o.diags, ['29 error nccl-error'])
  const lone = parse([
    '# Blocking Enabled: x',
    '# Reducing maxBytes to 8',
    '# GPU memory usage : 1',
    '# NCCL Tests compiled with NCCL 2.1',
  ])
  assert.deepEqual(
    [lone.meta.modes, lone.meta.reducedMaxBytes, lone.meta.ncclCompiled],
    [undefined, undefined, undefined],
  )
})

test('row notes: failures glued to a row, cut rows, per-iteration columns once per run', () => {
  const row = ROWS[0] as string
  const notes = (tail: string) => parse([...HEAD, `${row.slice(0, 85)} ${tail}`, ...FOOT]).diags
  for (const t of ['FAIL', 'Error', 'TIMEOUT', 'Abort']) assert.deepEqual(notes(`${t} x`), ['17 error row-error'], t)
  assert.deepEqual(notes('xyz'), ['17 warn bad-row'])
  assert.deepEqual(notes(''), ['17 warn partial-row'])
  // Generated v2.19.2+ -I rows (nccl-tests' src/util.cu): the note once per run, again in the next run.
  const head =
    '#       size         count      type   redop    root     time   algbw   busbw  #wrong    i_min    i_max    i_p99   i_cv%     time   algbw   busbw  #wrong    i_min    i_max    i_p99   i_cv%'
  const r =
    '        1024           256     float     sum      -1    10.50    0.10    0.10       0    10.10    11.20    11.10    2.50    10.60    0.10    0.10       0    10.20    11.30    11.20    2.40'
  const iter = [NTHREAD, rank(0, 0), rank(1, 0), head, r, r, ...FOOT]
  assert.deepEqual(parse([...iter, ...iter]).diags, ['5 info per-iteration-columns', '14 info per-iteration-columns'])
  assert.deepEqual(parse(iter).meta.perIterColumns, true)
})

test('a run has started once it has devices, a header, rows or a footer: a banner line then begins the next', () => {
  const version = '# nccl-tests version 2.17.8 nccl-headers=22703 nccl-library=22703'
  const starting = '# Collective test starting: all_gather_perf'
  for (const mid of [rank(0, 0), TABLE[2] as string, ROWS[0] as string, FOOT[0] as string])
    assert.equal(parse([version, mid, starting]).meta.runs?.length, 2, mid)
  assert.equal(parse([version, starting]).meta.runs, undefined)
  // A command line after the rank lines names the next run, not this one.
  const o = parse([NTHREAD, rank(0, 0), rank(1, 0), './build/broadcast_perf -b 8', ...ROWS])
  assert.notEqual(o.rows[0]?.bench, 'nccl.broadcast')
  // A run begun by a rank line alone (no banner, no rows) is not called incomplete.
  assert.deepEqual(parse([rank(0, 0)]).diags, [])
})

test('rows with no cells (an error right after the root) count but give nothing; ranks not inferred are not said to be', () => {
  const o = parse([...HEAD, `${(ROWS[0] as string).slice(0, 53)} node1: Test CUDA failure common.cu:892 'x'`, ...FOOT])
  assert.deepEqual([o.rows.length, o.meta.tableRows, o.diags], [0, 1, ['17 error row-error']])
  // 8-32 B rows print 0.00 GB/s: no rank count can be inferred, and none is claimed; their
  // #wrong cells, with no header to say so, are counts all the same.
  const bare = parse(ROWS)
  assert.deepEqual(bare.diags, ['3 warn incomplete'])
  assert.equal(bare.rows.filter((r) => r.metric === 'wrong').length, 6)
  // A headerless row with no cells: its run's collective is unknown, and nothing fails.
  const lone = parse([`${(ROWS[0] as string).slice(0, 53)} node1: Test CUDA failure common.cu:892 'x'`])
  assert.deepEqual([lone.diags, lone.meta.collective], [['1 error row-error', '1 warn incomplete'], 'unknown'])
  // A run with a footer and no rows is complete, not stopped early.
  assert.deepEqual(parse([NTHREAD, '# Out of bounds values : 0 OK']).diags, [])
  // A version line alone (banner order 0) is a run that stopped before its first row.
  assert.deepEqual(parse(['# nccl-tests version 2.17.8']).diags, ['1 warn incomplete'])
})

test('an in-place #wrong of N/A beside a counted out-of-place one tells alltoall from all_gather', () => {
  // Generated: root-less non-reduction rows with total-sized buffers (nccl-tests' src/*.cu getCollByteCount).
  const a2a = [1024, 2048].map(
    (s) =>
      `${String(s).padStart(12)}  ${String(s / 16).padStart(12)}     float    none      -1    20.00   51.20   38.40      0    20.00   51.20   38.40    N/A`,
  )
  const o = parse(a2a)
  assert.deepEqual([o.meta.collective, o.meta.collectiveFrom, o.meta.ranks], ['alltoall', 'rows', 4])
})
