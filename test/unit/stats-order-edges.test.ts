/**
 * What stats-order.test.ts leaves open about OrderStats, madAround, scratch and selectRank
 * (written against Stryker's survivors of _order-stats.ts): the promise "without sorting all
 * of it", seen in the caller's buffer the copy goes into (placed ranks partition it, the window
 * is sorted, anything else sorts it once); the window's bounds clamped and rounded outwards; a
 * buffer used only when it is long enough; quantiles outside [0, 1]; scratch reusing and growing
 * its buffers; selectRank reading only a[0..n).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { mulberry32 } from '../../src/random/index.ts'
import { madAround, OrderStats, quantileRanks, scratch, selectRank } from '../../src/stats/_order-stats.ts'

const N = 1000
/** N distinct values in a random order (a permutation of 1…N, scaled). */
function shuffled(seed: number, n = N): number[] {
  const u = mulberry32(seed)
  const v = Array.from({ length: n }, (_, i) => (i + 1) * 0.5)
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(u() * (i + 1))
    ;[v[i], v[j]] = [v[j] as number, v[i] as number]
  }
  return v
}
/** The value of rank k of `shuffled`: (k + 1) · 0.5. */
const rank = (k: number): number => (k + 1) * 0.5
const isSorted = (a: ArrayLike<number>, from = 0, to = a.length): boolean => {
  for (let i = from + 1; i < to; i++) if ((a[i] as number) < (a[i - 1] as number)) return false
  return true
}

test('placed ranks partition the buffer and leave the rest unsorted; reading another rank sorts it once', () => {
  const v = shuffled(1)
  const buf = new Float64Array(N)
  const os = new OrderStats(v, [10, 499, 500, 990], undefined, buf)
  for (const k of [10, 499, 500, 990]) {
    assert.equal(buf[k], rank(k), `rank ${k} in place`)
    assert.ok(buf.subarray(0, k).every((x) => x < rank(k)) && buf.subarray(k + 1).every((x) => x > rank(k)))
  }
  assert.ok(!isSorted(buf), 'four ranks of 1000 are placed by selection, not by a full sort')
  assert.equal(os.quantile(0.5), (rank(499) + rank(500)) / 2)
  assert.equal(os.at(990), rank(990))
  assert.ok(!isSorted(buf), 'reading placed ranks sorts nothing')
  assert.equal(os.at(11), rank(11), 'a rank never placed')
  assert.ok(isSorted(buf), 'and now the copy is sorted')
  assert.deepEqual([os.at(0), os.at(N - 1), os.quantile(0.25)], [rank(0), rank(N - 1), rank(249) + 0.75 * 0.5])

  const ends = new Float64Array(N)
  const e = new OrderStats(v, [0, N - 1], undefined, ends)
  assert.deepEqual([e.at(0), e.at(N - 1)], [rank(0), rank(N - 1)])
  assert.ok(!isSorted(ends), 'the first and the last rank are placed ranks too')
  const bare = new Float64Array(N)
  new OrderStats(v, [], undefined, bare)
  assert.ok(!isSorted(bare), 'no rank asked for: nothing sorted yet')
})

test('quantileRanks: the ranks Hyndman–Fan 7 reads, one at the top', () => {
  assert.deepEqual(quantileRanks(10, 0.5), [4, 5])
  assert.deepEqual(quantileRanks(11, 0.5), [5, 6])
  assert.deepEqual(quantileRanks(1000, 0.05), [49, 50])
  assert.deepEqual(quantileRanks(1000, 0.95), [949, 950])
  assert.deepEqual(quantileRanks(10, 1), [9])
  assert.deepEqual(quantileRanks(10, 0), [0, 1])
  assert.deepEqual(quantileRanks(1, 0.5), [0])
})

test('below 64 values the copy is sorted at once, ranks or not', () => {
  for (const n of [2, 50, 63]) {
    const v = shuffled(6, n)
    const buf = new Float64Array(n)
    const os = new OrderStats(v, [], undefined, buf)
    assert.ok(isSorted(buf), `n=${n}`)
    assert.equal(os.at(n - 1), rank(n - 1))
  }
})

test('the window is rounded outwards, clamped to the sample and sorted; a rank outside it sorts the rest', () => {
  const v = shuffled(2)
  const buf = new Float64Array(N)
  const os = new OrderStats(v, [], [400.5, 600.2], buf)
  assert.ok(isSorted(buf, 400, 602) && !isSorted(buf), 'ranks 400…601 sorted, the copy not')
  assert.ok(!isSorted(buf, 0, 400) && !isSorted(buf, 602, N), 'neither side of the window')
  for (let k = 400; k <= 601; k++) assert.equal(os.at(k), rank(k))
  assert.ok(!isSorted(buf), 'reading inside the window sorts nothing')
  assert.ok(buf.subarray(0, 400).every((x) => x < rank(400)) && buf.subarray(602).every((x) => x > rank(601)))
  assert.equal(os.at(399), rank(399))
  assert.ok(isSorted(buf))

  const low = new Float64Array(N)
  const first = new OrderStats(v, [], [-20, 5], low)
  assert.ok(isSorted(low, 0, 6) && !isSorted(low), 'a window starting below rank 0 starts at 0')
  for (let k = 0; k <= 5; k++) assert.equal(first.at(k), rank(k))
  assert.ok(!isSorted(low))

  const high = new Float64Array(N)
  const last = new OrderStats(v, [], [N - 6, N + 30], high)
  assert.ok(isSorted(high, N - 6, N) && !isSorted(high), 'a window past the last rank ends there')
  for (let k = N - 6; k < N; k++) assert.equal(last.at(k), rank(k))
  assert.ok(!isSorted(high))

  const empty = new Float64Array(N)
  const none = new OrderStats(v, [7], [600, 400], empty)
  assert.ok(!isSorted(empty), 'an empty window sorts nothing')
  assert.equal(none.at(7), rank(7))
  assert.equal(none.at(500), rank(500))

  const one = new Float64Array(N)
  const single = new OrderStats(v, [], [300, 300], one)
  assert.equal(single.at(300), rank(300), 'a window of one rank places it')
  assert.ok(!isSorted(one))

  const whole = new Float64Array(N)
  new OrderStats(v, [], [0, N - 1], whole)
  assert.ok(isSorted(whole), 'a window of the whole sample sorts it at once')
})

test('ranks outside the sample are ignored, and a buffer is used only when it holds the sample', () => {
  const v = shuffled(3)
  const os = new OrderStats(v, [-1, N, N + 5, 250])
  assert.equal(os.at(250), rank(250))
  assert.equal(os.quantile(0.5), (rank(499) + rank(500)) / 2)

  const exact = new Float64Array(N)
  new OrderStats(v, [N - 1], undefined, exact)
  assert.equal(exact[N - 1], rank(N - 1), 'a buffer of exactly n values holds the copy')
  const short = new Float64Array(N - 1).fill(-1)
  const s = new OrderStats(v, [500], undefined, short)
  assert.ok(
    short.every((x) => x === -1),
    'a buffer one value short is not touched',
  )
  assert.deepEqual([s.at(500), s.at(0), s.at(N - 1)], [rank(500), rank(0), rank(N - 1)])

  const devs = new Float64Array(N)
  const mad = madAround(v, 250.25, devs)
  assert.equal(mad, 125, '|x − 250.25| over 0.5, 1, …, 500: median of 0.25, 0.25, 0.75, 0.75, … is 125')
  assert.ok(devs.every((d) => d >= 0 && d <= 250) && devs.includes(249.75), 'the deviations went into the buffer')
  const devShort = new Float64Array(N - 1).fill(-1)
  assert.equal(madAround(v, 250.25, devShort), 125)
  assert.ok(
    devShort.every((x) => x === -1),
    'a buffer one value short is not touched',
  )
  assert.equal(madAround([3], 1, new Float64Array(4).fill(Infinity)), 2, 'one value: its deviation, nothing past it')
})

test('quantile is NaN outside [0, 1] and for NaN; selectRank reads a[0..n) only', () => {
  for (const n of [10, N]) {
    const os = new OrderStats(shuffled(4, n), [0, n - 1])
    for (const q of [-0.01, 1.01, -1, 2, Number.NaN]) assert.ok(Number.isNaN(os.quantile(q)), `n=${n} q=${q}`)
    assert.deepEqual([os.quantile(0), os.quantile(1)], [rank(0), rank(n - 1)])
  }
  const a = Float64Array.from([...shuffled(5, 200), -1, -2, -3])
  assert.equal(selectRank(a, 200, 0), rank(0), 'the values past n are not in the sample')
  assert.equal(a[0], rank(0))
  assert.deepEqual([a[200], a[201], a[202]], [-1, -2, -3], 'and stay where they are')
  assert.equal(selectRank(a, 200, 199), rank(199))
  assert.equal(selectRank(a, 200, 77), rank(77))
  assert.ok(a.subarray(0, 77).every((x) => x < rank(77)) && a.subarray(78, 200).every((x) => x > rank(77)))
  assert.equal(selectRank(Float64Array.of(4, 1, 3, 2), 4, 2), 3, 'a short array is sorted')
  // An organ pipe, min(i, 105 − i): 0 once, then 1…52 twice each, so rank k holds ⌈k/2⌉.
  for (let k = 0; k < 105; k++) {
    const pipe = Float64Array.from({ length: 105 }, (_, i) => Math.min(i, 105 - i))
    assert.equal(selectRank(pipe, 105, k), Math.ceil(k / 2), `organ pipe rank ${k}`)
  }
  // 0…148 around its median 74: deviations 0 once, 1…74 twice each; their median (rank 74) is 37.
  assert.equal(
    madAround(
      Array.from({ length: 149 }, (_, i) => i),
      74,
    ),
    37,
  )
})

test('scratch reuses a buffer that is long enough, grows by doubling, and keeps its two slots apart', () => {
  for (const slot of [0, 1] as const) {
    const a = scratch(slot, 8)
    const len = a.length
    assert.ok(len >= 8)
    assert.equal(scratch(slot, len), a, 'long enough: the same buffer')
    assert.equal(scratch(slot, 1), a)
    const b = scratch(slot, len + 1)
    assert.equal(b.length, 2 * len, 'one more value: twice as long')
    assert.equal(scratch(slot, 1), b, 'the grown buffer is kept')
    const c = scratch(slot, 5 * b.length)
    assert.equal(c.length, 5 * b.length, 'more than twice: exactly what is asked')
  }
  assert.notEqual(scratch(0, 1), scratch(1, 1))
})
