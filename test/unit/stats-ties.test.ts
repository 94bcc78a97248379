/**
 * The exact Mann-Whitney p with ties against brute-force enumeration: every way of
 * splitting the pooled values into samples of m and n, U counted pair by pair (ties ½),
 * two-sided p = share of splits with |U − mn/2| ≥ |u − mn/2|.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { mulberry32 } from '../../src/random/index.ts'
import { mannWhitney, uNormalP, uTestMinP } from '../../src/stats/index.ts'

/** U of `a` against `b`, pair by pair. */
function pairU(a: readonly number[], b: readonly number[]): number {
  let u = 0
  for (const x of a) for (const y of b) u += x > y ? 1 : x === y ? 0.5 : 0
  return u
}

/** Brute-force two-sided permutation p of U over every split of the pooled sample. */
function bruteP(a: readonly number[], b: readonly number[]): number {
  const pooled = [...a, ...b]
  const m = a.length
  const n = b.length
  const d = Math.abs(pairU(a, b) - (m * n) / 2)
  let hit = 0
  let total = 0
  const pick: number[] = []
  const walk = (from: number): void => {
    if (pick.length === m) {
      const inA = new Set(pick)
      const u = pairU(
        pick.map((i) => pooled[i] as number),
        pooled.filter((_, i) => !inA.has(i)),
      )
      total++
      if (Math.abs(u - (m * n) / 2) >= d - 1e-9) hit++
      return
    }
    for (let i = from; i <= pooled.length - (m - pick.length); i++) {
      pick.push(i)
      walk(i + 1)
      pick.pop()
    }
  }
  walk(0)
  return hit / total
}

test('exact p with ties equals brute-force enumeration for every (m, n) ≤ (8, 8), random tie patterns', () => {
  const u = mulberry32(13)
  let tiedCases = 0
  for (let m = 1; m <= 8; m++) {
    for (let n = 1; n <= 8; n++) {
      for (let rep = 0; rep < 3; rep++) {
        // Values from a few levels (1 … N), so ties of every size occur; B shifted a little sometimes.
        const levels = 1 + Math.floor(u() * (m + n))
        const draw = (shift: number): number => Math.floor(u() * levels) + shift
        const shift = rep === 2 ? 1 : 0
        const a = Array.from({ length: m }, () => draw(0))
        const b = Array.from({ length: n }, () => draw(shift))
        const r = mannWhitney(a, b)
        if (r.ties) tiedCases++
        assert.equal(r.exact, true, `${a} | ${b}`)
        assert.equal(r.u, pairU(a, b))
        const want = bruteP(a, b)
        assert.ok(Math.abs(r.p - want) <= 1e-12, `m=${m} n=${n} a=${a} b=${b}: p ${r.p}, brute force ${want}`)
      }
    }
  }
  assert.ok(tiedCases > 150, `${tiedCases} of 192 cases had ties`)
})

test('3 + 3 with ties: all-tied sides give the exact p 0.1, not the normal 0.047 (issue 13)', () => {
  // 0.00 vs 0.01 GB/s printed with two decimals: every value of a side tied.
  const allTied = mannWhitney([0, 0, 0], [0.01, 0.01, 0.01])
  assert.equal(allTied.exact, true)
  assert.equal(allTied.p, 0.1)
  // A clean separation without ties: the exact minimum 2/C(6, 3) = 0.1 as well.
  assert.equal(mannWhitney([1, 2, 3], [4, 5, 6]).p, 0.1)
  // Partly tied (ranks 1, 2.5, 2.5 | 4, 5, 6): brute force gives 0.1 too; a tie in the middle gives more.
  assert.equal(mannWhitney([1, 2, 2], [2, 3, 4]).p, bruteP([1, 2, 2], [2, 3, 4]))
  assert.ok(mannWhitney([1, 2, 2], [2, 3, 4]).p > 0.1)
  // Every value equal: p = 1.
  assert.equal(mannWhitney([7, 7, 7], [7, 7, 7]).p, 1)
})

test('the smallest reachable p: 3 + 3 cannot reach 0.05, 4 + 4 can', () => {
  assert.equal(uTestMinP(3, 3), 0.1)
  assert.equal(uTestMinP(4, 4), 2 / 70)
  assert.equal(uTestMinP(6, 6), 2 / 924)
  assert.equal(uTestMinP(3, 6), 2 / 84)
})

test('49 + 49 with ties stays exact, fast, and near the normal approximation; 50 switches to it', () => {
  const a = Array.from({ length: 49 }, (_, i) => Math.floor(i / 4))
  const b = Array.from({ length: 49 }, (_, i) => Math.floor(i / 4) + 1)
  const t0 = performance.now()
  const r = mannWhitney(a, b)
  assert.equal(r.exact, true)
  assert.ok(performance.now() - t0 < 2000)
  // R wilcox.test(a, b, exact = FALSE, correct = TRUE)$p.value, the tie-corrected normal p of the same data:
  const normal = uNormalP(r.u, 49, 49, tieSizes([...a, ...b]))
  assert.ok(Math.abs(r.p - normal) < 0.01, `exact ${r.p} vs normal ${normal}`)
  assert.equal(mannWhitney([...a, 0], [...b, 13]).exact, false)
})

/** Sizes of the groups of equal values (> 1). */
function tieSizes(v: readonly number[]): number[] {
  const c = new Map<number, number>()
  for (const x of v) c.set(x, (c.get(x) ?? 0) + 1)
  return [...c.values()].filter((k) => k > 1)
}
