/**
 * The diff chart's x scale is set by its bars, not by its whiskers: a two-launch CI that runs
 * to +3,000 % beside bars of ±30 % is cut at the plot edge with a triangle that says it goes on
 * (its true ends kept in the data and the tooltip), and the subtitle says once what the triangle
 * means. Checked on the laid-out scene graph, where the bars and rules are actually drawn.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { DiffBar, SceneItem } from '../../../src/output/index.ts'
import { diffChart, sceneOf } from '../../../src/output/index.ts'

const NAMES = { a: 'vm', b: 'bm', total: 3, whisker: 'whisker: one cell’s 95% CI' }

function bar(label: string, delta: number, lo: number, hi: number): DiffBar {
  return { label, delta, lo, hi, verdict: 'same', significant: 0, cells: 1 }
}

const of = (items: readonly SceneItem[], marktype: string, cell: string): SceneItem[] =>
  items.filter((i) => i.role === 'mark' && i.marktype === marktype && i.datum?.cell === cell)

const subtitle = (items: readonly SceneItem[]): string =>
  items
    .filter((i) => i.role === 'title-subtitle')
    .map((i) => i.text ?? '')
    .join(' | ')

test('a whisker 100× the largest bar is cut at the plot edge with a triangle; the bars fill the plot', async () => {
  // Largest bar +30 %; the wide row's whisker runs to +3,000 % on the right and −900 % on the left.
  const bars = [bar('wide', 0.1, -9, 30), bar('big', 0.3, 0.25, 0.35), bar('neg', -0.2, -0.25, -0.15)]
  const spec = diffChart(bars, { simulated: true }, NAMES)
  const items = await sceneOf(spec)
  const big = of(items, 'rect', 'big')[0]
  const neg = of(items, 'rect', 'neg')[0]
  assert.ok(big && neg, 'bars drawn')
  const { x1, x2 } = big.frame
  // Bars are never cut, and they, not the whisker, span the plot: -20 % to +30 % is most of it.
  for (const b of [big, neg]) assert.ok(b.box.x1 >= x1 - 0.5 && b.box.x2 <= x2 + 0.5, JSON.stringify(b.box))
  assert.ok(big.box.x2 - neg.box.x1 >= 0.6 * (x2 - x1), `bars squeezed: ${neg.box.x1}..${big.box.x2} of ${x1}..${x2}`)
  // The wide whisker is drawn from one edge of the plot to the other, not beyond.
  const [rule] = of(items, 'rule', 'wide')
  assert.ok(rule, 'wide whisker drawn')
  assert.ok(Math.abs(rule.box.x1 - x1) < 1 && Math.abs(rule.box.x2 - x2) < 1, JSON.stringify([rule.box, big.frame]))
  // A triangle at each cut end, and only there; the row still carries its true ends.
  const marks = of(items, 'symbol', 'wide').map((s) => (s.box.x1 + s.box.x2) / 2)
  assert.equal(marks.length, 2, 'one triangle per cut end')
  assert.ok(
    marks.some((x) => Math.abs(x - x2) < 8) && marks.some((x) => Math.abs(x - x1) < 8),
    `${marks} vs ${x1}..${x2}`,
  )
  assert.deepEqual(of(items, 'symbol', 'big').concat(of(items, 'symbol', 'neg')), [])
  // The big bar's whisker, 5 points past it, fits in the room beside the bars: drawn whole.
  const [bigRule] = of(items, 'rule', 'big')
  assert.ok(bigRule && bigRule.box.x2 > big.box.x2 + 5 && bigRule.box.x2 < x2 - 1, JSON.stringify(bigRule?.box))
  const rows = (spec as { data: { values: { cell: string; lo: number; hi: number; txt: string }[] } }).data.values
  assert.deepEqual([rows[0]?.lo, rows[0]?.hi], [-900, 3000])
  // A PNG has no tooltip: the cut whisker's true ends are printed after the bar's change; whole ones are not.
  assert.match(rows[0]?.txt ?? '', /^\S+ \+10\.0 % \(whisker −900 to \+3,000 %\)$/)
  assert.deepEqual(
    rows.slice(1).map((r) => r.txt.includes('whisker')),
    [false, false],
  )
  const oneSided = diffChart([bar('up', 0.1, 0.05, 30), bar('big', 0.3, 0.25, 0.35)], { simulated: true }, NAMES)
  const upTxt = (oneSided as { data: { values: { txt: string }[] } }).data.values[0]?.txt
  assert.match(upTxt ?? '', /\(whisker to \+3,000 %\)$/)
  assert.match(subtitle(items), /▸.*runs on past the plot edge/)
})

test('whiskers that fit the bars’ scale: drawn whole, no triangle, no subtitle line about one', async () => {
  const bars = [bar('a', 0.3, 0.25, 0.31), bar('b', -0.2, -0.21, -0.15)]
  const items = await sceneOf(diffChart(bars, { simulated: true }, NAMES))
  assert.deepEqual(
    items.filter((i) => i.marktype === 'symbol' && i.role === 'mark'),
    [],
  )
  assert.doesNotMatch(subtitle(items), /▸|◂|plot edge/)
  const [rule] = of(items, 'rule', 'a')
  const [rect] = of(items, 'rect', 'a')
  assert.ok(rule && rect)
  // The whisker ends where its value lies: 31 % just past the 30 % bar's end, inside the plot.
  assert.ok(rule.box.x2 > rect.box.x2 && rule.box.x2 < rect.frame.x2 - 0.5, JSON.stringify([rule.box, rect.box]))
})

test('two runs of one setup (bars of a few %, whiskers of ±30 %): every whisker drawn whole, none cut', () => {
  const bars = [bar('a', -0.034, -0.27, 0.21), bar('b', -0.016, -0.35, 0.32), bar('c', -0.011, -0.17, 0.17)]
  const spec = diffChart(bars, { simulated: true }, NAMES) as {
    data: { values: { cutLo: boolean; cutHi: boolean; txt: string }[] }
    layer: { encoding?: { x?: { scale?: { domain?: number[] } } } }[]
  }
  assert.deepEqual(
    spec.data.values.map((r) => [r.cutLo, r.cutHi, r.txt.includes('whisker')]),
    bars.map(() => [false, false, false]),
  )
  const [d0, d1] = spec.layer[0]?.encoding?.x?.scale?.domain ?? []
  assert.ok((d0 ?? 0) <= -35 && (d1 ?? 0) >= 32, `domain ${d0}..${d1}`)
})
