/**
 * Runs of the nccl-tests text parser: where one run ends and the next begins (rank lines,
 * headers, rows after a footer), rows broken by error lines and settled by what follows,
 * what a file keeps of many runs, and the end-of-file diagnostics with their lines. Text is
 * the a100 fixture's (test/nccl-text.ts) or written from the printf formats of nccl-tests' src/common.cu (generated, named so).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { A100, BASE, FOOT, HEAD, parse, ROWS, summary } from '../nccl-text.ts'

const runsOf = (o: { meta: Record<string, any> }): Record<string, any>[] => o.meta.runs ?? [o.meta]

test('rank lines after a header or rows, and a header after rows, begin a new run', () => {
  const devices = HEAD.slice(3, 12)
  const header = HEAD.slice(12, 16)
  // An aborted run, then a second one that prints its devices and header again.
  const o = parse([...HEAD, ...ROWS, ...devices, ...header, ...ROWS, ...FOOT])
  assert.deepEqual(
    runsOf(o).map((r) => [r.startLine ?? 0, r.ranks, r.tableRows, r.complete, r.collective]),
    [
      [0, 8, 3, false, 'all_reduce'],
      [0, 8, 3, true, 'all_reduce'],
    ],
  )
  assert.deepEqual(o.diags, ['20 warn incomplete'])
  // A header line right after rows begins a run too; rank lines before any header do not.
  const h = parse([...HEAD, ...ROWS, ...header.slice(1), ...ROWS, ...FOOT])
  assert.equal(runsOf(h).length, 2)
  // Rank lines after a header, after headerless rows, after a footer: each a new run.
  const rank = HEAD[4] as string
  assert.deepEqual(
    [
      [...HEAD, rank],
      [...ROWS, rank],
      [...FOOT.slice(0, 1), rank],
      [HEAD[1] as string, rank],
    ].map((l) => runsOf(parse(l)).length),
    [2, 2, 2, 1],
  )
  // "Using devices" after the header closes the run; before it, it does not.
  const using = HEAD[3] as string
  assert.equal(runsOf(parse([...HEAD, using, ...ROWS, ...FOOT])).length, 2)
  assert.equal(runsOf(parse([...HEAD.slice(0, 12), using, ...HEAD.slice(12), ...ROWS, ...FOOT])).length, 1)
})

test('rows after the footer are a new run, its collective and ranks from the rows', () => {
  // The fixture's 1, 2 and 4 GiB rows (lines 44-46): busbw/algbw = 2(n-1)/n tells n = 8.
  const o = parse([...BASE, ...A100.slice(43, 46)])
  assert.deepEqual(
    runsOf(o).map((r) => [r.collective, r.collectiveFrom, r.ranks, r.ranksFrom, r.complete]),
    [
      ['all_reduce', 'command', 8, 'rank-lines', true],
      ['all_reduce', 'rows', 8, 'inferred', false],
    ],
  )
  assert.deepEqual(o.diags, ['23 info ranks-inferred', '25 warn incomplete'])
  assert.deepEqual(o.meta.collectives, ['all_reduce'])
})

test('an error glued to a row: settled by a blank line, a # line, another row or the end of the file', () => {
  // Generated: the 16 B row of the fixture with a failure printed after its first block.
  const row = ROWS[1] as string
  const glued = `${row.slice(0, 85)} node1: Test NCCL failure common.cu:1030 'remote process exited'`
  const cells = (lines: string[]) => {
    const o = parse([...HEAD, ROWS[0] as string, ...lines, ...FOOT])
    return [o.rows.filter((r) => r.source.line === 18).map((r) => `${r.placement} ${r.metric}`).length, o.diags]
  }
  for (const after of [[''], ['#'], [ROWS[2] as string], ['   ']])
    assert.deepEqual(cells([glued, ...after]), [4, ['18 error row-error']], JSON.stringify(after))
  const end = parse([...HEAD, ROWS[0] as string, glued])
  assert.deepEqual(
    [end.rows.filter((r) => r.source.line === 18).length, end.diags],
    [4, ['18 error row-error', '18 warn incomplete']],
  )
  // Its cells on the next line: the row is whole again, with a note on the first line.
  const whole = parse([...HEAD, ROWS[0] as string, glued, row.slice(85), ...FOOT])
  assert.deepEqual(
    [whole.rows.filter((r) => r.source.line === 18).length, whole.diags, whole.rows.length],
    [8, ['18 error row-error'], 16],
  )
  // Text glued after both blocks is no failure to wait on: the row is read at once.
  const late = parse([...HEAD, ROWS[0] as string, `${row} junk`, ...FOOT])
  assert.deepEqual([late.rows.length, late.diags], [16, ['18 warn bad-row']])
})

test('-c 0: the first N/A cell’s line and the count; none, none said', () => {
  const na = ROWS.map((r) => r.replace(/ 0$/, 'N/A'))
  const o = parse([...HEAD, ...na, ...FOOT])
  assert.deepEqual(o.diags, ['17 info na-cell'])
  assert.equal(o.rows.length, 3 * 7)
  const late = parse([...HEAD, ROWS[0] as string, ...na.slice(1), ...FOOT])
  assert.deepEqual(late.diags, ['18 info na-cell'])
})

test('no results: said once at the last line; a file with one run holds no run list', () => {
  assert.deepEqual(parse(['hello', '', 'world', '']).diags, ['4 warn no-results'])
  assert.deepEqual(parse([]).diags, ['0 warn no-results'])
  const one = parse(BASE)
  assert.deepEqual([one.meta.runs, one.meta.runCount, one.meta.collectives], [undefined, undefined, undefined])
})

test('a thousand-run log keeps the meta of the first 100 runs and counts the rest', () => {
  const banner = HEAD[1] as string
  const o = parse(Array(101).fill(banner))
  assert.deepEqual([o.meta.runs.length, o.meta.runsNotListed, o.meta.runCount], [100, 1, 101])
  assert.deepEqual(o.meta.collectives, [])
  const exact = parse(Array(100).fill(banner))
  assert.deepEqual([exact.meta.runs.length, exact.meta.runsNotListed], [100, undefined])
})

test('the file name names the collective only for runs that have rows; the option too, without a note', () => {
  const bare = [...HEAD.slice(1), ...ROWS, ...FOOT]
  const file = parse(bare, { file: 'raw/nccl_alltoall.log' })
  assert.deepEqual(summary(file)[0], '16 nccl.alltoall 8')
  assert.deepEqual(file.diags, ['1 info collective-from-file-name'])
  assert.deepEqual(parse([HEAD[1] as string], { file: 'nccl_alltoall.log' }).diags, ['1 warn incomplete'])
  const opt = parse(bare, { file: 'x.log', collective: 'broadcast' })
  assert.deepEqual([summary(opt)[0], opt.diags, opt.meta.collectiveFrom], ['16 nccl.broadcast 8', [], 'option'])
  // A banner naming another collective wins, with a warning at its line.
  const named = parse(['# Collective test starting: all_reduce_perf', ...bare], { file: 'x', collective: 'reduce' })
  assert.deepEqual([summary(named)[0], named.diags], ['17 nccl.all_reduce 8', ['1 warn collective-mismatch']])
  const same = parse(['# Collective test starting: reduce_perf', ...bare], { file: 'x', collective: 'reduce' })
  assert.deepEqual(same.diags, [])
})

test('trace mode is said once, at the first blank-block row; trial and file go into every row', () => {
  // Generated: each row's out-of-place block blanked (32 spaces), as nccl-tests' trace mode prints it (src/util.cu).
  const trace = ROWS.map((r) => `${r.slice(0, 53)}${' '.repeat(32)}${r.slice(85)}`)
  const o = parse([...HEAD, ...trace, ...FOOT], { file: 'f.log', trial: 4 })
  assert.deepEqual(o.diags, ['17 info trace-mode'])
  assert.equal(o.meta.traceMode, true)
  assert.deepEqual([...new Set(o.rows.map((r) => `${r.placement} ${r.trial} ${r.source.file}`))], ['in-place 4 f.log'])
  assert.equal(o.rows.length, 3 * 4)
  assert.ok(parse(BASE, { file: 'x', trial: 2.5 }).rows.every((r) => r.trial === 0))
})

test('a run whose rows fit no one collective is listed as unknown among the file’s collectives', () => {
  // Generated: root-less non-reduction rows with total-sized buffers and -c 0 fit all_gather and alltoall.
  const amb = `        1024            64     float    none      -1    20.00   51.20   38.40    N/A    20.00   51.20   38.40    N/A`
  const o = parse([...BASE, amb])
  assert.deepEqual(o.meta.collectives, ['all_reduce', 'unknown'])
  assert.equal(runsOf(o)[1]?.collective, 'unknown')
  // A run that says nothing of its collective, ranks or parameters has no such keys.
  const bare = runsOf(parse(['# nccl-tests version 2.17.8']))[0] ?? {}
  for (const k of ['collective', 'collectiveFrom', 'ranks', 'ranksFrom', 'params', 'program'])
    assert.equal(k in bare, false, k)
})

test('a row cut short with no error text stays partial; the rest of its cells on the next line are not joined', () => {
  const row = ROWS[1] as string
  const o = parse([...HEAD, ROWS[0] as string, row.slice(0, 85), row.slice(85), ...FOOT])
  assert.deepEqual(o.diags, ['18 warn partial-row'])
  assert.equal(o.rows.filter((r) => r.source.line === 18).length, 4)
  // An error glued after both blocks: one row-error, not also a test failure.
  const late = parse([...HEAD, `${row} node1: Test CUDA failure common.cu:892 'x'`, ...FOOT])
  assert.deepEqual(late.diags, ['17 error row-error'])
})

test('headerless rows: a row cut short is read with the columns of the exact rows before it', () => {
  // Generated v2.0 rows (no root column, error deviations; nccl-tests' src/common.cu v2.0), the third cut after busbw.
  const v20 = (size: number, count: number): string =>
    `${String(size).padStart(12)}  ${String(count).padStart(12)}   float     sum    40.12    0.00    0.00  1e-07    38.85    0.00    0.00  3e-07`
  const cut = v20(32, 8).slice(0, 70)
  const o = parse([v20(8, 2), v20(16, 4), cut])
  assert.deepEqual(
    o.rows.filter((r) => r.source.line === 3).map((r) => `${r.placement} ${r.metric} ${r.value}`),
    ['out-of-place time 0.00004012', 'out-of-place algbw 0', 'out-of-place busbw 0'],
  )
})
