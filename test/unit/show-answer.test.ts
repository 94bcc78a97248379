/**
 * `show` answered first (src/output/text/_show-answer.ts) on generated rows without noise: 12
 * pairs × 3 sizes of p2p.latency (10, 12.5, 15 µs) and p2p.bw_uni (20 GB/s), and two
 * concurrent TP4 all_reduce groups at two sizes. One row per series at its smallest and
 * largest size with the range over pairs or groups; every line only with --all or when few.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Row } from '../../src/model/index.ts'
import { endSizes, showAnswer, showAnswerText, showGroups, showTable } from '../../src/output/index.ts'
import { genSet } from '../diff-gen.ts'

function rows(): Row[] {
  const out = genSet({ seed: 1, pairs: 12, sizes: 3, n: 4, sigma: 0 }).rows
  for (const [group, t] of [
    ['0-3', 20e-6],
    ['4-7', 21e-6],
  ] as const)
    for (const sizeBytes of [8, 1 << 20])
      out.push({
        bench: 'nccl.all_reduce',
        metric: 'time',
        unit: 's',
        value: sizeBytes === 8 ? t : 100 * t,
        sizeBytes,
        ranks: 4,
        src: null,
        dst: null,
        placement: 'in-place',
        p2p: null,
        timer: 'cpu',
        trial: 0,
        source: { file: 'raw/x.txt', line: 1 },
        group,
        grouping: 'tp4',
      })
  return out
}

test('rows grouped per series and size, medians per pair or group; the ends of each series kept', () => {
  const groups = showGroups(rows())
  assert.equal(groups.length, 8)
  assert.deepEqual(
    endSizes(groups).map((g) => [g.bench, g.who, g.size, g.medians.length]),
    [
      ['p2p.latency p2p=disabled ce', '12 cross-GPU pairs', 8, 12],
      ['p2p.latency p2p=disabled ce', '12 cross-GPU pairs', 128, 12],
      ['p2p.bw_uni p2p=disabled ce', '12 cross-GPU pairs', 8, 12],
      ['p2p.bw_uni p2p=disabled ce', '12 cross-GPU pairs', 128, 12],
      ['nccl.all_reduce', 'tp4: 2 groups of 4 ranks', 8, 2],
      ['nccl.all_reduce', 'tp4: 2 groups of 4 ranks', 1 << 20, 2],
    ],
  )
})

test('the answer: what the set holds, small copies, collectives; the table; what was left out', () => {
  const a = showAnswer(rows(), 292)
  assert.deepEqual(a.answer, [
    '292 rows of p2p.latency, p2p.bw_uni, nccl.all_reduce, sizes 8 B–1 MiB.',
    'Small copies between GPUs (p2p.latency p2p=disabled ce, 8 B): median 10 µs over 12 cross-GPU pairs.',
    'nccl.all_reduce at 8 B: tp4: 2 groups of 4 ranks 20–21 µs.',
  ])
  assert.deepEqual(a.table?.rows[1], ['p2p.latency p2p=disabled ce', 'latency', '12 cross-GPU pairs', '128 B', '15 µs'])
  assert.deepEqual(a.left, [
    '2 other sizes of these series, and each pair or group on its own (--all prints every line; --json has them all)',
  ])
  const text = showAnswerText(rows(), 292)
  assert.ok(text.startsWith('What does this set hold, and what did it measure?\n  292 rows'), text)
  assert.doesNotMatch(text, /Every line:/)
  assert.ok(showAnswerText(rows(), 292, true).endsWith(`\nEvery line:\n${showTable(rows())}`))
  // Few lines (one pair): every line follows the answer without asking.
  const few = genSet({ seed: 1, pairs: 1, sizes: 3, n: 2, sigma: 0 }).rows
  assert.match(showAnswerText(few, few.length), /\nEvery line:\n/)
})
