/**
 * A diff chart bar tells one story: its colour, its printed value, its "~" and its whisker say
 * what its cells say together (every cell significant one way, none, or mixed), and the text
 * answer of `gpucomm diff` names the same verdict for that group.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { DiffCell } from '../../../src/diff/index.ts'
import { diffAnswer } from '../../../src/diff/index.ts'
import { chartsOf, diffCharts } from '../../../src/output/index.ts'
import { diffCell, diffResult } from '../../diff-cells.ts'
import { simSet } from '../../simset.ts'

type Bar = { cell: string; pct: number; lo: number; hi: number; dir: string; txt: string }
const barsOf = (spec: unknown): Bar[] => (spec as { data: { values: Bar[] } }).data.values

/** all_reduce time of one 8-rank group at 8 B, one cell per buffer placement. */
function tp8(placement: 'in-place' | 'out-of-place', over: Partial<DiffCell>): DiffCell {
  return diffCell(
    { bench: 'nccl.all_reduce', metric: 'time', group: '0-7', ranks: 8, grouping: 'tp8', sizeBytes: 8, placement },
    { key: `ar tp8 ${placement}`, ...over },
  )
}

test('a bar of one significant and one unchanged cell says mixed (1/2), its whisker the cells’ range; the answer says so too', () => {
  const cells = [
    tp8('in-place', { delta: 0.147, deltaCi: [0.13, 0.16], worse: 0.147, significant: true }),
    tp8('out-of-place', { delta: 0.139, deltaCi: [0.12, 0.17], worse: 0.139, significant: false, p: 0.065 }),
  ]
  const d = diffResult(cells)
  const [bar, ...rest] = barsOf(diffCharts(d, { simulated: false })[0]?.spec)
  assert.equal(rest.length, 0)
  assert.ok(bar)
  assert.match(bar.dir, /^mixed/)
  assert.equal(bar.txt, '+14.3 % (1/2 significant)')
  assert.deepEqual([bar.lo, bar.hi], [13.9, 14.7])
  // The text answer: the headline names the same verdict, the grouped row counts the same cells.
  const answer = diffAnswer(d)
  assert.match(answer.answer[0] ?? '', /\(mixed: 1 of 2 cells significant\)/)
  assert.equal(answer.table?.rows[0]?.at(-1), '1 worse, 1 ~')
})

test('a grey bar’s whisker holds 0: two unchanged cells that both moved +5 % span their CIs', () => {
  const same = { significant: false, p: 0.3, worse: 0.05 }
  const d = diffResult([
    tp8('in-place', { ...same, delta: 0.05, deltaCi: [-0.02, 0.11] }),
    tp8('out-of-place', { ...same, delta: 0.06, deltaCi: [-0.01, 0.12] }),
  ])
  const [bar] = barsOf(diffCharts(d, { simulated: false })[0]?.spec)
  assert.ok(bar)
  assert.match(bar.dir, /^no significant change/)
  assert.equal(bar.txt, '~ +5.50 %')
  assert.deepEqual([bar.lo, bar.hi], [-2, 12])
})

test('SIMULATED seed VM against bare metal: every grey bar’s whisker holds 0, every coloured one lies on its side', async () => {
  // Seed 6 drew two groups with some cells significant (once grey, whiskers +0.11 to +9.0 % and
  // +0.93 to +2.0 %); seed 7 one group with none (grey) and one with 1 of 12.
  const dirs = new Set<string>()
  for (const seed of [6, 7]) {
    const spec = { seed, trials: 6, bench: { sizes: [8, 64], iters: 4 }, sizes: [8, 64] }
    const a = await simSet({ preset: 'seed-vm', ...spec })
    const b = await simSet({ preset: 'baremetal-turin', ...spec })
    const [chart] = await chartsOf(b, 'diff', a)
    for (const v of barsOf(chart?.spec)) {
      const what = `seed ${seed}: ${v.cell}: ${v.dir} ${v.txt}, whisker ${v.lo} to ${v.hi}`
      dirs.add(v.dir.split(' (')[0] as string)
      assert.ok(v.lo <= v.pct && v.pct <= v.hi, what)
      if (v.dir.startsWith('no significant change')) assert.ok(v.lo <= 0 && v.hi >= 0, what)
      else if (v.dir.startsWith('faster')) assert.ok(v.hi < 0, what)
      else if (v.dir.startsWith('slower')) assert.ok(v.lo > 0, what)
      else assert.match(v.txt, /\(\d+\/\d+ significant\)$/, what)
    }
  }
  assert.deepEqual([...dirs].sort(), ['faster', 'mixed', 'no significant change', 'slower'])
})
