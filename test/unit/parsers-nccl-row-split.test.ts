/**
 * How one nccl-tests row is split into preamble and placement blocks (src/parsers/nccl-tests/_nccl-row.ts),
 * row by row: the layout guessed from a headerless row or read from the header, rows cut short,
 * errors glued on, -S timestamps, trace-mode rows and rows continued on the next line. Rows are
 * written in the column formats of nccl-tests' common.cu and util.cu.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Layout, ParsedRow } from '../../src/parsers/nccl-tests/_nccl-row.ts'
import {
  continueRow,
  guessLayout,
  layoutFromHeader,
  markTraceRow,
  parseRow,
} from '../../src/parsers/nccl-tests/_nccl-row.ts'

const tok = (s: string): string[] => s.trim().split(/\s+/)
const L = (hasRedop: boolean, hasRoot: boolean, wrongKind: Layout['wrongKind'], perIter = false): Layout => ({
  hasRedop,
  hasRoot,
  wrongKind,
  perIter,
})
const B1 = '20.26    0.00    0.00      0'
const B2 = '17.74    0.00    0.00      0'
const blk = (s: string) => {
  const [time, algbw, busbw, wrong] = tok(s)
  return { time, algbw, busbw, wrong }
}
const ROW_213 = `8             2     float     sum      -1    ${B1}    ${B2}`

test('parseRow: a v2.13 row with redop and root, both blocks, exact', () => {
  const r = parseRow(tok(ROW_213), undefined) as ParsedRow
  assert.deepEqual(r, {
    size: 8,
    count: 2,
    type: 'float',
    redop: 'sum',
    root: -1,
    blocks: [blk(B1), blk(B2)],
    partial: false,
    layout: L(true, true, 'count'),
    exact: true,
  })
})

test('parseRow: rows without redop and root (v2.0 all_gather), with the header’s layout or guessed', () => {
  const line = '0             0   float    57.30    0.00    0.00  0e+00    57.09    0.00    0.00  0e+00'
  const want = {
    size: 0,
    count: 0,
    type: 'float',
    blocks: [blk('57.30    0.00    0.00  0e+00'), blk('57.09    0.00    0.00  0e+00')],
    partial: false,
    exact: true,
  }
  assert.deepEqual(parseRow(tok(line), undefined), { ...want, layout: L(false, false, 'deviation') })
  const header = L(false, false, 'deviation')
  assert.deepEqual(parseRow(tok(line), header), { ...want, layout: header })
  // A broadcast row: no redop column, a root column (the header says so).
  const bc = parseRow(tok(`1024   256   float   3   ${B1}   ${B2}`), L(false, true, 'count')) as ParsedRow
  assert.equal(bc.root, 3)
  assert.equal(bc.redop, undefined)
  assert.equal(bc.exact, true)
})

test('parseRow: what is not a row', () => {
  const not = (s: string, known?: Layout): void => assert.equal(parseRow(tok(s), known), undefined, s)
  not('8 2 float') // three tokens
  not(`-8 2 float sum -1 ${B1} ${B2}`) // size not an unsigned integer
  not(`8 2.5 float sum -1 ${B1} ${B2}`) // count not an integer
  not(`8 2 3.5 sum -1 ${B1} ${B2}`) // no dtype word
  not(`8 2 sum sum -1 ${B1} ${B2}`) // a redop where the dtype goes
  // The header says there is a redop / root column and the cell is not one.
  not(`8 2 float total -1 ${B1} ${B2}`, L(true, true, 'count'))
  not('8 2 float sum', L(true, true, 'count'))
  not(`8 2 float sum x1 ${B1} ${B2}`, L(true, true, 'count'))
  not('8 2 float', L(true, false, 'count'))
  // Four tokens are enough to be a row (cut short after one cell).
  const four = parseRow(tok('8 2 float 20.26'), L(false, false, 'count')) as ParsedRow
  assert.deepEqual([four.blocks.length, four.partial, four.exact], [0, true, false])
})

test('parseRow: a row cut short is partial when it stops inside a block, not at a block’s end', () => {
  const known = L(true, true, 'count')
  const cut = (s: string) => {
    const r = parseRow(tok(s), known) as ParsedRow
    return [r.blocks.length, r.partial, r.exact, r.glued]
  }
  assert.deepEqual(cut('8 2 float sum -1 20.26 0.00'), [0, true, false, undefined])
  assert.deepEqual(cut(`8 2 float sum -1 ${B1} 17.74`), [1, true, false, undefined])
  assert.deepEqual(cut(`8 2 float sum -1 ${B1} 17.74 0.00 0.00`), [1, true, false, undefined])
  assert.deepEqual(cut(`8 2 float sum -1 ${B1}`), [1, false, false, undefined])
  assert.deepEqual(cut('8 2 float sum -1'), [0, false, false, undefined])
})

test('parseRow: an error glued on after a block, or more cells than two blocks', () => {
  const known = L(true, true, 'count')
  const r = parseRow(tok(`8 2 float sum -1 ${B1} 17.74 NCCL WARN Cuda failure`), known) as ParsedRow
  assert.deepEqual([r.blocks.length, r.partial, r.glued, r.exact], [1, false, 'NCCL WARN Cuda failure', false])
  const first = parseRow(tok('8 2 float sum -1 20.26 host1:123:456 [0] oops'), known) as ParsedRow
  assert.deepEqual([first.blocks.length, first.glued], [0, 'host1:123:456 [0] oops'])
  const after = parseRow(tok(`${ROW_213} mlx5_0:1 failed`), known) as ParsedRow
  assert.deepEqual([after.blocks.length, after.glued, after.exact], [2, 'mlx5_0:1 failed', false])
  // A third block's worth of cells is not read as a block.
  const three = parseRow(tok(`${ROW_213} 1.00 2.00 3.00 0`), known) as ParsedRow
  assert.deepEqual([three.blocks, three.glued, three.exact], [[blk(B1), blk(B2)], '1.00 2.00 3.00 0', false])
})

test('parseRow: -S timestamps after the row are no glued text, and only date + time keeps it exact', () => {
  const known = L(true, true, 'count')
  const at = (tail: string) => {
    const r = parseRow(tok(`${ROW_213} ${tail}`), known) as ParsedRow
    return [r.blocks.length, r.glued, r.exact]
  }
  assert.deepEqual(at('2024-05-01 12:00:01'), [2, undefined, true])
  assert.deepEqual(at('2024-05-01'), [2, undefined, false])
  assert.deepEqual(at('2024-05-01 12:00:01 x'), [2, undefined, false])
  // Tokens that only look like a date are glued text: '-' at 4 and 7 of 10 characters.
  for (const tail of ['NCCL_IB-ER', 'node-gpu07', '2024-05-01T12:00:01', 'ib0-port-1', 'abcdefg-ij'])
    assert.deepEqual(at(tail), [2, tail, false], tail)
  // One block, then the timestamp (a row cut short by -S printing): not glued text.
  const one = parseRow(tok(`8 2 float sum -1 ${B1} 2024-05-01 12:00:01`), known) as ParsedRow
  assert.deepEqual([one.blocks.length, one.glued, one.partial], [1, undefined, false])
})

test('parseRow: -I rows read eight cells per block, the block keeps the first four', () => {
  const I = L(true, true, 'count', true)
  const b1 = `${B1}    10.10    11.20    11.10    2.50`
  const b2 = `${B2}    10.20    11.30    11.20    2.40`
  const r = parseRow(tok(`8 2 float sum -1 ${b1} ${b2}`), I) as ParsedRow
  assert.deepEqual(r.blocks, [blk(B1), blk(B2)])
  assert.equal(r.exact, true)
  const cut = parseRow(tok(`8 2 float sum -1 ${b1} ${B2}`), I) as ParsedRow
  assert.deepEqual([cut.blocks.length, cut.partial, cut.exact], [1, true, false])
})

test('guessLayout: redop, root, per-iteration cells and the wrong column from a headerless row', () => {
  const g = (s: string) => guessLayout(tok(s))
  assert.deepEqual(g(ROW_213), L(true, true, 'count'))
  // No root column: eight cells after the redop (v2.13+ rows of a reduce_scatter table print root -1).
  assert.deepEqual(g(`8 2 float sum ${B1} ${B2}`), L(true, false, 'count'))
  assert.deepEqual(g(`8 2 float ${B1} ${B2}`), L(false, false, 'count'))
  // A root and no redop column (v2.0 broadcast): nine cells.
  assert.deepEqual(g(`8 2 float 0 ${B1} ${B2}`), L(false, true, 'count'))
  // Nine cells whose first is no integer: no root (and the wrong cell is then read one early).
  assert.deepEqual(g(`8 2 float 1.5 ${B1} ${B2}`), L(false, false, 'deviation'))
  // -I: 16 or 17 cells.
  const i1 = `${B1} 10.10 11.20 11.10 2.50`
  const i2 = `${B2} 10.20 11.30 11.20 2.40`
  assert.deepEqual(g(`8 2 float sum -1 ${i1} ${i2}`), L(true, true, 'count', true))
  assert.deepEqual(g(`8 2 float sum ${i1} ${i2}`), L(true, false, 'count', true))
  assert.deepEqual(g(`8 2 float 2 ${i1} ${i2}`), L(false, true, 'count', true))
  // Up to v2.17.2 a time ≥ 10000 µs prints without decimals (%7.0f): eight or sixteen cells
  // after the redop are still no root column, even when the first is an integer.
  assert.deepEqual(
    g('2147483648 536870912 float sum 16288 131.84 230.72 2e-07 16294 131.79 230.64 2e-07'),
    L(true, false, 'deviation'),
  )
  assert.deepEqual(
    g(
      `2147483648 536870912 float sum 16288 131.84 230.72 0 16100 16400 16390 1.2 16294 131.79 230.64 0 ${'1 '.repeat(4)}`,
    ),
    L(true, false, 'count', true),
  )
  // Any other count (a row cut short): a root only after a redop.
  assert.deepEqual(g(`8 2 float sum -1 ${B1}`), L(true, true, 'count'))
  assert.deepEqual(g(`8 2 float 0 ${B1}`), L(false, false, 'deviation'))
  assert.deepEqual(g(`8 2 float sum 20.26 0.00 0.00 0 17.74`), L(true, false, 'count'))
  // The wrong cell: a count, a deviation, N/A or missing.
  assert.deepEqual(g('8 2 float sum -1 20.26 0.00 0.00 1e-07 17.74 0.00 0.00 1e-07'), L(true, true, 'deviation'))
  assert.deepEqual(g('8 2 float sum -1 20.26 0.00 0.00 N/A 17.74 0.00 0.00 N/A'), L(true, true, 'unknown'))
  assert.deepEqual(g('8 2 float sum -1 20.26 0.00'), L(true, true, 'unknown'))
})

test('layoutFromHeader: the column names of each era', () => {
  const h = (s: string) => layoutFromHeader(tok(s))
  assert.deepEqual(
    h('size count type redop root time algbw busbw #wrong time algbw busbw #wrong'),
    L(true, true, 'count'),
  )
  assert.deepEqual(
    h('size count type redop root time algbw busbw #wrong i_min i_max i_p99 i_cv% time'),
    L(true, true, 'count', true),
  )
  assert.deepEqual(
    h('size count type redop time algbw busbw error time algbw busbw error'),
    L(true, false, 'deviation'),
  )
  assert.deepEqual(h('size count type root time algbw busbw error'), L(false, true, 'deviation'))
  assert.deepEqual(h('size count type op time algbw busbw res time algbw busbw res'), L(true, false, 'deviation'))
  assert.deepEqual(h('size count type time algbw busbw time algbw busbw'), L(false, false, 'unknown'))
})

test('markTraceRow: one complete block after a blank out-of-place block is in-place only', () => {
  const known = L(true, true, 'count')
  const line = `           8             2     float     sum      -1${' '.repeat(32)}${B2}`
  const r = parseRow(tok(line), known) as ParsedRow
  assert.equal(markTraceRow(r, line), true)
  assert.equal(r.inPlaceOnly, true)
  const mark = (s: string): [boolean, boolean | undefined] => {
    const row = parseRow(tok(s), known) as ParsedRow
    return [markTraceRow(row, s), row.inPlaceOnly]
  }
  // 23 blanks are a wide column, not a blank block.
  assert.deepEqual(mark(`8 2 float sum -1${' '.repeat(23)}${B2}`), [false, undefined])
  assert.deepEqual(mark(`8 2 float sum -1${' '.repeat(24)}${B2}`), [true, true])
  // Two blocks, a block cut short, or glued text: not trace mode, even with the gap.
  assert.deepEqual(mark(`8 2 float sum -1${' '.repeat(32)}${B1} ${B2}`), [false, undefined])
  assert.deepEqual(mark(`8 2 float sum -1${' '.repeat(32)}${B1} 17.74`), [false, undefined])
  assert.deepEqual(mark(`8 2 float sum -1${' '.repeat(32)}${B1} oops`), [false, undefined])
})

test('continueRow: the missing cells on the next line complete the row, nothing else does', () => {
  const known = L(true, true, 'count')
  const broken = () => parseRow(tok(`8 2 float sum -1 ${B1}`), known) as ParsedRow
  const r = broken()
  assert.equal(continueRow(r, tok(B2)), true)
  assert.deepEqual(r.blocks, [blk(B1), blk(B2)])
  for (const t of [tok(`${B2} 1.0`), tok('17.74 0.00 0.00'), tok('17.74 0.00 0.00 x'), []]) {
    const o = broken()
    assert.equal(continueRow(o, t), false, t.join(' '))
    assert.equal(o.blocks.length, 1)
  }
  // Both blocks missing.
  const none = parseRow(tok('8 2 float sum -1'), known) as ParsedRow
  assert.equal(continueRow(none, tok(`${B1} ${B2}`)), true)
  assert.deepEqual(none.blocks, [blk(B1), blk(B2)])
  // -I: eight cells per block, four kept.
  const I = L(true, true, 'count', true)
  const ri = parseRow(tok(`8 2 float sum -1 ${B1} 10.10 11.20 11.10 2.50`), I) as ParsedRow
  assert.equal(continueRow(ri, tok(B2)), false)
  assert.equal(continueRow(ri, tok(`${B2} 10.20 11.30 11.20 2.40`)), true)
  assert.deepEqual(ri.blocks, [blk(B1), blk(B2)])
})
