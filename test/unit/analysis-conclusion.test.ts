/**
 * The one-line conclusions of `compare` (src/analysis/compare/_conclusion.ts) on hand-made size
 * comparisons: how sizes are split into latency-, transition- and bandwidth-bound bands (each
 * time within 4/3 of its grouping's floor; 4 × or more), the ratio and its 95 % CI (one value per
 * launch over the band, the geometric mean of its sizes; the ratio of the two sides' geometric
 * means with the Welch t interval on the logs; under two launches a side, none), which
 * grouping is called faster, and when the ring model's reason is given: latency-bound, the ratio
 * above 1 and at most 1.1 × the ratio of ring steps (all_reduce 2(n−1), all_gather n−1);
 * bandwidth-bound, within 15 % of the ratio of bytes per rank (2(n−1)/n, (n−1)/n).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { conclusions } from '../../src/analysis/compare/_conclusion.ts'
import type { SizeComparison } from '../../src/analysis/compare/_types-compare.ts'

const US = 1e-6
/** One size: each grouping's values (µs) in trial order; the median is the middle value given. */
function size(sizeBytes: number, values: Record<string, number[]>): SizeComparison {
  const groupings = Object.entries(values).map(([grouping, v]) => ({
    grouping,
    n: v.length,
    median: [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]! * US,
    ci: [null, null] as [null, null],
    combined: 'single' as const,
    values: v.map((x) => x * US),
    groups: [],
  }))
  return { sizeBytes, groupings, winner: null, ratio: null, p: null }
}
const RANKS = new Map([
  ['tp4', 4],
  ['tp8', 8],
])
const texts = (bench: string, sizes: SizeComparison[], ranks = RANKS) =>
  conclusions(bench, sizes, ranks).map((c) => c.text)
const STEPS =
  'time ≈ α here, and a ring all_reduce takes 2(n−1) steps, 14 at 8 ranks vs 6 at 4 (2.33×; the fixed cost of a ' +
  'call makes the measured ratio smaller)'

test('one grouping, or none: no conclusion', () => {
  assert.deepEqual(conclusions('nccl.all_reduce', [], RANKS), [])
  assert.deepEqual(conclusions('nccl.all_reduce', [size(8, { tp4: [1, 1, 1] })], RANKS), [])
})

test('latency-bound sizes: the ratio over launches, its Welch interval, and the ring steps as the reason', () => {
  // Launch values (geometric mean of 8 B and 16 B): tp4 √(10·11) three times; tp8 √(16·17.6),
  // √(16.2·17.6), √(15.8·17.6). Ratio √(16·17.6/110) = 1.6; tp4 has no spread, so the interval is
  // tp8's: sd of ½ ln(16, 16.2, 15.8) = 0.00625, se 0.0036, t(0.975, 2 df) = 4.30: [1.575, 1.625].
  const sizes = [
    size(8, { tp8: [16, 16.2, 15.8], tp4: [10, 10, 10] }),
    size(16, { tp4: [11, 11, 11], tp8: [17.6, 17.6, 17.6] }),
  ]
  const [c, ...rest] = conclusions('nccl.all_reduce', sizes, RANKS)
  assert.deepEqual(rest, [])
  assert.deepEqual(
    [c?.faster, c?.slower, c?.band, c?.fromBytes, c?.toBytes, c?.sizes, c?.pairs, c?.clear],
    ['tp4', 'tp8', 'latency', 8, 16, 2, 3, true],
  )
  assert.equal(c?.ratio.toFixed(4), '1.6000')
  assert.deepEqual(
    c?.ci.map((x) => x?.toFixed(3)),
    ['1.575', '1.625'],
  )
  assert.equal(c?.reason, STEPS)
  // Asymmetric at two decimals (0.02 below, 0.03 above): printed as [lo, hi].
  assert.equal(c?.text, `tp4 is 1.60 [1.58, 1.62]× faster than tp8 at 8 B–16 B (latency-bound): ${STEPS}`)
  // all_gather: n−1 steps, the same 7 vs 3.
  assert.match(
    texts('nccl.all_gather', sizes)[0] ?? '',
    /a ring all_gather takes n−1 steps, 7 at 8 ranks vs 3 at 4 \(2\.33×;/,
  )
  // A ratio past 1.1 × the steps' 2.33 (2.6) is not the ring's doing.
  const far = [size(8, { tp4: [10, 10, 10, 10, 10, 10], tp8: [26, 26, 26, 26, 26, 26] })]
  assert.deepEqual(conclusions('nccl.all_reduce', far, RANKS)[0]?.reason, null)
  // 76.99 / 30 is just inside 2.33 × 1.1: still the ring's doing.
  const edge = [size(8, { tp4: [30, 30, 30, 30, 30, 30], tp8: [76.99, 76.99, 76.99, 76.99, 76.99, 76.99] })]
  assert.equal(conclusions('nccl.all_reduce', edge, RANKS)[0]?.reason, STEPS)
  const near = [size(8, { tp4: [10, 10, 10, 10, 10, 10], tp8: [25.6, 25.6, 25.6, 25.6, 25.6, 25.6] })]
  assert.equal(conclusions('nccl.all_reduce', near, RANKS)[0]?.reason, STEPS)
})

test('no reason without both rank counts, when the faster has more ranks, or for another collective', () => {
  const sizes = [size(8, { tp4: [10, 10, 10, 10, 10, 10], tp8: [16, 16, 16, 16, 16, 16] })]
  assert.equal(conclusions('nccl.all_reduce', sizes, new Map([['tp4', 4]]))[0]?.reason, null)
  assert.equal(conclusions('nccl.all_reduce', sizes, new Map([['tp8', 8]]))[0]?.reason, null)
  const swapped = new Map([
    ['tp4', 8],
    ['tp8', 4],
  ])
  assert.equal(conclusions('nccl.all_reduce', sizes, swapped)[0]?.reason, null)
  const same = new Map([
    ['tp4', 8],
    ['tp8', 8],
  ])
  assert.equal(conclusions('nccl.all_reduce', sizes, same)[0]?.reason, null)
  // The same rank count: a 1.05 ratio is clear but no ring step explains it.
  const close = [size(8, { tp4: six(10), tp8: six(10.5) })]
  assert.deepEqual(
    conclusions('nccl.all_reduce', close, same).map((c) => [c.clear, c.reason]),
    [[true, null]],
  )
  assert.equal(conclusions('nccl.broadcast', sizes, RANKS)[0]?.reason, null)
  assert.match(
    conclusions('nccl.reduce_scatter', sizes, RANKS)[0]?.reason ?? '',
    /^time ≈ α here, and a ring reduce_scatter takes n−1 steps, 7 at 8 ranks vs 3 at 4 \(2\.33×;/,
  )
})

const six = (v: number) => [v, v, v, v, v, v]

test('bands: within 4/3 of both floors latency-bound, 4 × or more bandwidth-bound, transition between', () => {
  // Floors 3 and 6 µs: 4 and 8 µs are exactly 4/3 of them, 12 and 24 µs exactly 4 ×.
  const sizes = [
    size(8, { tp4: six(3), tp8: six(6) }),
    size(16, { tp4: six(4), tp8: six(8) }),
    size(32768, { tp4: six(5), tp8: six(10) }),
    size(1 << 20, { tp4: six(12), tp8: six(24) }),
    size(2 << 20, { tp4: six(20), tp8: six(40) }),
  ]
  const cs = conclusions('nccl.all_reduce', sizes, RANKS)
  assert.deepEqual(
    cs.map((c) => [c.band, c.fromBytes, c.toBytes, c.sizes, c.pairs]),
    [
      ['latency', 8, 16, 2, 6],
      ['transition', 32768, 32768, 1, 6],
      ['bandwidth', 1 << 20, 2 << 20, 2, 6],
    ],
  )
  assert.deepEqual(
    cs.map((c) => c.text),
    [
      `tp4 is 2.00 ± 0.00× faster than tp8 at 8 B–16 B (latency-bound): ${STEPS}`,
      'tp4 is 2.00 ± 0.00× faster than tp8 at 32 KiB (between latency- and bandwidth-bound)',
      'tp4 is 2.00 ± 0.00× faster than tp8 at 1 MiB–2 MiB (bandwidth-bound)',
    ],
  )
  // One grouping past 4/3 of its floor is enough for a transition; both must reach 4 ×.
  const one = [
    size(8, { tp4: six(3), tp8: six(6) }),
    size(16, { tp4: six(4.1), tp8: six(8) }),
    size(32, { tp4: six(12), tp8: six(23) }),
  ]
  assert.deepEqual(
    conclusions('nccl.all_reduce', one, RANKS).map((c) => [c.band, c.fromBytes, c.toBytes]),
    [
      ['latency', 8, 8],
      ['transition', 16, 32],
    ],
  )
  const fastOnly = [size(8, { tp4: six(3), tp8: six(6) }), size(16, { tp4: six(11.9), tp8: six(24) })]
  assert.deepEqual(
    conclusions('nccl.all_reduce', fastOnly, RANKS).map((c) => c.band),
    ['latency', 'transition'],
  )
  const other = [size(8, { tp4: six(3), tp8: six(6) }), size(16, { tp4: six(3.9), tp8: six(8.1) })]
  assert.deepEqual(
    conclusions('nccl.all_reduce', other, RANKS).map((c) => c.band),
    ['latency', 'transition'],
  )
})

test('bandwidth-bound: the bytes per rank as the reason, within 15 %', () => {
  const at = (slow: number) => [
    size(8, { tp4: six(10), tp8: six(16) }),
    size(1 << 20, { tp4: six(100), tp8: six(slow) }),
  ]
  const reason = (slow: number) => conclusions('nccl.all_reduce', at(slow), RANKS)[1]?.reason ?? null
  // 2(n−1)/n: 1.75 at 8 ranks, 1.5 at 4: 1.1667×, so 1.0145–1.3417 × passes.
  const bytes =
    'time ≈ bytes/β here, and each rank moves 2(n−1)/n × the message, 1.75× at 8 ranks vs 1.50× at 4 (1.17×)'
  assert.equal(reason(116.7), bytes)
  assert.equal(reason(134), bytes)
  assert.equal(reason(135), null)
  assert.equal(reason(102), bytes)
  assert.equal(reason(101), null)
  // 160.99 / 120 is just inside 1.15 × 1.1667: still within.
  const edge = [size(8, { tp4: six(10), tp8: six(16) }), size(1 << 20, { tp4: six(120), tp8: six(160.99) })]
  assert.equal(conclusions('nccl.all_reduce', edge, RANKS)[1]?.reason, bytes)
  assert.equal(
    conclusions('nccl.all_gather', at(116.7), RANKS)[1]?.reason,
    'time ≈ bytes/β here, and each rank moves (n−1)/n × the message, 0.88× at 8 ranks vs 0.75× at 4 (1.17×)',
  )
  assert.equal(
    conclusions('nccl.reduce_scatter', at(116.7), RANKS)[1]?.reason,
    'time ≈ bytes/β here, and each rank moves (n−1)/n × the message, 0.88× at 8 ranks vs 0.75× at 4 (1.17×)',
  )
  // Transition-bound sizes get no reason, even at the ratio of bytes (23.34 / 20 = 1.167).
  const bytesMid = [size(8, { tp4: six(10), tp8: six(16) }), size(64, { tp4: six(20), tp8: six(23.34) })]
  assert.equal(conclusions('nccl.all_reduce', bytesMid, RANKS)[1]?.band, 'transition')
  assert.equal(conclusions('nccl.all_reduce', bytesMid, RANKS)[1]?.reason, null)
  const mid = [size(8, { tp4: six(10), tp8: six(16) }), size(64, { tp4: six(20), tp8: six(32) })]
  assert.equal(conclusions('nccl.all_reduce', mid, RANKS)[1]?.reason, null)
})

test('the faster of a band is named first, with the CI turned over; the noise and one launch said so', () => {
  // tp4 is faster overall, tp8 at 1 MiB: tp8's launches 78–82 against tp4's 100: 1 / 0.8 = 1.25.
  const sizes = [
    size(8, { tp4: six(10), tp8: six(16) }),
    size(16, { tp4: six(10), tp8: six(16) }),
    size(1 << 20, { tp4: six(100), tp8: [80, 78, 82, 80, 79, 81] }),
  ]
  const c = conclusions('nccl.all_reduce', sizes, RANKS)[1]
  assert.deepEqual([c?.faster, c?.slower, c?.ratio.toFixed(2)], ['tp8', 'tp4', '1.25'])
  assert.ok((c?.ci[0] as number) > 1.2 && (c?.ci[1] as number) < 1.3, `${c?.ci}`)
  assert.equal(c?.text, 'tp8 is 1.25 ± 0.02× faster than tp4 at 1 MiB (bandwidth-bound)')
  const noise = [size(8, { tp4: six(10), tp8: [9, 11, 10, 10, 9.5, 10.5] })]
  assert.deepEqual(texts('nccl.all_reduce', noise), [
    'tp8 and tp4 take the same time within the noise at 8 B (latency-bound): ratio 1.00, 95% CI [0.93, 1.08] ' +
      'over 6 launches',
  ])
  // An interval that reaches below 1 is not a difference.
  const touch = [size(8, { tp4: six(10), tp8: [9, 10, 11, 11, 12, 13] })]
  const t = conclusions('nccl.all_reduce', touch, RANKS)[0]
  assert.deepEqual([t?.clear, t?.reason], [false, null])
  assert.ok((t?.ci[0] as number) < 1, `${t?.ci}`)
  const one = conclusions('nccl.all_reduce', [size(8, { tp4: [10], tp8: six(16) })], RANKS)[0]
  assert.deepEqual([one?.pairs, one?.ci, one?.pm, one?.clear, one?.reason], [1, [null, null], null, false, null])
  assert.equal(one?.text, 'tp4 is 1.60× faster than tp8 at 8 B (latency-bound), but one launch: no interval')
})

test('sizes without both groupings are left out; the fastest is set against each other grouping', () => {
  const sizes = [
    size(8, { tp4: six(10) }),
    size(16, { tp2: six(20), tp4: six(10), tp8: six(16) }),
    size(32, { tp2: six(20), tp4: six(10), tp8: six(16) }),
  ]
  const cs = conclusions('nccl.all_reduce', sizes, new Map([...RANKS, ['tp2', 2]]))
  assert.deepEqual(
    cs.map((c) => [c.faster, c.slower, c.fromBytes, c.toBytes, Number(c.ratio.toFixed(12))]),
    [
      ['tp4', 'tp8', 16, 32, 1.6],
      ['tp4', 'tp2', 16, 32, 2],
    ],
  )
  assert.deepEqual(conclusions('nccl.all_reduce', [size(8, { tp4: six(1) }), size(16, { tp8: six(1) })], RANKS), [])
})
