/**
 * The diff answered first (src/diff/_digest.ts) on hand-made cells: 12 cross-GPU pairs of two
 * link classes and 4 GPUs to themselves at two sizes, plus two concurrent TP4 groups. The
 * answer names the largest change over all pairs with B's range per class; the table has one
 * row per kind of pair and class at one size; the rest is counted with its flag.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { DiffCell } from '../../src/diff/index.ts'
import { answerSizes, diffAnswer, diffAnswerText, digestGroups } from '../../src/diff/index.ts'
import { diffCell, diffResult, summary } from '../diff-cells.ts'

const near = (src: number, dst: number): boolean => src < 2 === dst < 2
const classes = { a: () => 'PHB', b: (s: number, d: number) => (near(s, d) ? 'NODE' : 'SYS') }

/** Latency cells of every ordered pair of GPUs 0-3 and each GPU to itself, at 8 B and 1 MiB. */
function latencyCells(): DiffCell[] {
  const out: DiffCell[] = []
  let k = 0
  for (const size of [8, 1 << 20])
    for (let src = 0; src < 4; src++)
      for (let dst = 0; dst < 4; dst++) {
        k++
        const same = src === dst
        // A: 13.6–13.9 µs host-staged; B: 0.40 µs near, 0.48 µs far (1 MiB adds 40 µs to both).
        const a = same ? 1.4e-6 : 13.6e-6 + (k % 4) * 0.1e-6 + (size > 8 ? 40e-6 : 0)
        const b = (same ? 1.4e-6 : near(src, dst) ? 0.4e-6 : 0.48e-6) + (size > 8 ? 40e-6 : 0)
        out.push(
          diffCell(
            { src, dst, sizeBytes: size, p2p: 'enabled' },
            {
              key: `lat ${src} ${dst} ${size}`,
              a: summary(a, [a, a]),
              b: summary(b, [b, b]),
              delta: b / a - 1,
              significant: !same,
              worse: same ? 0 : b / a - 1,
              regression: false,
              ...(same ? {} : { changed: [{ field: 'peerAccess' as const, a: 'no', b: 'yes' }] }),
            },
          ),
        )
      }
  return out
}

/** all_reduce time of two concurrent TP4 groups, in- and out-of-place, at 8 B, 1 MiB and 64 MiB. */
function groupCells(): DiffCell[] {
  const out: DiffCell[] = []
  for (const size of [8, 1 << 20, 1 << 26])
    for (const group of ['0-3', '4-7'])
      for (const placement of ['in-place', 'out-of-place'] as const)
        out.push(
          diffCell(
            { bench: 'nccl.all_reduce', metric: 'time', group, ranks: 4, grouping: 'tp4', sizeBytes: size, placement },
            {
              key: `ar ${group} ${placement} ${size}`,
              delta: 0.01,
              significant: false,
              worse: 0.01,
              regression: false,
            },
          ),
        )
  return out
}

test('the answer names the largest change over every pair, its mechanism and B per link class', () => {
  const r = diffResult([...groupCells(), ...latencyCells()])
  const a = diffAnswer(r, classes)
  assert.equal(a.question, 'What changed from A (runs/a) to B (runs/b)?')
  assert.equal(
    a.answer[0],
    'Largest change: p2p.latency latency (p2p=enabled), 12 cross-GPU pairs at 8 B: 13.6–13.9 µs → 400–480 ns, ' +
      'median −97 % (better); peer access: no → yes; by link class: PHB → NODE 400 ns, PHB → SYS 480 ns.',
  )
  assert.equal(a.answer[1], 'Of 44 tested cells 24 are better in B, 0 worse, 20 without a significant change.')
})

test('the table: one row per kind of pair and class, or per grouping, at the smallest size of a latency', () => {
  const r = diffResult([...groupCells(), ...latencyCells()])
  const rows = answerSizes(digestGroups(r, classes))
  assert.deepEqual(
    rows.map((g) => [g.who, g.size, g.cells.length]),
    [
      ['tp4: 2 groups of 4', 8, 4],
      ['4 GPUs to itself', 8, 4],
      ['4 cross-GPU pairs (PHB → NODE)', 8, 4],
      ['8 cross-GPU pairs (PHB → SYS)', 8, 8],
    ],
  )
  const table = diffAnswer(r, classes).table
  assert.deepEqual(table?.rows[2], [
    'p2p.latency latency',
    'p2p=enabled',
    '4 cross-GPU pairs (PHB → NODE)',
    '8 B',
    '13.6–13.9 µs',
    '400 ns',
    '−97 %',
    '4 better',
  ])
  assert.equal(table?.rows[0]?.[7], '4 ~')
  // A bandwidth answers at its largest size.
  const bw = latencyCells().map((c) => ({
    ...c,
    bench: 'p2p.bw_uni',
    metric: 'bandwidth' as const,
    better: 'higher' as const,
  }))
  assert.deepEqual(
    answerSizes(digestGroups(diffResult(bw))).map((g) => g.size),
    [1 << 20, 1 << 20],
  )
})

test('many cells: the answer alone, what was left out with its flag; --all or few cells add every cell', () => {
  const r = diffResult([...groupCells(), ...latencyCells()])
  const text = diffAnswerText(r, {}, { classes })
  assert.ok(text.startsWith('What changed from A (runs/a) to B (runs/b)?\n  Largest change: '), text)
  assert.doesNotMatch(text, /Every cell:/)
  assert.match(text, /^- 24 tested cells at other sizes \(--all prints every cell; /m)
  const all = diffAnswerText(r, {}, { classes, all: true })
  assert.match(all, /\nEvery cell:\nA: runs\/a: [\s\S]*\n3→3 +1 MiB /)
  assert.doesNotMatch(all, /Left out:/)
  const few = diffResult(latencyCells().slice(0, 16))
  assert.match(diffAnswerText(few, {}, {}), /\nEvery cell:\n/)
  const sim = diffAnswerText(diffResult(latencyCells(), { simulated: true }), {}, { all: true })
  assert.equal(sim.match(/SIMULATED data/g)?.length, 1, 'said once, first')
  assert.ok(sim.startsWith('SIMULATED data'))
})
