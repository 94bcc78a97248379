/**
 * diff Markdown, CSV and JSON at their edges, on a hand-made DiffResult (no statistics run):
 * every Markdown line exactly (alignment, | escaped, only-lists as code), every CSV column
 * of a cell (base units, 12 significant digits, ±∞ and NaN, conditions by name), and the
 * JSON being the result itself. Expected text is written out by hand.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { diffCsv, diffJson, diffMarkdown, formatDiff, parseFields } from '../../src/diff/index.ts'
import { DIFF_HEAD, diffCell, diffResult, diffSide, summary } from '../diff-cells.ts'

test('Markdown: sides, statement, right-aligned value columns, | escaped, only-lists as code, notes', () => {
  const c = diffCell({ src: 0, dst: 1, grouping: 'a|b', sizeBytes: 8 })
  const d = diffCell({ src: 0, dst: 1, grouping: 'a|b', sizeBytes: 16 }, { significant: false })
  const r = diffResult([c, d], {
    a: diffSide({ simulated: true }),
    simulated: true,
    onlyA: ['x|y'],
    warnings: ['w|1'],
  })
  assert.deepEqual(diffMarkdown(r).split('\n'), [
    '**SIMULATED data**: these numbers come from gpucomm sim, not from hardware.',
    '',
    '- A: `runs/a` (SIMULATED), 26 rows',
    '- B: `runs/b`, 30 rows',
    `- ${DIFF_HEAD}`,
    '- tested: latency',
    '',
    '### p2p.latency latency (pair=0→1 grouping=a\\|b)',
    '',
    '| size | A | B | delta | p |',
    '|---|---:|---:|---:|---:|',
    '| 8 B | 10 µs ±10% | 20 µs ±5.0% | +100% [+80.0%, +120%] | p=0.012 q=0.046 n=6+7 launches |',
    '| 16 B | 10 µs ±10% | 20 µs ±5.0% | ~ [+80.0%, +120%] | p=0.012 q=0.046 n=6+7 launches |',
    '| geomean | 10 µs | 20 µs | +100% | 2 cells |',
    '',
    '**only in A (1 cell):**',
    '',
    '- `x|y`',
    '',
    '> note: w\\|1',
    '',
  ])
  assert.equal(formatDiff(r, 'md'), diffMarkdown(r))
  // --col headers (name=value) are right-aligned too, label columns left; nothing only in B.
  const cols = diffMarkdown(diffResult([c, d]), { col: parseFields('--col', ['size']) }).split('\n')
  assert.deepEqual(cols.slice(0, 2), ['- A: `runs/a`, 26 rows', '- B: `runs/b`, 30 rows'])
  assert.ok(cols.includes('| cell | size=8 B | size=16 B |'), cols.join('\n'))
  assert.ok(cols.includes('|---|---:|---:|'), cols.join('\n'))
  assert.ok(!cols.some((l) => l.startsWith('**only')), cols.join('\n'))
})

test('CSV: one line per cell in base units, conditions in named columns, 12 significant digits, ±∞ and NaN', () => {
  const c = diffCell(
    { src: 0, dst: 1, sizeBytes: 8, requestedBytes: 10, p2p: 'enabled', copy: 'ce', root: 0 },
    {
      a: summary(1 / 3, [0.25, Infinity], 6),
      b: summary(2e-5, [-Infinity, 2.1e-5], 7),
      q: Number.NaN,
      changed: [{ field: 'peerAccess', a: 'yes', b: 'no' }],
      errors: ['e1', 'e2'],
      exact: false,
      regression: false,
    },
  )
  const [head, line, end] = diffCsv(diffResult([c])).split('\n')
  assert.equal(end, '')
  const cols = head?.split(',') ?? []
  assert.deepEqual(cols, [
    'key',
    'bench',
    'metric',
    'unit',
    'src',
    'dst',
    'group',
    'ranks',
    'grouping',
    'size_bytes',
    'requested_bytes',
    'placement',
    'p2p',
    'copy',
    'staging',
    'direction',
    'timer',
    'dtype',
    'redop',
    'root',
    'changed',
    'a_n',
    'a_median',
    'a_ci_lo',
    'a_ci_hi',
    'b_n',
    'b_median',
    'b_ci_lo',
    'b_ci_hi',
    'delta',
    'delta_ci_lo',
    'delta_ci_hi',
    'p',
    'q',
    'exact',
    'tested',
    'reachable',
    'resolution',
    'significant',
    'regression',
    'errors',
  ])
  const values = line?.split(',') ?? []
  assert.deepEqual(Object.fromEntries(cols.map((k, i) => [k, values[i]])), {
    key: 'k018latency',
    bench: 'p2p.latency',
    metric: 'latency',
    unit: 's',
    src: '0',
    dst: '1',
    group: '',
    ranks: '',
    grouping: '',
    size_bytes: '8',
    requested_bytes: '10',
    placement: '',
    p2p: 'enabled',
    copy: 'ce',
    staging: '',
    direction: '',
    timer: '',
    dtype: '',
    redop: '',
    root: '0',
    changed: 'peer access: yes → no',
    a_n: '6',
    a_median: '0.333333333333',
    a_ci_lo: '0.25',
    a_ci_hi: 'inf',
    b_n: '7',
    b_median: '0.00002',
    b_ci_lo: '-inf',
    b_ci_hi: '0.000021',
    delta: '1',
    // The change's CI as fractions, like delta; empty when a side has one launch.
    delta_ci_lo: '0.8',
    delta_ci_hi: '1.2',
    p: '0.0123',
    q: '',
    // csv-stringify writes true as 1 and false as an empty field.
    exact: '',
    tested: '1',
    reachable: '1',
    resolution: '1e-7',
    significant: '1',
    regression: '',
    errors: 'e1; e2',
  })
  assert.equal(formatDiff(diffResult([c]), 'csv'), diffCsv(diffResult([c])))
  // A cell with no observed change has an empty changed column.
  const [h2, l2] = diffCsv(diffResult([diffCell({})])).split('\n')
  assert.equal(l2?.split(',')[h2?.split(',').indexOf('changed') ?? -1], '')
  const [h3, l3] = diffCsv(diffResult([diffCell({}, { fit: null, deltaCi: null })])).split('\n')
  assert.equal(l3?.split(',')[h3?.split(',').indexOf('delta_ci_lo') ?? -1], '')
})

test('JSON: the result itself, pretty, one trailing newline; formatDiff dispatches on the format', () => {
  const r = diffResult([diffCell({ src: 0, dst: 1 })])
  const json = diffJson(r)
  assert.ok(json.endsWith('}\n') && !json.endsWith('\n\n'))
  assert.match(json, /^\{\n {2}"a": \{\n {4}"dir": "runs\/a",/)
  assert.deepEqual(JSON.parse(json), JSON.parse(JSON.stringify(r)))
  assert.equal(formatDiff(r, 'json'), json)
})
