/**
 * `compareSet` (src/analysis/compare/_compare.ts) on hand-made time rows: the groupings in name order,
 * each one's median, n and CI, the winner, the ratio slowest/fastest, the Mann-Whitney p
 * between the two fastest, `pool`, the axes (`axisValue`), the rank counts the conclusions
 * read, the warnings and the bad-input lines. The p-values are worked out by hand from the
 * exact U distribution of two samples of 3 (20 equally likely orderings).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { ModelPreset } from '../../src/analysis/_types.ts'
import { axisValue, compareSet } from '../../src/analysis/compare/_compare.ts'
import type { Row } from '../../src/model/index.ts'
import type { Extra } from '../analysis/compare-rows.ts'
import { brief, row, setOf, trials } from '../analysis/compare-rows.ts'

const model: ModelPreset = {
  id: 'm',
  name: 'M',
  layers: 2,
  hidden: 1024,
  dtypeBytes: 2,
  batch: 1,
  allreducesPerLayer: 2,
  source: 's',
}

test('three groupings: name order, like with like, slowest/fastest, p between the two fastest, no winner at p ≥ 0.05', () => {
  const rows = [
    ...trials('tp8', '0-7', [8, 10, 12], { ranks: 8 }),
    ...trials('tp2', '0-1', [21, 22, 20], { ranks: 2 }),
    // tp4: two groups at once, against groupings of one group: per trial the median of its two, 6, 7.5, 4.
    ...trials('tp4', '0-3', [5, 9, 4], { ranks: 4 }),
    ...trials('tp4', '4-7', [7, 6, 4], { ranks: 4 }),
  ]
  const c = compareSet(setOf(rows))
  assert.deepEqual(
    [c.dir, c.id, c.simulated, c.by, c.pool, c.decode, c.warnings],
    ['sets/x', 'set-1', false, 'grouping', false, null, []],
  )
  const [b, ...more] = c.benches
  assert.deepEqual(more, [])
  assert.deepEqual([b?.bench, b?.metric, b?.groupings], ['nccl.all_reduce', 'time', ['tp2', 'tp4', 'tp8']])
  const z = b?.sizes[0]
  assert.equal(b?.sizes.length, 1)
  assert.deepEqual(z?.groupings.map(brief), [
    ['tp2', 3, 21, [null, null], 'single', [21, 22, 20]],
    ['tp4', 3, 6, [null, null], 'median', [6, 7.5, 4]],
    ['tp8', 3, 10, [null, null], 'single', [8, 10, 12]],
  ])
  assert.deepEqual(z?.groupings[1]?.groups, [
    { group: '0-3', n: 3, median: 5 },
    { group: '4-7', n: 3, median: 6 },
  ])
  // tp4 {4, 6, 7.5} against tp8 {8, 10, 12}: U = 0; P(U = 0) = 1/20, two-sided 0.1: no winner.
  assert.deepEqual([z?.sizeBytes, z?.winner, z?.ratio, z?.p], [8, null, 21 / 6, 0.1])
})

test('--pool: one value per launch, the median of what all its groups printed', () => {
  const rows = [
    ...trials('tp4', '0-3', [5, 9, 4]),
    ...trials('tp4', '4-7', [7, 6, 4]),
    ...trials('tp8', '0-7', [8, 10, 12]),
  ]
  const c = compareSet(setOf(rows), { pool: true })
  assert.equal(c.pool, true)
  const tp4 = c.benches[0]?.sizes[0]?.groupings[0]
  // Launch by launch, the groups pooled: {5, 7} → 6, {9, 6} → 7.5, {4, 4} → 4; three launches,
  // not six values (concurrent groups share their launch's state): no interval from 3.
  assert.deepEqual(brief(tp4), ['tp4', 3, 6, [null, null], 'pooled', [6, 7.5, 4]])
  // One group and pool: still 'single'.
  assert.equal(c.benches[0]?.sizes[0]?.groupings[1]?.combined, 'single')
})

test('rank counts reach the conclusion only when every row of a grouping agrees', () => {
  const US = 1e-6
  // tp4 1.6× faster at 8 B and 16 B (latency-bound, 6 pairs): the ring steps are the reason.
  const rows = (tp8At16: Extra) => [
    ...trials('tp8', '0-7', [16 * US, 16.2 * US, 15.8 * US], { ranks: 8 }),
    ...trials('tp4', '0-3', [10 * US, 10 * US, 10 * US], { ranks: 4 }),
    ...trials('tp8', '0-7', [17.6 * US, 17.6 * US, 17.6 * US], { sizeBytes: 16, ranks: 8, ...tp8At16 }),
    ...trials('tp4', '0-3', [11 * US, 11 * US, 11 * US], { sizeBytes: 16, ranks: 4 }),
  ]
  const reason = (extra: Extra) => compareSet(setOf(rows(extra))).benches[0]?.conclusions.map((x) => x.reason)
  assert.deepEqual(reason({}), [
    'time ≈ α here, and a ring all_reduce takes 2(n−1) steps, 14 at 8 ranks vs 6 at 4 (2.33×; the fixed cost of a ' +
      'call makes the measured ratio smaller)',
  ])
  assert.deepEqual(reason({ ranks: 16 }), [null])
  assert.deepEqual(reason({ ranks: null }), [null])
  const all = (r: number | null) => rows({}).map((x) => ({ ...x, ranks: x.grouping === 'tp8' ? r : x.ranks }))
  assert.deepEqual(
    compareSet(setOf(all(null))).benches[0]?.conclusions.map((x) => x.reason),
    [null],
  )
})

test('axisValue: env., host-axis (all, or one knob), grouping or the rank count, any field', () => {
  const r = row(1, {
    env: { NCCL_PROTO: 'LL' },
    hostAxis: { cstates: 'shallow', governor: 'performance' },
    ranks: 8,
    p2p: 'enabled',
  })
  assert.equal(axisValue(r, 'env.NCCL_PROTO'), 'LL')
  assert.equal(axisValue(r, 'env.NCCL_ALGO'), undefined)
  assert.equal(axisValue(r, 'host-axis'), 'cstates=shallow,governor=performance')
  assert.equal(axisValue(r, 'host-axis.governor'), 'performance')
  assert.equal(axisValue(row(1), 'host-axis'), undefined)
  assert.equal(axisValue(row(1), 'host-axis.governor'), undefined)
  assert.equal(axisValue(row(1), 'env.NCCL_PROTO'), undefined)
  // No grouping: a collective's rank count; a pair, or a row without ranks, has none.
  assert.equal(axisValue(r, 'grouping'), 'ranks=8')
  assert.equal(axisValue(row(1, { ranks: 2, src: 0, dst: 1 }), 'grouping'), undefined)
  assert.equal(axisValue(row(1), 'grouping'), undefined)
  assert.equal(axisValue(row(1, { grouping: 'tp4', ranks: 4 }), 'grouping'), 'tp4')
  assert.equal(axisValue(r, 'p2p'), 'enabled')
  assert.equal(axisValue(r, 'ranks'), '8')
  assert.equal(axisValue(r, 'env'), '{"NCCL_PROTO":"LL"}')
  assert.equal(axisValue(r, 'placement'), undefined)
  assert.equal(axisValue(r, 'group'), undefined)
})

test('by another axis: rows without a value are left out', () => {
  const rows = [
    ...trials('t', 'g', [3, 3, 3, 3, 3, 3], { env: { NCCL_PROTO: 'Simple' } }),
    ...trials('t', 'g', [1, 1, 1, 1, 1, 1], { env: { NCCL_PROTO: 'LL' } }),
    ...trials('t', 'g', [9, 9, 9]),
  ]
  const c = compareSet(setOf(rows), { by: 'env.NCCL_PROTO' })
  assert.equal(c.by, 'env.NCCL_PROTO')
  const z = c.benches[0]?.sizes[0]
  assert.deepEqual(
    z?.groupings.map((g) => [g.grouping, g.median]),
    [
      ['LL', 1],
      ['Simple', 3],
    ],
  )
  assert.deepEqual([z?.winner, z?.ratio], ['LL', 3])
})

test('one value of the axis: a warning, no winner, ratio or p', () => {
  const c = compareSet(
    setOf([...trials('tp8', '0-7', [1, 2, 3]), ...trials('tp8', '0-7', [1, 2, 3], { sizeBytes: 64 })]),
    {},
  )
  assert.deepEqual(c.warnings, ['nccl.all_reduce: only tp8 measured; nothing to compare it with'])
  assert.deepEqual(
    c.benches[0]?.sizes.map((z) => [z.sizeBytes, z.winner, z.ratio, z.p, z.groupings.length]),
    [
      [8, null, null, null, 1],
      [64, null, null, null, 1],
    ],
  )
  assert.deepEqual(c.benches[0]?.conclusions, [])
  // Two values, but never at one size: the bench names both and warns of nothing; no size compares.
  const apart = compareSet(setOf([...trials('a', 'g', [1, 2, 3]), ...trials('b', 'g', [1, 2, 3], { sizeBytes: 64 })]))
  assert.deepEqual([apart.warnings, apart.benches[0]?.groupings], [[], ['a', 'b']])
  assert.deepEqual(
    apart.benches[0]?.sizes.map((z) => z.winner),
    [null, null],
  )
})

test('nothing to compare: one line naming the set and what is missing; with a model, a warning', () => {
  const bad = (rows: Row[], by?: string) => () => compareSet(setOf(rows), by ? { by } : {})
  assert.throws(bad([row(1, { metric: 'busbw', unit: 'B/s' })]), {
    message: 'sets/x: no time rows with message sizes to compare',
  })
  assert.throws(bad([]), { message: 'sets/x: no time rows with message sizes to compare' })
  assert.throws(bad([row(1, { grouping: 'tp8' })], 'p2p'), {
    message: 'sets/x: no time rows carry "p2p"; try --by grouping, placement, env.NAME or host-axis',
  })
  assert.throws(bad([row(1, { src: 0, dst: 1 })]), {
    message: 'sets/x: no time rows carry "grouping"; try --by p2p, placement, env.NAME or host-axis',
  })
  assert.throws(bad([row(1, { grouping: 'tp8' })], 'host-axis'), {
    message: 'sets/x: no time rows carry "host-axis"; try --by grouping, p2p, placement or env.NAME',
  })
  const c = compareSet(setOf([row(1, { src: 0, dst: 1 })]), { model })
  assert.deepEqual(c.benches, [])
  assert.deepEqual(c.warnings, [
    'no time rows with message sizes carry "grouping": nothing to compare, decode model only',
  ])
  assert.equal(c.decode?.model.name, 'M')
  assert.equal(c.decode?.payloadBytes, 2048)
})

test('rows to compare and a model: the comparison, the decode model, and no warning', () => {
  const six = (v: number) => [v, v, v, v, v, v]
  const c = compareSet(setOf([...trials('tp8', '0-7', six(2)), ...trials('tp4', '0-3', six(1))], true), { model })
  assert.deepEqual([c.warnings, c.simulated, c.benches[0]?.sizes[0]?.winner], [[], true, 'tp4'])
  assert.equal(c.decode?.model.id, 'm')
})
