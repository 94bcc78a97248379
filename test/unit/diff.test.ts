/**
 * diffSets on generated (seeded log-normal) result sets: the A/A false-positive rate, the
 * power on a 10 % shift, regressions by direction, only-in-one-set cells, geomeans, the
 * SIMULATED guard, cell keys and the four formats.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { cellKey, cells } from '../../src/cells/index.ts'
import type { DiffResult } from '../../src/diff/index.ts'
import { diffSets, formatDiff, regressions, uTestMinN } from '../../src/diff/index.ts'
import { makeRow } from '../../src/model/index.ts'
import { genSet } from '../diff-gen.ts'

test('A/A: 50 pairs of differently seeded sets with no shift → at most 5 % of cells significant', () => {
  let flagged = 0
  let total = 0
  for (let i = 0; i < 50; i++) {
    const r = diffSets(
      genSet({ seed: 1000 + i, pairs: 10, sizes: 2, n: 10 }),
      genSet({ seed: 5000 + i, pairs: 10, sizes: 2, n: 10 }),
    )
    flagged += r.cells.filter((c) => c.significant).length
    total += r.cells.length
  }
  assert.equal(total, 50 * 40)
  const rate = flagged / total
  console.log(`A/A: ${flagged} of ${total} cells significant (${(rate * 100).toFixed(2)} %)`)
  assert.ok(rate <= 0.05, `A/A false-positive rate ${rate}`)
})

test('a 10 % shift is flagged in ≥ 95 % of cells with n ≥ 10, in the right direction', () => {
  let flagged = 0
  let total = 0
  for (let i = 0; i < 20; i++) {
    const r = diffSets(
      genSet({ seed: 200 + i, pairs: 10, sizes: 2, n: 10 }),
      genSet({ seed: 900 + i, pairs: 10, sizes: 2, n: 10, shift: 0.1 }),
    )
    for (const c of r.cells) {
      total++
      if (c.significant && c.regression) flagged++
      if (c.significant) assert.ok(c.worse > 0, `${c.key}: a slowdown must read as worse`)
    }
  }
  const rate = flagged / total
  console.log(`shift 10 %: ${flagged} of ${total} cells flagged (${(rate * 100).toFixed(1)} %)`)
  assert.ok(rate >= 0.95, `power ${rate}`)
})

test('delta, regression direction, geomean and --fail-on-regression selection', () => {
  const a = genSet({ seed: 1, pairs: 3, sizes: 3, n: 12, sigma: 0.01 })
  const b = genSet({ seed: 2, pairs: 3, sizes: 3, n: 12, sigma: 0.01, shift: 0.2 })
  const r = diffSets(a, b)
  assert.equal(r.cells.length, 18)
  for (const c of r.cells) {
    assert.ok(c.significant)
    if (c.metric === 'latency') assert.ok(Math.abs(c.delta - 0.2) < 0.03, `latency delta ${c.delta}`)
    else assert.ok(Math.abs(c.delta - (1 / 1.2 - 1)) < 0.03, `bandwidth delta ${c.delta}`)
    assert.ok(c.regression)
  }
  assert.deepEqual(r.geomeans.map((g) => g.metric).sort(), ['bandwidth', 'latency'])
  const gl = r.geomeans.find((g) => g.metric === 'latency')!
  assert.ok(Math.abs(gl.delta - 0.2) < 0.02)
  assert.equal(gl.cells, 9)
  // Bandwidth fell by ~16.7 %, latency rose by ~20 %: a 18 % gate catches only latency.
  const over18 = regressions(r, 18)
  assert.ok(over18.length === 9 && over18.every((c) => c.metric === 'latency'))
  assert.equal(regressions(r, 25).length, 0)
  // The reverse direction is an improvement everywhere: no regressions at any threshold.
  assert.equal(regressions(diffSets(b, a), 0).length, 0)
})

test('cells found in one set only are listed, not compared', () => {
  const a = genSet({ seed: 3, pairs: 2, sizes: 3, n: 6 })
  const b = genSet({ seed: 4, pairs: 3, sizes: 2, n: 6 })
  const r = diffSets(a, b)
  assert.equal(r.cells.length, 2 * 2 * 2)
  assert.equal(r.onlyA.length, 2 * 1 * 2)
  assert.equal(r.onlyB.length, 1 * 2 * 2)
  assert.ok(r.onlyA.every((k) => k.includes('size=128 ')))
  assert.ok(r.onlyB.every((k) => k.includes('src=0 dst=3')))
})

test('a SIMULATED set against a real one is refused (exit 2) unless allowSim', () => {
  const real = genSet({ seed: 5, pairs: 1, sizes: 1, n: 6 })
  const sim = genSet({ seed: 6, pairs: 1, sizes: 1, n: 6 }, { simulated: true })
  assert.throws(
    () => diffSets(real, sim),
    (e: Error & { code?: number }) =>
      e.name === 'HarnessError' && e.code === 2 && /SIMULATED.*--allow-sim/.test(e.message),
  )
  const r = diffSets(real, sim, { allowSim: true })
  assert.ok(r.simulated)
  assert.match(formatDiff(r, 'text'), /^SIMULATED data/)
  assert.ok(diffSets(sim, sim).simulated)
})

test('cell keys: equal conditions give equal keys; any condition splits a cell', () => {
  const base = {
    bench: 'nccl.all_reduce',
    metric: 'time' as const,
    unit: 's' as const,
    value: 1e-5,
    ranks: 8,
    sizeBytes: 1048576,
    placement: 'out-of-place' as const,
    timer: 'gpu' as const,
    dtype: 'float',
    redop: 'sum',
    source: { file: 'raw/a.txt', line: 3 },
  }
  const k = cellKey(makeRow(base))
  assert.equal(
    k,
    'bench=nccl.all_reduce metric=time ranks=8 size=1048576 placement=out-of-place timer=gpu dtype=float redop=sum',
  )
  // value, trial, source, iteration and host do not change the key; env and placement do.
  assert.equal(
    cellKey(makeRow({ ...base, value: 2, trial: 3, iteration: 7, host: 'x', source: { file: 'raw/b.txt', line: 9 } })),
    k,
  )
  assert.notEqual(cellKey(makeRow({ ...base, placement: 'in-place' })), k)
  assert.equal(
    cellKey(makeRow({ ...base, env: { NCCL_PROTO: 'LL', NCCL_ALGO: 'Ring' } })),
    `${k} env.NCCL_ALGO=Ring env.NCCL_PROTO=LL`,
  )
  assert.match(cellKey(makeRow({ ...base, group: '0 2' })), /group="0 2"/)
})

test('cells: one summary per cell and within/between-launch variance', () => {
  const rows = [...genSet({ seed: 7, pairs: 1, sizes: 2, n: 12, launches: 3 }).rows]
  const cs = cells(rows)
  assert.equal(cs.length, 4)
  for (const c of cs) {
    assert.equal(c.summary.n, 12)
    assert.equal(c.variance?.launches, 3)
    assert.ok(c.variance!.within > 0)
  }
  assert.deepEqual(
    cs.map((c) => c.config.sizeBytes),
    [8, 32, 8, 32],
  )
})

test('minimum n for the U test at alpha (benchstat uTestSamples: ≥ 4 at 0.05, ≥ 5 at 0.01)', () => {
  assert.equal(uTestMinN(0.05), 4)
  assert.equal(uTestMinN(0.01), 5)
  const r = diffSets(
    genSet({ seed: 8, pairs: 1, sizes: 1, n: 3 }),
    genSet({ seed: 9, pairs: 1, sizes: 1, n: 3, shift: 1 }),
  )
  assert.ok(r.cells.every((c) => !c.significant && !c.reachable))
  // Said once for the whole diff, with the smallest p 3 + 3 can give and the trials that can reach 0.05.
  assert.deepEqual(r.testing.unreachable, [{ sizes: '3+3', cells: r.cells.length, minP: 0.1 }])
  assert.equal(r.testing.minSamples, 4)
  assert.equal(r.testing.expectedFalsePositives, 0)
  const text = formatDiff(r, 'text')
  assert.equal(text.match(/cannot reach p ≤ 0\.05: the smallest possible p is 0\.100/g)?.length, 1)
  assert.match(text, /4 trials on each side can reach it/)
})

function smallDiff(): DiffResult {
  return diffSets(
    genSet({ seed: 11, pairs: 1, sizes: 2, n: 10, sigma: 0.01 }),
    genSet({ seed: 12, pairs: 1, sizes: 2, n: 10, sigma: 0.01, shift: 0.1 }),
  )
}

test('formats: text table with ~ and geomean rows, Markdown, CSV and JSON agree', () => {
  const r = smallDiff()
  const text = formatDiff(r, 'text')
  assert.match(text, /^p2p\.latency latency \(pair=0→1 p2p=disabled copy=ce timer=gpu\)\nsize\s+A\s+B\s+delta\s+p$/m)
  // Medians over launches with their CI (± or [lo, hi]), the change with its CI, n counting launches.
  const ci = String.raw`(±[\d.]+%|\[[-+][\d.]+%, [-+][\d.]+%\])`
  assert.match(
    text,
    new RegExp(
      String.raw`^8 B\s+\S+ µs ${ci}\s+\S+ µs ${ci}\s+\+1\d\.\d% \[\+\S+%, \+\S+%\]\s+p=0\.000 q=0\.000 n=10\+10 launches$`,
      'm',
    ),
  )
  assert.equal(text.match(/^geomean /gm)?.length, 2)
  const md = formatDiff(r, 'md')
  assert.match(md, /^### p2p\.bw_uni bandwidth \(pair=0→1 p2p=disabled copy=ce timer=gpu\)$/m)
  assert.match(md, /^\| 32 B \| \S+ GB\/s (±|\[)\S+ .*\| \S+ GB\/s (±|\[)/m)
  // No field of these cells holds a comma or a quote, so a plain split reads the CSV.
  const [head, ...lines] = formatDiff(r, 'csv')
    .trimEnd()
    .split('\n')
    .map((l) => l.split(','))
  const csv = lines.map((l) => Object.fromEntries(head!.map((h, i) => [h, l[i]])))
  assert.equal(csv.length, r.cells.length)
  assert.equal(csv[0]?.key, r.cells[0]?.key)
  assert.equal(Number(csv[0]?.delta), Number(r.cells[0]?.delta.toPrecision(12)))
  const json = JSON.parse(formatDiff(r, 'json')) as DiffResult
  assert.deepEqual(
    json.cells.map((c) => c.key),
    r.cells.map((c) => c.key),
  )
  assert.equal(json.cells[0]?.significant, true)
  // An unbounded CI (n < 6) is ±∞ in text and null in JSON.
  const tiny = diffSets(genSet({ seed: 1, pairs: 1, sizes: 1, n: 3 }), genSet({ seed: 2, pairs: 1, sizes: 1, n: 3 }))
  assert.match(formatDiff(tiny, 'text'), /±∞.*±∞\s+\([+-]?\d\S*%\) \[\S+, \S+\]\s+n=3\+3 launches/)
  assert.deepEqual((JSON.parse(formatDiff(tiny, 'json')) as { cells: { a: { ci: unknown } }[] }).cells[0]?.a.ci, [
    null,
    null,
  ])
})
