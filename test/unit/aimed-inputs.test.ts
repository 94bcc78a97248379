/**
 * Inputs aimed at the patterns that read untrusted text (test/aimed.ts; issue #35 item 6),
 * at 256 KB each: what each reader makes of them. Their time (1 MB in ≤ 1 s, linear in
 * size) is bench/aimed.bench.ts's, not a test's. Before the rewrites these inputs took
 * minutes (the `--query-gpu` line never finished); the answers below held then too, except
 * the nvbandwidth row, which was dropped without a word.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { gpuOutliers } from '../../src/analysis/_join.ts'
import type { Fit } from '../../src/analysis/index.ts'
import { scaled } from '../../src/parsers/_matrix-common.ts'
import type { ParseOutput } from '../../src/parsers/index.ts'
import type { QueryGpu } from '../../src/topology/_inputs.ts'
import { AIMED, NVBW_ROW, ring } from '../aimed.ts'

const SIZE = 256 * 1024
const run = (i: number): unknown => {
  const c = AIMED[i] as (typeof AIMED)[number]
  return c.run(c.make(SIZE))
}

test('a run of digits is a number only when it ends as one; trailing points and exponents still read', () => {
  assert.equal(run(0), undefined)
  assert.equal(scaled(`${'0'.repeat(SIZE)}1.`, 0), 1)
  assert.equal(scaled(`${'0'.repeat(SIZE)}1.e2`, 0), 100)
  assert.equal(scaled(`-${'0'.repeat(SIZE)}.5`, 0), -0.5)
  assert.equal(scaled(`1${'0'.repeat(SIZE)}`, 0), undefined) // Infinity is no number
})

test('nvbandwidth: a row with a cell that is not a number is skipped with a warning; the other rows stay', () => {
  const out = run(1) as ParseOutput
  assert.equal(out.rows.length, 49) // 8 × 8 less the 8 cells of the diagonal and GPU1's 7 others
  assert.ok(!out.rows.some((r) => r.source?.line === NVBW_ROW))
  assert.equal(out.rows.filter((r) => r.source?.line === NVBW_ROW + 1).length, 7)
  const bad = out.diagnostics.filter((d) => d.code === 'bad-cell')
  assert.deepEqual(
    bad.map((d) => [d.line, d.severity, d.message]),
    [
      [
        NVBW_ROW,
        'warn',
        `device_to_device_memcpy_read_ce: row 1: "999999999999…99999x (${SIZE + 1} characters)" is not a number; row skipped`,
      ],
    ],
  )
})

test('nvidia-smi -q: a line of blanks is no key, and blanks before a colon are not part of the key', () => {
  assert.deepEqual(run(2), [
    { busId: '0000:07:00.0', line: 1, gen: { current: 1, max: 4 }, width: { current: 8, max: 16 } },
  ])
})

test('--query-gpu CSV: blanks around every field are trimmed', () => {
  assert.deepEqual(
    (run(3) as QueryGpu[]).map((g) => [g.index, g.name, g.busId, g.line]),
    [
      [0, 'NVIDIA H100', '0000:07:00.0', 1],
      [1, 'NVIDIA H100', '0000:08:00.0', 2],
    ],
  )
})

test('GPU outliers over a ring of 6,554 GPUs: the one slow GPU, not its neighbours', () => {
  assert.deepEqual(run(4), [{ gpu: 1, bench: 'p2p.latency', linkClass: 'all', ratio: 2 / 1.2, pairs: 2 }])
})

/** The definition, written out: each GPU's pairs against the median of the pairs without it. */
function oracle(fits: readonly Fit[]): [number, number][] {
  const med = (v: number[]): number => {
    const s = [...v].sort((a, b) => a - b)
    const h = (s.length - 1) / 2
    const lo = Math.floor(h)
    return lo + 1 >= s.length
      ? (s[lo] as number)
      : (s[lo] as number) + (h - lo) * ((s[lo + 1] as number) - (s[lo] as number))
  }
  const gpus = [...new Set(fits.flatMap((f) => [f.src as number, f.dst as number]))].sort((a, b) => a - b)
  return gpus.flatMap((g) => {
    const mine = fits.filter((f) => f.src === g || f.dst === g).map((f) => f.alpha)
    const others = fits.filter((f) => f.src !== g && f.dst !== g).map((f) => f.alpha)
    const r = others.length ? med(mine) / med(others) : 0
    return r >= 1.5 ? [[g, r] as [number, number]] : []
  })
}

test('GPU outliers equal the definition on dense classes with ties, odd and even counts', () => {
  let seed = 7
  const rnd = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
  for (let trial = 0; trial < 60; trial++) {
    const n = 3 + (trial % 6)
    const fits: Fit[] = []
    for (let a = 0; a < n; a++)
      for (let b = 0; b < n; b++)
        if (a !== b && rnd() < 0.8)
          fits.push({ ...(ring(3, 0)[0] as Fit), src: a, dst: b, alpha: 1 + Math.floor(rnd() * 4) })
    if (fits.length < 3) continue
    const got = gpuOutliers(fits).map((o) => [o.gpu, o.ratio])
    assert.deepEqual(got, oracle(fits), `trial ${trial}: ${JSON.stringify(fits.map((f) => [f.src, f.dst, f.alpha]))}`)
  }
})
