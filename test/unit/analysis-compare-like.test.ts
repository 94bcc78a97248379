/**
 * compare's statistics on the right unit (#31): like with like (TP4's groups against TP8's
 * group by the same statistic), the band ratio's interval over launches (sizes of one launch
 * are not more evidence), "[lo, hi]" for an asymmetric interval, "one launch: no interval".
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { compareSet } from '../../src/analysis/compare/_compare.ts'
import { bandLaunches, ratioCiText } from '../../src/analysis/compare/_conclusion.ts'
import { setOf, trials } from '../analysis/compare-rows.ts'

const TP8 = [10, 11, 9, 10.5, 9.5, 10]

test('like with like: TP4 groups as fast as TP8, one 10 % slower and one 10 % faster, is no winner', () => {
  // The slowest of TP4's two groups is 10 % above TP8 every trial; the typical group is TP8's time.
  const rows = [
    ...trials('tp8', '0-7', TP8, { ranks: 8 }),
    ...trials(
      'tp4',
      '0-3',
      TP8.map((v) => v * 1.1),
      { ranks: 4 },
    ),
    ...trials(
      'tp4',
      '4-7',
      TP8.map((v) => v * 0.9),
      { ranks: 4 },
    ),
  ]
  const c = compareSet(setOf(rows))
  const z = c.benches[0]?.sizes[0]
  const tp4 = z?.groupings.find((g) => g.grouping === 'tp4')
  assert.equal(tp4?.combined, 'median')
  assert.deepEqual(
    tp4?.values.map((v) => Number(v.toFixed(9))),
    TP8.map((v) => Number(v.toFixed(9))),
  )
  assert.equal(z?.winner, null)
  const k = c.benches[0]?.conclusions[0]
  assert.equal(k?.clear, false, k?.text)
  assert.match(k?.text ?? '', /take the same time within the noise .*: ratio 1\.00, 95% CI \[/)
})

test('groupings of equal group counts keep the slowest group per trial (the step waits for it)', () => {
  const rows = [
    ...trials('a', '0-3', TP8, { ranks: 4 }),
    ...trials(
      'a',
      '4-7',
      TP8.map((v) => v + 1),
      { ranks: 4 },
    ),
    ...trials('b', '0-1', TP8, { ranks: 2 }),
    ...trials('b', '2-3', TP8, { ranks: 2 }),
  ]
  const z = compareSet(setOf(rows)).benches[0]?.sizes[0]
  assert.deepEqual(
    z?.groupings.map((g) => [g.grouping, g.combined, g.values]),
    [
      ['a', 'max', TP8.map((v) => v + 1)],
      ['b', 'max', TP8],
    ],
  )
})

test('a band over many sizes is still one value per launch: sizes are not more evidence', () => {
  // Two sizes, three launches: three values, each the geometric mean of its launch's two times.
  assert.deepEqual(
    bandLaunches([
      [1, 4, 9],
      [4, 1, 1],
    ]),
    [2, 2, 3],
  )
  // The ratio's interval: from 3 launches a side, not 3 × sizes pairs.
  const sizes = [8, 16, 32, 64, 128, 256]
  const rows = sizes.flatMap((s) => [
    ...trials('x', 'g', [1, 1.1, 0.9], { sizeBytes: s }),
    ...trials('y', 'g', [1.05, 1.15, 0.95], { sizeBytes: s }),
  ])
  const k = compareSet(setOf(rows)).benches[0]?.conclusions[0]
  assert.equal(k?.pairs, 3)
  assert.equal(k?.clear, false, k?.text)
})

test('one launch a side: "one launch: no interval", no CI', () => {
  const rows = [...trials('x', 'g', [1]), ...trials('y', 'g', [2])]
  const k = compareSet(setOf(rows)).benches[0]?.conclusions[0]
  assert.deepEqual(k?.ci, [null, null])
  assert.match(k?.text ?? '', /one launch: no interval/)
})

test('a ratio interval prints ± when symmetric at two decimals, else [lo, hi]', () => {
  assert.equal(ratioCiText(1.2, 1.15, 1.25), ' ± 0.05')
  assert.equal(ratioCiText(1.2, 1.1, 1.45), ' [1.10, 1.45]')
})

test('a clear conclusion: the interval excludes 1, and is not zero-width', () => {
  const rows = [...trials('x', 'g', [1, 1.02, 0.98, 1.01, 0.99, 1]), ...trials('y', 'g', [2, 2.1, 1.9, 2.05, 1.95, 2])]
  const k = compareSet(setOf(rows)).benches[0]?.conclusions[0]
  assert.equal(k?.clear, true)
  assert.ok((k?.ci[0] as number) > 1 && (k?.ci[0] as number) < (k?.ci[1] as number), `${k?.ci}`)
  assert.match(k?.text ?? '', /^x is 2\.00( ± \d\.\d\d| \[\d\.\d\d, \d\.\d\d\])× faster than y/)
})
