/**
 * diff projections at their edges, on hand-made rows and cells (no simulator): how a --filter
 * term is read (keys, operators, alternatives, pairs, globs with regex characters, bad input),
 * when a term holds (a missing field, each comparison at its bound, negation, all terms), how
 * --row/--col lists are read, what projectSet keeps and forgets, and how projectTables orders
 * tables, splits common from varying fields, sorts columns and computes the geomean.
 * Expected values are worked out by hand in the comments.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { CellConfig } from '../../src/cells/index.ts'
import type { DiffCell } from '../../src/diff/index.ts'
import { matches, parseFields, parseFilter, projectSet, projectTables } from '../../src/diff/index.ts'
import type { Row } from '../../src/model/index.ts'
import { makeRow } from '../../src/model/index.ts'
import type { ReadSet } from '../../src/resultset/index.ts'
import { diffCell, diffResult, summary } from '../diff-cells.ts'

const bad = (re: RegExp) => (e: Error & { code?: number }) => e.code === 2 && re.test(e.message)

const row = (over: Partial<Row> = {}): Row =>
  makeRow({ bench: 'p2p.latency', metric: 'latency', unit: 's', value: 1e-5, source: { file: 'x', line: 1 }, ...over })

/** Whether `filter` keeps the row. */
const keeps = (filter: string, r: Row): boolean => matches(parseFilter(filter), r)

test('--filter terms: key, operator (= by default), alternatives only for =, negation, the text kept', () => {
  const f = parseFilter('  bench:p2p.latency\t -size:<=1KiB   ranks:>2 ')
  assert.equal(f.text, '  bench:p2p.latency\t -size:<=1KiB   ranks:>2 ')
  assert.deepEqual(
    f.terms.map((t) => [t.field.name, t.negate, t.op, t.values]),
    [
      ['bench', false, '=', ['p2p.latency']],
      ['size', true, '<=', [1024]],
      ['ranks', false, '>', [2]],
    ],
  )
  assert.deepEqual(parseFilter('size:8,1K,2MiB').terms[0]?.values, [8, 1024, 2 * 1024 * 1024])
  assert.deepEqual(parseFilter('size:>=64K').terms[0]?.op, '>=')
  assert.deepEqual(parseFilter('size:<64K').terms[0]?.op, '<')
  // A comparison takes one bound: "1K,2K" is not a size.
  assert.throws(() => parseFilter('size:<=1K,2K'), bad(/1K,2K is not a size/))
  // Numeric fields other than size say "number"; env.NAME keys are read.
  assert.throws(() => parseFilter('ranks:x'), bad(/ranks:x: x is not a number$/))
  assert.throws(() => parseFilter('root:<1.5.2'), bad(/is not a number$/))
  assert.deepEqual(parseFilter('env.NCCL_ALGO:Ring').terms[0]?.values, ['Ring'])
  assert.equal(parseFilter('env.NCCL_ALGO:Ring').terms[0]?.field.name, 'env.NCCL_ALGO')
  // A string field takes no comparison, whatever the operator.
  for (const op of ['<', '<=', '>', '>='])
    assert.throws(() => parseFilter(`copy:${op}ce`), bad(new RegExp(`copy is not a number, so it takes no ${op}$`)))
  // Words without KEY:VALUE, or a value missing.
  for (const w of ['size', 'size:', ':8', 'size=8', 'si ze:8', '!size:8', 'x-size:8'])
    assert.throws(() => parseFilter(w), bad(/expected KEY:VALUE/), w)
  // Nothing but blanks: no terms is an error, not a filter that keeps everything.
  for (const t of ['', '  ', ' \t ']) assert.throws(() => parseFilter(t), bad(/--filter is empty/), JSON.stringify(t))
})

test('--filter pair: 0-1, 0->1, 0>1 and 0→1 name the same pair; only the pair field is rewritten', () => {
  for (const w of ['pair:0-1', 'pair:0->1', 'pair:0>1', 'pair:0→1'])
    assert.deepEqual(parseFilter(w).terms[0]?.values, ['0→1'], w)
  // Another string field keeps its dashes.
  assert.deepEqual(parseFilter('grouping:a-b').terms[0]?.values, ['a-b'])
  assert.deepEqual(parseFilter('pair:0-1,2->3').terms[0]?.values, ['0→1', '2→3'])
})

test('--filter globs: * matches any run, everything else is literal (regex characters too), whole value only', () => {
  const r = row({ bench: 'p2p.latency', grouping: 'a+b(c)[d]{e}|f^g$h?i\\j' })
  assert.ok(keeps('bench:p2p.latency', r))
  assert.ok(keeps('bench:p2p.*', r))
  assert.ok(keeps('bench:*latency', r))
  assert.ok(keeps('bench:*', r))
  assert.ok(!keeps('bench:p2p', r), 'the whole value, not a prefix')
  assert.ok(!keeps('bench:latency', r), 'the whole value, not a suffix')
  assert.ok(!keeps('bench:2p.late', r), 'not a substring')
  // '.' is a dot, not any character.
  assert.ok(!keeps('bench:p2p.latency', row({ bench: 'p2pXlatency' })))
  assert.ok(keeps('grouping:a+b(c)[d]{e}|f^g$h?i\\j', r))
  assert.ok(!keeps('grouping:aab(c)[d]{e}|f^g$h?i\\j', r), '+ is literal')
  assert.ok(!keeps('grouping:a+b(c)[d]{e}|f^g$h?i\\j', row({ grouping: 'a+b(c)[d]{e}|f^g$hi\\j' })), '? is literal')
  // Several alternatives: any one holds.
  assert.ok(keeps('bench:nccl.*,p2p.latency', r))
  assert.ok(!keeps('bench:nccl.*,p2p.bw', r))
})

test('--filter holds: numbers equal, each comparison at its bound, a missing field never matches (negated: always)', () => {
  const r = row({ sizeBytes: 1024, ranks: 4, src: 0, dst: 1, p2p: 'enabled' })
  assert.ok(keeps('size:1K', r))
  assert.ok(!keeps('size:1025', r))
  assert.ok(keeps('ranks:4', r))
  assert.ok(!keeps('ranks:40', r))
  const at = (op: string, bound: string): boolean => keeps(`size:${op}${bound}`, r)
  assert.deepEqual(
    ['<', '<=', '>', '>='].map((op) => [at(op, '1023'), at(op, '1024'), at(op, '1025')]),
    [
      [false, false, true],
      [false, true, true],
      [true, false, false],
      [true, true, false],
    ],
  )
  // A requested size is what the filter reads when the row has one.
  assert.ok(keeps('size:2K', row({ sizeBytes: 1000, requestedBytes: 2048 })))
  // Pairs and numbers: src and dst are numbers, pair is "src→dst".
  assert.ok(keeps('pair:0-1 src:0 dst:1 src:<1 dst:>=1', r))
  assert.ok(!keeps('src:1', r))
  // Missing: p2p is null here, and ranks too.
  const bare = row()
  assert.ok(!keeps('p2p:*', bare))
  assert.ok(keeps('-p2p:*', bare))
  assert.ok(!keeps('ranks:<100', bare))
  assert.ok(!keeps('ranks:>=0', bare))
  assert.ok(keeps('-ranks:>=0', bare))
  // Negation flips a term that holds.
  assert.ok(keeps('p2p:enabled', r))
  assert.ok(!keeps('-p2p:enabled', r))
  assert.ok(keeps('-p2p:disabled', r))
  // Every term must hold.
  assert.ok(keeps('p2p:enabled size:1K', r))
  assert.ok(!keeps('p2p:enabled size:2K', r))
  assert.ok(!keeps('p2p:disabled size:1K', r))
})

test('--row/--col/--ignore lists: commas and several flags, blanks dropped, unknown keys named', () => {
  assert.deepEqual(
    parseFields('--row', ['pair, size', ' p2p ,', ',env.X']).map((f) => f.name),
    ['pair', 'size', 'p2p', 'env.X'],
  )
  assert.deepEqual(parseFields('--row', []), [])
  assert.deepEqual(parseFields('--row', ['', ' , ']), [])
  assert.throws(() => parseFields('--ignore', ['pair,sise']), bad(/^diff: --ignore sise: unknown key/))
})

test('projectSet: the set itself without filter or ignore; else filtered copies, counted, the set untouched', () => {
  const rows = [
    row({ src: 0, dst: 1, sizeBytes: 8, p2p: 'enabled' }),
    row({ src: 1, dst: 0, sizeBytes: 8, p2p: 'enabled' }),
    row({ src: 0, dst: 1, sizeBytes: 1024, p2p: 'disabled', env: { A: '1', B: '2' } }),
  ]
  const snapshot = structuredClone(rows)
  const set = { dir: 'd', manifest: { id: 'm' }, diagnostics: [{ line: 3 }], rows } as unknown as ReadSet
  assert.equal(projectSet(set, {}), set)
  assert.equal(projectSet(set, { ignore: [] }), set)

  const f = projectSet(set, { filter: parseFilter('size:8') })
  assert.deepEqual([f.dir, f.manifest, f.diagnostics, f.count], [set.dir, set.manifest, set.diagnostics, 2])
  const kept = [...f.rows]
  assert.equal(kept.length, 2)
  // Without --ignore the rows are the set's own (nothing to forget).
  assert.equal(kept[0], rows[0])

  const g = projectSet(set, { ignore: parseFields('--ignore', ['pair,env.A']) })
  assert.equal(g.count, 3)
  const pooled = [...g.rows]
  assert.deepEqual(
    pooled.map((r) => [r.src, r.dst, r.sizeBytes, r.env]),
    [
      [null, null, 8, undefined],
      [null, null, 8, undefined],
      [null, null, 1024, { B: '2' }],
    ],
  )
  // Both together: filtered, then forgotten.
  const h = projectSet(set, { filter: parseFilter('p2p:disabled'), ignore: parseFields('--ignore', ['size']) })
  assert.deepEqual(
    [...h.rows].map((r) => [r.src, r.sizeBytes]),
    [[0, null]],
  )
  assert.deepEqual(rows, snapshot)
})

/** A cell with the given config and A's and B's medians (projectTables reads no more). */
const cell = (c: Partial<CellConfig>, a = 1, b = 2): DiffCell =>
  diffCell(c, { a: summary(a, [a, a]), b: summary(b, [b, b]) })

test('projectTables: benches by name, metrics time, latency, bandwidth, busbw, algbw, then the rest', () => {
  const metrics = ['wrong', 'algbw', 'busbw', 'bandwidth', 'latency', 'time'] as const
  const cells = [
    ...metrics.map((m) => cell({ bench: 'b', metric: m as CellConfig['metric'] })),
    cell({ bench: 'a', metric: 'busbw' }),
    cell({ bench: 'c', metric: 'time' }),
    cell({ bench: 'a', metric: 'time' }),
  ]
  assert.deepEqual(
    projectTables(diffResult(cells)).map((t) => `${t.bench} ${t.metric}`),
    ['a time', 'a busbw', 'b time', 'b latency', 'b bandwidth', 'b busbw', 'b algbw', 'b wrong', 'c time'],
  )
  // Two metrics outside the list keep their order of appearance.
  const two = projectTables(diffResult([cell({ metric: 'x' as never }), cell({ metric: 'y' as never })]))
  assert.deepEqual(
    two.map((t) => t.metric),
    ['x', 'y'],
  )
  const back = projectTables(diffResult([cell({ metric: 'y' as never }), cell({ metric: 'x' as never })]))
  assert.deepEqual(
    back.map((t) => t.metric),
    ['y', 'x'],
  )
})

test('projectTables: equal fields said once, varying ones as rows, missing ones nowhere, named ones not common', () => {
  const cells = [
    cell({ src: 0, dst: 1, sizeBytes: 8, p2p: 'enabled', copy: 'ce', env: { X: '1' } }),
    cell({ src: 1, dst: 0, sizeBytes: 8, p2p: 'enabled', copy: 'ce', env: { X: '1' } }),
    cell({ src: 0, dst: 1, sizeBytes: 1024, p2p: 'enabled', copy: 'ce', env: { X: '1' } }),
  ]
  const [t] = projectTables(diffResult(cells))
  assert.deepEqual(
    [t?.bench, t?.metric, t?.unit, t?.common, t?.rowFields, t?.cols],
    ['p2p.latency', 'latency', 's', ['p2p=enabled', 'copy=ce', 'env.X=1'], ['pair', 'size'], []],
  )
  assert.deepEqual(
    t?.rows.map((r) => [r.label, r.cells]),
    [
      [['0→1', '8 B'], [cells[0]]],
      [['1→0', '8 B'], [cells[1]]],
      [['0→1', '1 KiB'], [cells[2]]],
    ],
  )
  // Named as a row field: first, and never in the common line even when equal.
  const named = projectTables(diffResult(cells), { row: parseFields('--row', ['p2p,size']) })[0]
  assert.deepEqual(
    [named?.common, named?.rowFields],
    [
      ['copy=ce', 'env.X=1'],
      ['p2p', 'size', 'pair'],
    ],
  )
  // A field only some cells carry varies ("–" where missing).
  const some = projectTables(diffResult([cell({ copy: 'ce' }), cell({ copy: undefined, src: 3 })]))[0]
  assert.deepEqual(some?.rowFields, ['pair', 'copy'])
  assert.deepEqual(
    some?.rows.map((r) => r.label),
    [
      ['–', 'ce'],
      ['3', '–'],
    ],
  )
  // One cell: everything it carries is common, one row with no label.
  const one = projectTables(diffResult([cell({ sizeBytes: 8 })]))[0]
  assert.deepEqual([one?.common, one?.rowFields, one?.rows.map((r) => r.label)], [['size=8 B'], [], [[]]])
})

test('projectTables --col: numeric fields ascending whatever the order, others as they come, holes left empty', () => {
  const cells = [
    cell({ src: 1, dst: 0, sizeBytes: 4096 }),
    cell({ src: 0, dst: 1, sizeBytes: 1024 }),
    cell({ src: 0, dst: 1, sizeBytes: 8 }),
    cell({ src: 1, dst: 0, sizeBytes: 8 }),
  ]
  const [t] = projectTables(diffResult(cells), { col: parseFields('--col', ['size']) })
  assert.deepEqual(t?.cols, ['size=8 B', 'size=1 KiB', 'size=4 KiB'])
  assert.deepEqual(t?.rowFields, ['pair'])
  assert.deepEqual(
    t?.rows.map((r) => [r.label, r.cells]),
    [
      [['1→0'], [cells[3], undefined, cells[0]]],
      [['0→1'], [cells[2], cells[1], undefined]],
    ],
  )
  // Two column fields: the first decides, the second breaks ties; strings keep their order.
  const two = projectTables(diffResult(cells), { col: parseFields('--col', ['src,size']) })[0]
  assert.deepEqual(two?.cols, ['src=0 size=8 B', 'src=0 size=1 KiB', 'src=1 size=8 B', 'src=1 size=4 KiB'])
  const str = projectTables(diffResult([cell({ copy: 'sm', src: 0 }), cell({ copy: 'ce', src: 0 })]), {
    col: parseFields('--col', ['copy']),
  })[0]
  assert.deepEqual(str?.cols, ['copy=sm', 'copy=ce'])
  // A cell without the first field is neither before nor after by it: the next field decides, either way round.
  const root = parseFields('--col', ['root,size'])
  const lacking = (first: number, second: number | undefined) => [
    cell({ root: first, sizeBytes: 1024 }),
    cell({ ...(second === undefined ? {} : { root: second }), sizeBytes: 8 }),
  ]
  assert.deepEqual(projectTables(diffResult(lacking(0, undefined)), { col: root })[0]?.cols, [
    'root=– size=8 B',
    'root=0 size=1 KiB',
  ])
  const other = [cell({ sizeBytes: 1024 }), cell({ root: 0, sizeBytes: 8 })]
  assert.deepEqual(projectTables(diffResult(other), { col: root })[0]?.cols, ['root=0 size=8 B', 'root=– size=1 KiB'])
})

test('projectTables geomean: over the cells of a table when there are two or more and every median is positive', () => {
  const [t] = projectTables(diffResult([cell({ src: 0 }, 1, 2), cell({ src: 1 }, 4, 2)]))
  // A: √(1·4) = 2; B: √(2·2) = 2; delta 2/2 − 1 = 0.
  assert.deepEqual(t?.geomean, { a: 2, b: 2, delta: 0, cells: 2 })
  const [u] = projectTables(diffResult([cell({ src: 0 }, 1, 3), cell({ src: 1 }, 1, 12)]))
  // B: √36 = 6, delta 6/1 − 1 = 5.
  assert.deepEqual(u?.geomean, { a: 1, b: 6, delta: 5, cells: 2 })
  assert.equal(projectTables(diffResult([cell({}, 1, 2)]))[0]?.geomean, undefined, 'one cell: no geomean')
  assert.equal(
    projectTables(diffResult([cell({ src: 0 }, 0, 2), cell({ src: 1 }, 1, 2)]))[0]?.geomean,
    undefined,
    'a 0',
  )
  assert.equal(
    projectTables(diffResult([cell({ src: 0 }, 1, 0), cell({ src: 1 }, 1, 2)]))[0]?.geomean,
    undefined,
    'b 0',
  )
  assert.equal(projectTables(diffResult([cell({ src: 0 }, -1, 2), cell({ src: 1 }, 1, 2)]))[0]?.geomean, undefined)
})
