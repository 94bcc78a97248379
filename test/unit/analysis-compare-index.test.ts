/**
 * What `compare` takes from the rows (src/analysis/compare/_compare-index.ts, through compareSet and
 * perTrialMax) on hand-made rows: which rows are time rows, in-place rows only where a bench
 * has no out-of-place ones, the requested size before the printed one, sizes in numeric and
 * benches in name order, launches told apart by point, file and trial (one value per launch:
 * the median of its iterations), and how groups are named.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { compareSet, perTrialMax } from '../../src/analysis/compare/_compare.ts'
import type { Row } from '../../src/model/index.ts'
import type { Extra } from '../analysis/compare-rows.ts'
import { row, setOf, trials } from '../analysis/compare-rows.ts'

test('one value per launch: the median of its iterations; launches told apart by point, file and trial', () => {
  const it = (v: number, extra: Extra) => row(v, { grouping: 'a', group: '0-1', ...extra })
  const rows = [
    // point p1 trial 1: iterations 1, 2, 9 → 2; point p1 trial 2: 1, 3 → 2 (even: the middle two).
    it(1, { point: 'p1', trial: 1 }),
    it(2, { point: 'p1', trial: 1 }),
    it(9, { point: 'p1', trial: 1 }),
    it(1, { point: 'p1', trial: 2 }),
    it(3, { point: 'p1', trial: 2 }),
    // point p2 trial 1 is another launch: 6.
    it(6, { point: 'p2', trial: 1 }),
    // No point: the file names the launch (b.txt and c.txt, both trial 1).
    it(4, { trial: 1, source: { file: 'b.txt', line: 1 } }),
    it(5, { trial: 1, source: { file: 'c.txt', line: 1 } }),
    it(7, { trial: 1, source: { file: 'c.txt', line: 2 } }),
    ...trials('b', '0-1', [1, 1, 1]),
  ]
  const a = compareSet(setOf(rows)).benches[0]?.sizes[0]?.groupings[0]
  assert.deepEqual([a?.n, a?.values], [5, [2, 2, 6, 4, 6]])
  assert.equal(a?.median, 4)
  // The group's own n and median are over every iteration: 1,1,2,3,4,5,6,7,9.
  assert.deepEqual(a?.groups, [{ group: '0-1', n: 9, median: 4 }])
})

test('sizes in numeric order, the requested size before the printed one, benches by name', () => {
  const at = (bench: string, sizeBytes: number, extra: Extra = {}) => [
    ...trials('x', 'g', [1, 2, 3], { bench, sizeBytes, ...extra }),
    ...trials('y', 'g', [4, 5, 6], { bench, sizeBytes, ...extra }),
  ]
  const rows = [
    ...at('nccl.all_reduce', 1024),
    ...at('nccl.all_reduce', 64),
    ...at('nccl.all_reduce', 8),
    // all_gather's 8 B and 16 B requests both print 0 B: two sizes.
    ...at('nccl.all_gather', 0, { requestedBytes: 16 }),
    ...at('nccl.all_gather', 0, { requestedBytes: 8 }),
  ]
  const c = compareSet(setOf(rows))
  assert.deepEqual(
    c.benches.map((b) => [b.bench, b.sizes.map((z) => z.sizeBytes)]),
    [
      ['nccl.all_gather', [8, 16]],
      ['nccl.all_reduce', [8, 64, 1024]],
    ],
  )
  const z = c.benches[1]?.sizes[2]
  // p = 0.1: the lower median is not a winner.
  assert.deepEqual([z?.winner, z?.ratio, z?.p], [null, 5 / 2, 0.1])
})

test('which rows are time rows: seconds, time or latency, not a CPU-timed p2p bench, with a size', () => {
  const two = (extra: Extra) => [...trials('x', 'g', [1, 2, 3], extra), ...trials('y', 'g', [4, 5, 6], extra)]
  const rows = [
    ...two({ bench: 'b.time' }),
    ...two({ bench: 'p2p.latency', metric: 'latency', timer: 'gpu' }),
    ...two({ bench: 'nccl.cpu', timer: 'cpu' }),
    ...two({ bench: 'p2p.cpu', metric: 'latency', timer: 'cpu' }),
    ...two({ bench: 'b.busbw', metric: 'busbw', unit: 'B/s' }),
    ...two({ bench: 'b.algbw', metric: 'algbw' }),
    ...two({ bench: 'b.ms', unit: 'B/s' }),
    ...two({ bench: 'b.nosize', sizeBytes: null }),
  ]
  assert.deepEqual(
    compareSet(setOf(rows)).benches.map((b) => b.bench),
    ['b.time', 'nccl.cpu', 'p2p.latency'],
  )
})

test('in-place rows only where the bench has no out-of-place ones', () => {
  const two = (bench: string, placement: Row['placement'], base: number) => [
    ...trials('x', 'g', [base, base, base], { bench, placement }),
    ...trials('y', 'g', [base + 1, base + 1, base + 1], { bench, placement }),
  ]
  const rows = [...two('both', 'in-place', 50), ...two('both', 'out-of-place', 1), ...two('inplace', 'in-place', 7)]
  const c = compareSet(setOf(rows))
  assert.deepEqual(
    c.benches.map((b) => [b.bench, b.sizes[0]?.groupings.map((g) => g.median)]),
    [
      ['both', [1, 2]],
      ['inplace', [7, 8]],
    ],
  )
})

test('groups named by group, pair (→, ? for no destination), rank count, or -', () => {
  const rows = [
    row(1, { grouping: 'a', trial: 1, group: '0-3', src: 5, ranks: 4 }),
    row(2, { grouping: 'a', trial: 1, src: 0, dst: 1 }),
    row(3, { grouping: 'a', trial: 1, src: 2 }),
    row(4, { grouping: 'a', trial: 1, ranks: 8 }),
    row(5, { grouping: 'a', trial: 1 }),
    row(6, { grouping: 'a', trial: 2, src: 0, dst: 1 }),
  ]
  const a = compareSet(setOf(rows)).benches[0]?.sizes[0]?.groupings[0]
  // First appearance order over the rows; launch 1's slowest is 5, launch 2's only value 6.
  assert.deepEqual(
    a?.groups.map((g) => [g.group, g.n]),
    [
      ['0-3', 1],
      ['0→1', 2],
      ['2→?', 1],
      ['ranks=8', 1],
      ['-', 1],
    ],
  )
  assert.deepEqual([a?.values, a?.combined], [[5, 6], 'max'])
})

test('perTrialMax: per launch the slowest group, each group the median of its iterations', () => {
  const rows = [
    row(5, { group: '0-3', trial: 1 }),
    row(7, { group: '4-7', trial: 1 }),
    row(1, { group: '4-7', trial: 1 }),
    row(3, { group: '4-7', trial: 1 }),
    row(9, { group: '0-3', trial: 2 }),
    row(6, { group: '4-7', trial: 2, bench: 'other', sizeBytes: 64 }),
  ]
  // Launch 1: 0-3 gives 5, 4-7 the median of 7, 1, 3 = 3; launch 2: 9 and 6 (any bench or size).
  assert.deepEqual(perTrialMax(rows), [5, 9])
  assert.deepEqual(perTrialMax([]), [])
})
