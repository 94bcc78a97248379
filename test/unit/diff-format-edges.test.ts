/**
 * diff text output at its edges, on a hand-made DiffResult (no statistics run): every printed
 * line is asserted exactly, with each choice it makes — the
 * ± of a median (unbounded, zero, around a zero median, percent digits at 1 % and 10 %), the
 * signed delta (digits at 10 % and 100 %, ±∞), the delta and p columns of untested,
 * unreachable, wrong and significant cells, the testing statement, only-in-one lists up to 10
 * keys, the observed-change column, the geomean row and --col columns (Markdown, CSV and JSON:
 * diff-format-md-csv.test.ts).
 * Expected text is written out by hand from the definitions in the comments.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { relInterval } from '../../src/diff/_format.ts'
import type { DiffCell } from '../../src/diff/index.ts'
import {
  diffMarkdown,
  diffTables,
  diffText,
  formatDiff,
  medianPm,
  parseFields,
  signedPct,
  testingLines,
} from '../../src/diff/index.ts'
import { DIFF_HEAD, diffCell, diffResult, diffSide, summary } from '../diff-cells.ts'

test('medianPm: ± when the CI prints symmetric, [lo, hi] when not; one launch has no interval; ±∞ unbounded', () => {
  // Bounds 10 below and 20 above a median of 100: asymmetric, printed as they are.
  assert.equal(medianPm(summary(100, [90, 120]), 'count'), '100 [-10%, +20%]')
  assert.equal(medianPm(summary(100, [80, 110]), 'count'), '100 [-20%, +10%]')
  // A large asymmetric interval is never a "±179 %".
  assert.equal(medianPm(summary(100, [95, 279]), 'count'), '100 [-5.0%, +180%]')
  // Symmetric as printed (two significant digits): ±; ≥ 10 %: no decimals; 1–10 %: one; below 1 %: two.
  assert.equal(medianPm(summary(100, [90, 110]), 'count'), '100 ±10%')
  assert.equal(medianPm(summary(1e-5, [9e-6, 1.1e-5]), 's'), '10 µs ±10%')
  assert.equal(medianPm(summary(100, [99, 101]), 'count'), '100 ±1.0%')
  assert.equal(medianPm(summary(100, [95, 100]), 'count'), '100 [-5.0%, 0.00%]')
  assert.equal(medianPm(summary(1000, [999, 1001.04]), 'count'), '1000 ±0.10%')
  // Relative to |median|: a negative median still gives a positive percentage.
  assert.equal(medianPm(summary(-100, [-110, -90]), 'count'), '-100 ±10%')
  assert.equal(medianPm(summary(100, [100, 100]), 'count'), '100 ±0.00%')
  // Around a zero median: the bounds themselves.
  assert.equal(medianPm(summary(0, [-2e-6, 1e-6]), 's'), '0 s [-2 µs, 1 µs]')
  assert.equal(medianPm(summary(1e-5, [-Infinity, Infinity]), 's'), '10 µs ±∞')
  assert.equal(medianPm(summary(1e-5, [9e-6, Infinity]), 's'), '10 µs ±∞')
  // One launch: no interval at all, whatever the summary's CI says.
  assert.equal(medianPm(summary(1e-5, [1e-5, 1e-5], 1), 's'), '10 µs (one launch: no interval)')
  assert.equal(medianPm(summary(1e-5, [-Infinity, Infinity], 1), 's'), '10 µs (one launch: no interval)')
})

test('signedPct: + on gains only, digits by size (two below 10 %, one below 100 %), ±∞', () => {
  assert.deepEqual([0, 0.0625, -0.0625, 0.1, -0.1, 0.125, -0.125, 1, -1, 2.5, -2.5].map(signedPct), [
    '0.00%',
    '+6.25%',
    '-6.25%',
    '+10.0%',
    '-10.0%',
    '+12.5%',
    '-12.5%',
    '+100%',
    '-100%',
    '+250%',
    '-250%',
  ])
  assert.deepEqual([Infinity, -Infinity].map(signedPct), ['+∞%', '-∞%'])
})

test('testingLines: tested and shown metrics, chance findings (singular, plural, digits), unreachable sizes, errors', () => {
  const lat = diffCell({ src: 0, dst: 1 })
  const bw = diffCell({ src: 0, dst: 1, metric: 'bandwidth', unit: 'B/s' }, { tested: false })
  assert.deepEqual(testingLines(diffResult([lat])), [DIFF_HEAD, 'tested: latency'])
  assert.deepEqual(
    testingLines(diffResult([lat, bw, bw]))[1],
    'tested: latency; shown, not tested: bandwidth (derived from time; --metric tests others)',
  )
  const chance = (cells: number, e: number) =>
    testingLines(
      diffResult([lat], {
        testing: { metrics: ['latency'], cells, expectedFalsePositives: e, unreachable: [], minSamples: 4 },
      }),
    )[2]
  const tail =
    'by chance alone if nothing changed; --fail-on-regression PCT fails a cell only when its one-sided bound lies beyond PCT after the Benjamini–Hochberg false-discovery-rate control (q ≤ 0.05)'
  assert.equal(chance(1, 0.05), `1 cell tested at alpha 0.05: about 0.1 would show p ≤ 0.05 ${tail}`)
  assert.equal(chance(10, 0.5), `10 cells tested at alpha 0.05: about 0.5 would show p ≤ 0.05 ${tail}`)
  assert.equal(chance(200, 10), `200 cells tested at alpha 0.05: about 10 would show p ≤ 0.05 ${tail}`)
  assert.equal(chance(190, 9.5), `190 cells tested at alpha 0.05: about 9.5 would show p ≤ 0.05 ${tail}`)
  assert.equal(chance(0, 0), undefined)
  const r = diffResult([lat], {
    alpha: 0.01,
    level: 0.99,
    testing: {
      metrics: ['latency', 'bandwidth'],
      cells: 0,
      expectedFalsePositives: 0,
      unreachable: [
        { sizes: '3+3', cells: 1, minP: 0.1 },
        { sizes: '2+4', cells: 2, minP: 0.13333333 },
      ],
      minSamples: 5,
    },
    errors: ['bench=x metric=wrong: 3 wrong elements in A'],
  })
  assert.deepEqual(testingLines(r).slice(1), [
    'tested: latency, bandwidth',
    'n = 3+3 (1 cell) cannot reach p ≤ 0.01: the smallest possible p is 0.100; deltas in ( ) are untested; 5 trials on each side can reach it',
    'n = 2+4 (2 cells) cannot reach p ≤ 0.01: the smallest possible p is 0.133; deltas in ( ) are untested; 5 trials on each side can reach it',
    'ERROR bench=x metric=wrong: 3 wrong elements in A',
  ])
  assert.match(testingLines(r)[0] ?? '', /p > 0\.01, .* \[lo, hi\] = 99% CI of the median; .* = 99% CI of the change/)
})

/** Four cells of one table: significant, not significant, untested, unreachable, plus a wrong one. */
function table(): DiffCell[] {
  return [
    diffCell({ src: 0, dst: 1 }),
    diffCell({ src: 1, dst: 0 }, { significant: false, delta: 0.0625, regression: false }),
    diffCell({ src: 0, dst: 2 }, { tested: false, delta: -0.125 }),
    diffCell(
      { src: 2, dst: 0 },
      { reachable: false, delta: 0.5, changed: [{ field: 'peerAccess', a: 'yes', b: 'no' }] },
    ),
    diffCell({ src: 1, dst: 2 }, { errors: ['3 wrong'], a: summary(0, [0, 0], 6) }),
  ]
}

test('text: the sides, the statement, one table with each kind of delta and p, changes, geomean, only-lists, notes', () => {
  const keys = (p: string, n: number) => Array.from({ length: n }, (_, i) => `${p}${i}`)
  const r = diffResult(table(), {
    a: diffSide({ simulated: true }),
    simulated: true,
    onlyA: keys('a', 10),
    onlyB: keys('b', 11),
    warnings: ['one', 'two'],
  })
  const expected = [
    'SIMULATED data: these numbers come from gpucomm sim, not from hardware.',
    'A: runs/a (SIMULATED): sweep id-a, 26 rows, 4 cells',
    'B: runs/b: sweep id-b, 30 rows, 5 cells',
    DIFF_HEAD,
    'tested: latency',
    '',
    'p2p.latency latency',
    // The change's CI follows the delta; an untested metric shows none, an unreachable cell's is in ( ).
    'pair  A           B            delta                     p                               changed',
    '----  ----------  -----------  ------------------------  ------------------------------  ---------------------',
    '0→1   10 µs ±10%  20 µs ±5.0%  +100% [+80.0%, +120%]     p=0.012 q=0.046 n=6+7 launches',
    '1→0   10 µs ±10%  20 µs ±5.0%  ~ [+80.0%, +120%]         p=0.012 q=0.046 n=6+7 launches',
    '0→2   10 µs ±10%  20 µs ±5.0%  (-12.5%)                  n=6+7 launches',
    '2→0   10 µs ±10%  20 µs ±5.0%  (+50.0%) [+80.0%, +120%]  n=6+7 launches                  peer access: yes → no',
    '1→2   < 100 ns    20 µs ±5.0%  ERROR                     p=0.012 q=0.046 n=6+7 launches',
    '',
    'only in A (10 cells):',
    ...keys('  a', 10),
    'only in B (11 cells):',
    ...keys('  b', 10),
    '  … and 1 more (see --format json)',
    'note: one',
    'note: two',
    '',
  ]
  assert.deepEqual(diffText(r).split('\n'), expected)
  assert.equal(formatDiff(r, 'text'), diffText(r))
  // Not simulated: no first line, no marks; one only-key reads "1 cell".
  const plain = diffText(diffResult([diffCell({ src: 0, dst: 1 })], { onlyB: ['k'] })).split('\n')
  assert.deepEqual(plain.slice(0, 2), [
    'A: runs/a: sweep id-a, 26 rows, 4 cells',
    'B: runs/b: sweep id-b, 30 rows, 5 cells',
  ])
  assert.deepEqual(plain.slice(-5), [
    '-     10 µs ±10%  20 µs ±5.0%  +100% [+80.0%, +120%]  p=0.012 q=0.046 n=6+7 launches',
    '',
    'only in B (1 cell):',
    '  k',
    '',
  ])
})

test('text: one cell, no label field ("cell", "-"); several cells with a geomean row; --col columns with holes', () => {
  const one = diffText(diffResult([diffCell({ src: 0, dst: 1 })]))
    .split('\n')
    .slice(5, 9)
  assert.deepEqual(one, [
    'p2p.latency latency (pair=0→1)',
    'cell  A           B            delta                  p',
    '----  ----------  -----------  ---------------------  ------------------------------',
    '-     10 µs ±10%  20 µs ±5.0%  +100% [+80.0%, +120%]  p=0.012 q=0.046 n=6+7 launches',
  ])
  // Two sizes of pair 0→1: A medians 10 µs and 40 µs (geomean 20 µs), B 20 µs and 80 µs (40 µs): +100 %.
  const two = [
    diffCell({ src: 0, dst: 1, sizeBytes: 8 }),
    diffCell(
      { src: 0, dst: 1, sizeBytes: 1024 },
      { a: summary(4e-5, [3.6e-5, 4.4e-5]), b: summary(8e-5, [7.6e-5, 8.4e-5], 7) },
    ),
  ]
  const [t] = diffTables(diffResult(two))
  assert.equal(t?.heading, 'p2p.latency latency (pair=0→1)')
  assert.deepEqual(t?.header, ['size', 'A', 'B', 'delta', 'p'])
  assert.deepEqual(t?.lines.at(-1), ['geomean', '20 µs', '40 µs', '+100%', '2 cells'])
  // Two row fields: the geomean row pads the second label column.
  const four = [...two, ...two.map((c) => ({ ...c, config: { ...c.config, src: 1, dst: 0 } }))]
  const [u] = diffTables(diffResult(four))
  assert.deepEqual(u?.lines.at(-1), ['geomean', '', '20 µs', '40 µs', '+100%', '4 cells'])
  // With --col: one "A → B delta" column per value, an empty cell where a row lacks it, no geomean row.
  const [v] = diffTables(diffResult([...four.slice(0, 3)]), { col: parseFields('--col', ['size']) })
  assert.deepEqual(v?.header, ['pair', 'size=8 B', 'size=1 KiB'])
  assert.deepEqual(v?.lines, [
    ['0→1', '10 µs ±10% → 20 µs ±5.0% +100% [+80.0%, +120%]', '40 µs ±10% → 80 µs ±5.0% +100% [+80.0%, +120%]'],
    ['1→0', '10 µs ±10% → 20 µs ±5.0% +100% [+80.0%, +120%]', ''],
  ])
  // A change in any cell of a --col row shows once for the row.
  const changed = { changed: [{ field: 'peerAccess' as const, a: 'yes', b: 'no' }] }
  const [w] = diffTables(diffResult([{ ...two[0], ...changed } as DiffCell, { ...two[1], ...changed } as DiffCell]), {
    col: parseFields('--col', ['size']),
  })
  assert.deepEqual(w?.header, ['cell', 'size=8 B', 'size=1 KiB', 'changed'])
  assert.deepEqual(w?.lines[0]?.[0], '-')
  assert.deepEqual(w?.lines[0]?.at(-1), 'peer access: yes → no')
  // Only one cell of the row changed: the change once, nothing for the other.
  const [w1] = diffTables(diffResult([{ ...two[0], ...changed } as DiffCell, two[1] as DiffCell]), {
    col: parseFields('--col', ['size']),
  })
  assert.deepEqual(w1?.lines[0]?.at(-1), 'peer access: yes → no')
  // A median of 0 prints as "< resolution" only when the resolution is known (> 0).
  const zero = diffCell({}, { a: summary(0, [0, 0]), resolution: 0 })
  assert.deepEqual(diffTables(diffResult([zero]))[0]?.lines[0]?.slice(1, 3), ['0 s [0 s, 0 s]', '20 µs ±5.0%'])
})

test('relInterval: ± only for an interval around 0 whose two ends print alike', () => {
  assert.equal(relInterval(-0.05, 0.05), '±5.0%')
  assert.equal(relInterval(0, 0), '±0.00%')
  assert.equal(relInterval(0.05, 0.05), '[+5.0%, +5.0%]')
  assert.equal(relInterval(-0.05, -0.05), '[-5.0%, -5.0%]')
  assert.equal(relInterval(-0.02, 0.05), '[-2.0%, +5.0%]')
})

test('--col tables: a one-launch side is marked † and the footnote follows the table, in text and Markdown', () => {
  const one = diffCell({}, { a: summary(1e-5, [1e-5, 1e-5], 1) })
  const col = { col: parseFields('--col', ['size']) }
  const text = diffText(diffResult([one]), col).split('\n')
  const at = text.indexOf('† one launch: no interval')
  const row = text.findIndex((l) => l.includes('10 µs † → 20 µs'))
  assert.ok(row > 0 && at > row, text.join('\n'))
  const md = diffMarkdown(diffResult([one]), col).split('\n')
  const mdAt = md.indexOf('† one launch: no interval')
  const mdRow = md.findIndex((l) => l.startsWith('|') && l.includes('10 µs † → 20 µs'))
  assert.ok(mdRow > 0 && mdAt > mdRow, md.join('\n'))
  // Without a one-launch side: no footnote.
  assert.ok(!diffText(diffResult([diffCell({})]), col).includes('†'))
})
