/**
 * `compare` on the simulator, whose truth is known: concurrent groups combined per trial as
 * the slowest (or pooled with --pool), per-grouping medians with finite 95 % CIs at the
 * sweep's default trials, the one-line conclusion per size band with its α–β reason, and the
 * four output formats.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Comparison } from '../../src/analysis/index.ts'
import { compare, compareSet, perTrialMax } from '../../src/analysis/index.ts'
import { makeRow } from '../../src/model/index.ts'
import { trueTime } from '../../src/sim/index.ts'
import { SPEC_DEFAULTS } from '../../src/sweep/index.ts'
import { cli } from '../helpers.ts'
import { simLoaded } from '../sim-loaded.ts'
import { writeSet } from './generated.ts'

const TP = [
  [0, 1, 2, 3, 4, 5, 6, 7],
  [0, 1, 2, 3],
  [4, 5, 6, 7],
]
const SIZES = [8, 64, 512, 4096, 32768, 262144, 2097152, 16777216, 67108864]
const seedVm = (seed: number, trials: number) =>
  simLoaded({ preset: 'seed-vm', seed, trials, groups: TP, sizes: SIZES })

test('concurrent groups: one value per trial, the slowest group; --pool pools them', () => {
  const row = (group: string, trial: number, value: number) =>
    makeRow({
      bench: 'nccl.all_reduce',
      metric: 'time',
      unit: 's',
      value,
      group,
      trial,
      source: { file: 'x', line: 1 },
    })
  const rows = [
    row('0-3', 1, 5),
    row('4-7', 1, 7),
    row('0-3', 2, 9),
    row('4-7', 2, 6),
    row('0-3', 3, 4),
    row('4-7', 3, 4),
  ]
  assert.deepEqual(perTrialMax(rows), [7, 9, 4])
})

test('one value per launch on every path: a launch that prints 40 iterations counts once', () => {
  // Two settings of one pair, 3 launches each, 40 iterations per launch; B is 10 % slower.
  const rows = ['A', 'B'].flatMap((v, vi) =>
    [1, 2, 3].flatMap((trial) =>
      Array.from({ length: 40 }, (_, i) =>
        makeRow({
          bench: 'p2p.latency',
          metric: 'latency',
          unit: 's',
          value: (1 + 0.1 * vi) * (1e-5 + 1e-8 * trial + 1e-9 * i),
          src: 0,
          dst: 1,
          sizeBytes: 8,
          trial,
          env: { KNOB: v },
          source: { file: 'x', line: 1 },
        }),
      ),
    ),
  )
  const c = compareSet({ dir: 'mem', manifest: {} as never, rows, diagnostics: [] }, { by: 'env.KNOB' })
  const z = c.benches[0]!.sizes[0]!
  assert.deepEqual(
    z.groupings.map((g) => [g.grouping, g.combined, g.n]),
    [
      ['A', 'single', 3],
      ['B', 'single', 3],
    ],
  )
  // Three launches a side cannot reach p ≤ 0.05 (the exact two-sided floor at 3 vs 3 is 0.1),
  // however many iterations each printed.
  assert.ok((z.p as number) >= 0.09, `p = ${z.p}`)
  // A winner only where the test says so: A's lower median at p ≥ 0.05 is not one.
  assert.equal(z.winner, null)
})

test('compare --by grouping on seed-vm at the default trials: finite CIs for tp8 and tp4 at every size, and the conclusion', async () => {
  const trials = SPEC_DEFAULTS.trials
  const c = await compare(seedVm(5, trials), { by: 'grouping' })
  const ar = c.benches.find((b) => b.bench === 'nccl.all_reduce')!
  assert.deepEqual(ar.groupings, ['tp4', 'tp8'])
  for (const z of ar.sizes) {
    const tp4 = z.groupings.find((g) => g.grouping === 'tp4')!
    const tp8 = z.groupings.find((g) => g.grouping === 'tp8')!
    // Like with like: TP4's two groups against TP8's one, so per trial the median of TP4's groups.
    assert.equal(tp4.combined, 'median')
    assert.equal(tp4.n, trials, 'tp4: one value per trial (the median of its groups)')
    assert.equal(tp8.combined, 'single')
    for (const g of [tp4, tp8])
      assert.ok(g.ci[0] !== null && g.ci[1] !== null, `${g.grouping} ${z.sizeBytes}: CI ${g.ci}`)
    assert.equal(z.winner, 'tp4')
    assert.ok((z.p as number) <= 0.05)
  }
  // One sentence per band; the latency band's ratio is the simulator's true ratio within its CI (± 5 %).
  const first = ar.conclusions[0]!
  assert.match(
    first.text,
    /^tp4 is \d\.\d\d( ± 0\.\d\d| \[\d\.\d\d, \d\.\d\d\])× faster than tp8 at 8 B–\d+ KiB \(latency-bound\): time ≈ α here, and a ring all_reduce takes 2\(n−1\) steps, 14 at 8 ranks vs 6 at 4/,
  )
  const truth = (g: number[]) =>
    trueTime('seed-vm', { kind: 'collective', collective: 'all_reduce', gpus: g, sizeBytes: 8 })
  // The typical TP4 group (the median of two is their mean), like with like against TP8's one.
  const want = truth(TP[0]!) / ((truth(TP[1]!) + truth(TP[2]!)) / 2)
  assert.ok(Math.abs(first.ratio / want - 1) < 0.05, `ratio ${first.ratio} vs true ${want}`)
  assert.ok(first.clear && first.ci[0]! > 1)
  assert.deepEqual(
    ar.conclusions.map((x) => x.band),
    ['latency', 'transition', 'bandwidth'],
  )
  assert.match(ar.conclusions[2]!.text, /bandwidth-bound.*2\(n−1\)\/n × the message/)
})

test('--pool: one value per launch (the pooled launch value), not one per group', async () => {
  const c = await compare(seedVm(6, 3), { by: 'grouping', pool: true })
  const tp4 = c.benches[0]!.sizes[0]!.groupings.find((g) => g.grouping === 'tp4')!
  assert.equal(tp4.combined, 'pooled')
  // 3 launches of two concurrent groups: 3 values (the old code counted 6, as if independent).
  assert.equal(tp4.n, 3)
  assert.equal(tp4.values.length, 3)
  assert.equal(c.pool, true)
})

test('--pool: the launch value is the median of every value its groups printed', () => {
  const row = (grouping: string, group: string, trial: number, value: number) =>
    makeRow({
      bench: 'nccl.all_reduce',
      metric: 'time',
      unit: 's',
      value,
      sizeBytes: 1024,
      grouping,
      group,
      trial,
      source: { file: 'x', line: 1 },
    })
  const rows = [
    ...[1, 2, 3].map((v) => row('tp4', '0-3', 1, v)),
    ...[10, 11, 12].map((v) => row('tp4', '4-7', 1, v)),
    ...[4, 5].map((v) => row('tp4', '0-3', 2, v)),
    ...[6, 7].map((v) => row('tp4', '4-7', 2, v)),
    row('tp8', '0-7', 1, 8),
    row('tp8', '0-7', 2, 8),
  ]
  const c = compareSet({ dir: 'mem', manifest: {} as never, rows, diagnostics: [] }, { pool: true })
  const tp4 = c.benches[0]!.sizes[0]!.groupings.find((g) => g.grouping === 'tp4')!
  // Launch 1: median of 1,2,3,10,11,12 = 6.5; launch 2: median of 4,5,6,7 = 5.5.
  assert.deepEqual(tp4.values, [6.5, 5.5])
})

test('compare --format text|md|csv|json on a stored SIMULATED set', async () => {
  const dir = await writeSet(seedVm(7, 6).rows)
  const text = await cli(['compare', dir])
  assert.equal(text.code, 0, text.stderr)
  assert.match(text.stdout, /^SIMULATED comparison by grouping/)
  assert.match(text.stdout, /^tp4: against a grouping of another group count, one value per trial, the median/m)
  // The answer first: the question, then the conclusions with their numbers and α–β reason.
  const lines = text.stdout.split('\n')
  assert.equal(lines[1], 'Which grouping is faster, by how much, and why?')
  assert.match(
    lines[2] ?? '',
    /^ {2}tp4 is \d\.\d\d( ± \d\.\d\d| \[\d\.\d\d, \d\.\d\d\])× faster than tp8 at 8 B–.*\(latency-bound\)/,
  )
  // Then one row per band of sizes (not one per size); every size only with --all.
  const rows = lines.filter((l) => l.startsWith('nccl.all_reduce  '))
  assert.deepEqual(
    rows.map((l) => l.split(/ {2,}/)[2]),
    ['latency-bound', 'between', 'bandwidth-bound'],
  )
  assert.ok(lines.length <= 25, `${lines.length} lines`)
  assert.doesNotMatch(text.stdout, / n=\d/)
  assert.match(text.stdout, /^- 9 sizes one by one: .*\(--all; --format md\|csv\|json\)$/m)
  const every = await cli(['compare', dir, '--all'])
  assert.equal([...every.stdout.matchAll(/ n=\d+ /g)].length, SIZES.length * 2)
  assert.ok(every.stdout.startsWith(text.stdout.split('\nLeft out:')[0] ?? ''), 'the same answer opens --all')
  const md = await cli(['compare', dir, '--format', 'md'])
  assert.match(md.stdout, /^\| size \| tp4 \| tp8 \| ratio \| winner \| p \|$/m)
  assert.match(md.stdout, /^- tp4 is .* faster than tp8/m)
  const csv = (await cli(['compare', dir, '--format', 'csv'])).stdout.trimEnd().split('\n')
  assert.equal(csv[0], 'bench,size_bytes,grouping,n,median_s,ci_lo_s,ci_hi_s,combined,winner,ratio,p')
  assert.equal(csv.length, 1 + SIZES.length * 2)
  const json = JSON.parse((await cli(['compare', dir, '--format', 'json'])).stdout) as Comparison
  assert.equal(json.benches[0]?.conclusions.length, 3)
  assert.equal((await cli(['compare', dir, '--format', 'svg'])).code, 2)
})
