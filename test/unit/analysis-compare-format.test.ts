/**
 * `compare` as Markdown and CSV (src/analysis/compare/_compare-format.ts) on a hand-made comparison:
 * the SIMULATED line, the heading, the note on how several groups were combined (concurrent
 * groups or pairs, slowest per trial or pooled), one table per bench with every axis value's
 * median [CI] n (−∞/∞ for an open end, - where a value was not measured), ratio, winner and p,
 * the conclusions and warnings; the CSV in base units with empty cells for unknowns.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Comparison } from '../../src/analysis/_types.ts'
import { combinedNote, comparisonCsv, comparisonMarkdown } from '../../src/analysis/compare/_compare-format.ts'
import { comparison, stat } from '../analysis/compare-made.ts'

const CONCURRENT =
  "tp4: concurrent groups, one value per trial, the slowest group's (a step waits for the slowest group; --pool pools them instead)"

test('Markdown: heading, note, the table with open CI ends and unmeasured cells, conclusions, warnings', () => {
  assert.equal(
    comparisonMarkdown(comparison()),
    [
      'Comparison by `grouping` of result set `set-a` (`sets/a`)',
      '',
      `- ${CONCURRENT}`,
      '',
      '### nccl.all_reduce (time per call; median [95% CI])',
      '',
      '| size | tp4 | tp8 | ratio | winner | p |',
      '|---:|---:|---:|---:|---|---:|',
      '| 8 B | 10 µs [9 µs, 11 µs] n=6 | 16 µs [-∞, ∞] n=3 | 1.60× | tp4 | 0.0022 |',
      '| 1 MiB | - | 2.5 ms [2.4 ms, ∞] n=3 | - | - | - |',
      '',
      '- tp4 is 1.60 ± 0.02× faster than tp8 at 8 B (latency-bound)',
      '',
      '> warning: nccl.all_gather: only tp8 measured; nothing to compare it with',
      '',
    ].join('\n'),
  )
})

test('Markdown: SIMULATED first; no note for single groups; no warnings, one newline at the end', () => {
  const c = comparison({ simulated: true, warnings: [] })
  const b = c.benches[0]!
  b.sizes = [{ sizeBytes: 64, groupings: [stat('tp8', 2e-6, [1e-6, 3e-6], 9)], winner: null, ratio: null, p: null }]
  b.groupings = ['tp8']
  assert.equal(
    comparisonMarkdown(c),
    [
      '**SIMULATED data**: these numbers come from gpucomm sim, not from hardware.',
      '',
      'Comparison by `grouping` of result set `set-a` (`sets/a`)',
      '',
      '### nccl.all_reduce (time per call; median [95% CI])',
      '',
      '| size | tp8 | ratio | winner | p |',
      '|---:|---:|---:|---|---:|',
      '| 64 B | 2 µs [1 µs, 3 µs] n=9 | - | - | - |',
      '',
      '- tp4 is 1.60 ± 0.02× faster than tp8 at 8 B (latency-bound)',
      '',
    ].join('\n'),
  )
  b.conclusions = []
  assert.ok(comparisonMarkdown(c).endsWith('| 64 B | 2 µs [1 µs, 3 µs] n=9 | - | - | - |\n'))
})

test('the combined note: concurrent groups or pairs, slowest per trial or pooled, each name once', () => {
  assert.equal(combinedNote(comparison()), CONCURRENT)
  assert.equal(
    combinedNote(comparison({ pool: true })),
    'tp4: one value per trial, the median of all its concurrent groups printed (--pool)',
  )
  const pairs = (pool: boolean, second = ['2→3']): Comparison => {
    const c = comparison({ pool })
    const [z8, z1m] = c.benches[0]!.sizes
    z8!.groupings = [stat('all', 1e-6, [null, null], 3, pool ? 'pooled' : 'max', ['0→1', '1→0'])]
    z1m!.groupings = [
      stat('all', 2e-6, [null, null], 3, pool ? 'pooled' : 'max', second),
      stat('one', 2e-6, [null, null], 3, 'single', ['0-3']),
    ]
    return c
  }
  assert.equal(
    combinedNote(pairs(false)),
    "all: several pairs, one value per trial, the slowest pair's (--pool pools the pairs instead)",
  )
  assert.equal(combinedNote(pairs(true)), "all: one value per trial, the median of every pair's values pooled (--pool)")
  // One size with groups that are not pairs: the groups' words.
  assert.equal(
    combinedNote(pairs(true, ['0-3', '4-7'])),
    'all: one value per trial, the median of all its concurrent groups printed (--pool)',
  )
  // Pairs beside a group in one sample: not pairs only.
  assert.equal(
    combinedNote(pairs(true, ['2→3', '0-3'])),
    'all: one value per trial, the median of all its concurrent groups printed (--pool)',
  )
  const two = comparison()
  two.benches.push({ ...two.benches[0]!, bench: 'nccl.all_gather' })
  two.benches[1]!.sizes = [
    {
      sizeBytes: 8,
      groupings: [stat('tp2', 1e-6, [null, null], 3, 'max', ['0-1', '2-3'])],
      winner: null,
      ratio: null,
      p: null,
    },
  ]
  assert.ok(combinedNote(two)?.startsWith('tp2, tp4: concurrent groups'))
  assert.equal(combinedNote(comparison({ benches: [] })), null)
})

test('the combined note: groupings read as the median of their groups (like with like) named first, sorted', () => {
  const LIKE =
    'tp2, tp8: against a grouping of another group count, one value per trial, the median of its concurrent ' +
    'groups (like with like: the slowest of two against one group is biased slower)'
  const c = comparison({ benches: [] })
  const size = (...groupings: ReturnType<typeof stat>[]) => ({
    sizeBytes: 8,
    groupings,
    winner: null,
    ratio: null,
    p: null,
  })
  c.benches.push({
    ...comparison().benches[0]!,
    sizes: [
      size(stat('tp8', 1e-6, [null, null], 3, 'median', ['0-3', '4-7']), stat('tp1', 1e-6, [null, null], 3)),
      size(stat('tp2', 1e-6, [null, null], 3, 'median', ['0-1', '2-3']), stat('tp8', 1e-6, [null, null], 3, 'median')),
    ],
  })
  assert.equal(combinedNote(c), LIKE)
  c.benches[0]!.sizes.push(size(stat('tp4', 1e-6, [null, null], 3, 'max', ['0-3', '4-7'])))
  assert.equal(combinedNote(c), `${LIKE}; ${CONCURRENT}`)
})

test('CSV: one line per bench, size and axis value, in base units; unknowns empty', () => {
  const c = comparison({ by: 'env.NCCL_PROTO' })
  // 0.1 + 0.2 is 0.30000000000000004: printed to 12 significant digits.
  c.benches[0]!.sizes[0]!.p = 0.1 + 0.2
  c.benches[0]!.sizes[1]!.groupings[0]!.median = Number.NaN
  assert.equal(
    comparisonCsv(c),
    [
      'bench,size_bytes,env.NCCL_PROTO,n,median_s,ci_lo_s,ci_hi_s,combined,winner,ratio,p',
      'nccl.all_reduce,8,tp4,6,0.00001,0.000009,0.000011,max,tp4,1.6,0.3',
      'nccl.all_reduce,8,tp8,3,0.000016,,,single,tp4,1.6,0.3',
      'nccl.all_reduce,1048576,tp8,3,,0.0024,,single,,,',
      '',
    ].join('\n'),
  )
  assert.equal(
    comparisonCsv(comparison({ benches: [] })),
    'bench,size_bytes,grouping,n,median_s,ci_lo_s,ci_hi_s,combined,winner,ratio,p\n',
  )
})
