/**
 * One comparison, one count (issue 32): `diffCounts` sorts tested cells into better, worse, no
 * significant change and untestable, and the CLI's answer, the report's summary and the diff
 * chart all print that count for the same diff of the seed-VM and bare-metal simulator sets.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { analyze } from '../../src/analysis/index.ts'
import { countsText, diffAnswerText, diffCounts, diffSets } from '../../src/diff/index.ts'
import { chartsOf } from '../../src/output/index.ts'
import { summaryLines } from '../../src/output/report/_summary.ts'
import { loadSamples } from '../../src/resultset/index.ts'
import { diffCell, diffResult } from '../diff-cells.ts'
import { simSet } from '../simset.ts'

test('diffCounts: significant cells by direction, the rest by whether p ≤ alpha was reachable', () => {
  const faster = { delta: -0.5, worse: -0.5, regression: false }
  const r = diffResult([
    diffCell({ src: 0, dst: 1 }), // significant, B slower: worse
    diffCell({ src: 0, dst: 2 }, faster), // significant, B faster: better
    diffCell({ src: 0, dst: 3 }, faster),
    diffCell({ src: 1, dst: 0 }, { significant: false, regression: false }), // ~
    diffCell({ src: 1, dst: 2 }, { significant: false, regression: false, reachable: false }), // untestable
    diffCell({ src: 1, dst: 3, metric: 'bandwidth' }, { tested: false, significant: false }), // shown only
  ])
  const n = diffCounts({ ...r, onlyA: [r.cells[0]], onlyB: [] } as never)
  assert.deepEqual(n, { cells: 6, tested: 5, better: 2, worse: 1, same: 1, untestable: 1, onlyA: 1, onlyB: 0 })
  assert.equal(
    countsText(n, 0.05),
    'Of 5 tested cells 2 are better in B, 1 worse, 1 without a significant change, 1 with too few trials ' +
      'to test (p ≤ 0.05 is out of reach).',
  )
})

test('the CLI answer, the report summary and the diff chart give one count for one diff', async () => {
  const bench = { sizes: [8, 512, 32768], iters: 3 }
  const vm = await simSet({ preset: 'seed-vm', seed: 3, trials: 6, bench })
  const bm = await simSet({ preset: 'baremetal-turin', seed: 3, trials: 6, bench })
  const b = await loadSamples(bm)
  const d = diffSets(await loadSamples(vm), b, { allowSim: true })
  const n = diffCounts(d)
  assert.ok(n.better > 0 && n.worse + n.same > 0, JSON.stringify(n))
  const sentence = countsText(n, d.alpha)
  const cli = diffAnswerText(d)
  const summary = summaryLines(await analyze(b), undefined, d)
  const [chart] = await chartsOf(bm, 'diff', vm, true)
  const subtitle = [(chart?.spec as { title?: { subtitle?: string[] } }).title?.subtitle ?? []].flat()
  assert.ok(
    cli.split('\n').some((l) => l.trim() === sentence),
    cli,
  )
  assert.ok(summary.includes(sentence), summary.join('\n'))
  assert.ok(subtitle.includes(sentence), subtitle.join('\n'))
  assert.ok(chart?.caption.includes(sentence))
  // The summary's first item is the diff's own headline (what changed, with its numbers).
  assert.match(
    summary[0] ?? '',
    /^Against the baseline \S+: Largest change: p2p\.latency latency .* → .*, median −9\d %/,
  )
})
