/**
 * nccl-tests rows the fixtures never show: per-iteration (-I) rows of a log tail with no
 * header (the columns are guessed from the row), and a row cut short after its first block
 * that also shows a blank gap (cut short, not trace mode).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { ParseOutput, Parser } from '../../src/parsers/index.ts'
import { parserById, parseText } from '../../src/parsers/index.ts'
import type { CellPlace } from '../../src/parsers/nccl-tests/_nccl-cell.ts'
import { cellRow } from '../../src/parsers/nccl-tests/_nccl-cell.ts'
import type { Layout } from '../../src/parsers/nccl-tests/_nccl-row.ts'

const TEXT = parserById('nccl-tests-text') as Parser
const parse = (text: string): ParseOutput => parseText(TEXT, text, { file: 'x.txt' })
const codes = (o: ParseOutput): string[] => o.diagnostics.map((d) => d.code)
const cells = (o: ParseOutput): string[] =>
  o.rows.map(
    (r) => `${r.sizeBytes} ${r.placement} ${r.metric} ${r.value}${r.root === undefined ? '' : ` root ${r.root}`}`,
  )

// v2.19.2+ -I rows (FORMATS of nccl-tests' common.cu: redop, root, then per block time algbw
// busbw #wrong i_min i_max i_p99 i_cv%), without the header that names the columns.
const I_ROWS = [
  '        1024           256     float     sum      -1    10.50    0.10    0.10       0    10.10    11.20    11.10    2.50    10.60    0.10    0.10       0    10.20    11.30    11.20    2.40',
  '        4096          1024     float    none       3    12.50    0.33    0.33       0    12.10    13.20    13.10    2.50    12.60    0.33    0.33       0    12.20    13.30    13.20    2.40',
]

test('headerless -I rows: redop and root are read from the row, the per-iteration cells are skipped', () => {
  const out = parse(I_ROWS.join('\n'))
  const at = (size: number) => cells(out).filter((c) => c.startsWith(`${size} `))
  assert.deepEqual(at(1024), [
    '1024 out-of-place time 0.0000105',
    '1024 out-of-place algbw 100000000',
    '1024 out-of-place busbw 100000000',
    '1024 out-of-place wrong 0',
    '1024 in-place time 0.0000106',
    '1024 in-place algbw 100000000',
    '1024 in-place busbw 100000000',
    '1024 in-place wrong 0',
  ])
  // The second row has a root (3): its time is 12.50, not the root read as a time.
  assert.deepEqual(at(4096).slice(0, 2), [
    '4096 out-of-place time 0.0000125 root 3',
    '4096 out-of-place algbw 330000000 root 3',
  ])
  assert.ok(codes(out).includes('per-iteration-columns'))
  assert.ok(!codes(out).includes('bad-row') && !codes(out).includes('partial-row'), codes(out).join(' '))
})

test('a row with one complete block and part of the next is cut short even with a blank gap in it', () => {
  // A trace-mode row (blank out-of-place block, in-place cells) is one block; the same row
  // with two more cells is a row cut short inside its second block, so not trace mode.
  const pre = '           8             2     float     sum      -1'
  const trace = `${pre}${' '.repeat(32)}   17.51    0.00    0.00       0`
  const t = parse(trace)
  assert.ok(codes(t).includes('trace-mode'))
  assert.deepEqual([...new Set(t.rows.map((r) => r.placement))], ['in-place'])
  const cut = parse(`${trace}   18.02    0.00`)
  assert.ok(codes(cut).includes('partial-row'), codes(cut).join(' '))
  assert.ok(!codes(cut).includes('trace-mode'))
  assert.deepEqual([...new Set(cut.rows.map((r) => r.placement))], ['out-of-place'])
})

test('a cell: a token that is not a number gives no row; redop "none" and root −1 (not rooted) are left off', () => {
  const layout: Layout = { hasRedop: true, hasRoot: true, wrongKind: 'count', perIter: false }
  const place = (redop: string | undefined, root: number | undefined): CellPlace => ({
    row: { size: 1024, count: 256, type: 'float', redop, root, blocks: [], partial: false, layout, exact: true },
    bench: 'nccl.all_gather',
    ranks: 8,
    placement: 'out-of-place',
    source: { file: 'x', line: 3 },
    trial: 0,
    requested: undefined,
  })
  assert.equal(cellRow(place('none', -1), 'N/A', 'time', 's', -6), undefined)
  const plain = cellRow(place('none', -1), '12.5', 'time', 's', -6)
  assert.equal(plain?.value, 12.5e-6)
  assert.equal('redop' in (plain as object), false)
  assert.equal('root' in (plain as object), false)
  const rooted = cellRow(place('sum', 0), '12.5', 'time', 's', -6)
  assert.equal(rooted?.redop, 'sum')
  assert.equal(rooted?.root, 0)
})
