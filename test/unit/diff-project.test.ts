/**
 * diff projections: --filter keeps what a query selects (human sizes, <=/>=/</>, negation,
 * alternatives, globs), --ignore pools cells, --row/--col lay the tables out, and every
 * format prints human units. On simulated bare metal (A) against the simulated seed VM (B).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { DiffResult } from '../../src/diff/index.ts'
import { diffSets, formatDiff, parseFields, parseFilter, projectSet, projectTables } from '../../src/diff/index.ts'
import type { LoadedSet } from '../../src/resultset/index.ts'
import { loadSet } from '../../src/resultset/index.ts'
import { simSet } from '../simset.ts'

const spec = { seed: 5, bench: { sizes: [8, 1024, 4096], iters: 6 } }
const bare = loadSet(await simSet({ preset: 'baremetal-turin', ...spec }))
const vm = loadSet(await simSet({ preset: 'seed-vm', ...spec }))

async function diffOf(filter?: string, ignore: string[] = []): Promise<DiffResult> {
  const p = { ignore: parseFields('--ignore', ignore), ...(filter ? { filter: parseFilter(filter) } : {}) }
  return diffSets(projectSet(await bare, p), projectSet(await vm, p))
}

test('--filter bench:p2p.latency size:<=1KiB keeps those cells only, and tests only them', async () => {
  const all = await diffOf()
  const d = await diffOf('bench:p2p.latency size:<=1KiB')
  assert.ok(d.cells.length > 0)
  assert.ok(all.cells.some((c) => c.bench !== 'p2p.latency'))
  for (const c of d.cells) assert.equal(c.bench, 'p2p.latency')
  // <= keeps the bound itself (1 KiB = 1024 B) and drops 4 KiB.
  assert.deepEqual(
    [...new Set(d.cells.map((c) => c.config.sizeBytes))].sort((a, b) => (a ?? 0) - (b ?? 0)),
    [8, 1024],
  )
  // Per size: P2P on over 16 ordered pairs (self-copies included), P2P off over the 12 cross pairs
  // (p2p_bench skips P2P off inside one GPU).
  const perSize = 16 + 12
  assert.equal(d.cells.length, perSize * 2)
  assert.equal(d.testing.cells, d.cells.length)
  assert.equal((await diffOf('bench:p2p.latency size:<1KiB')).cells.length, perSize)
  assert.equal((await diffOf('bench:p2p.latency size:>1K')).cells.length, perSize)
  assert.equal((await diffOf('bench:p2p.latency size:>=1024')).cells.length, perSize * 2)
})

test('--filter: negation, alternatives, globs and pairs', async () => {
  const d = await diffOf('bench:p2p.* -p2p:disabled pair:0-1,1->0 size:8')
  assert.deepEqual(d.cells.map((c) => `${c.config.src}→${c.config.dst} ${c.config.p2p}`).sort(), [
    '0→1 enabled',
    '1→0 enabled',
  ])
  assert.ok((await diffOf('bench:nccl.*')).cells.every((c) => c.bench === 'nccl.all_reduce'))
})

test('--filter, --row, --col and --ignore name the problem on bad input (exit code 2)', () => {
  const bad: [() => unknown, RegExp][] = [
    [() => parseFilter('size<=1K'), /--filter size<=1K: expected KEY:VALUE/],
    [() => parseFilter('siz:8'), /--filter siz: unknown key \(known: bench, metric, pair, .*env\.NAME/],
    [() => parseFilter('size:<=1Q'), /1Q is not a size/],
    [() => parseFilter('p2p:>enabled'), /p2p is not a number, so it takes no >/],
    [() => parseFilter('  '), /--filter is empty/],
    [() => parseFields('--col', ['size,nope']), /--col nope: unknown key/],
  ]
  for (const [f, msg] of bad) assert.throws(f, (e: Error & { code?: number }) => msg.test(e.message) && e.code === 2)
})

test('--ignore pair pools every pair of a size into one cell (n adds up), and leaves the sets untouched', async () => {
  const set = (await bare) as LoadedSet
  const before = set.rows.filter((r) => r.src === null).length
  const d = await diffOf('bench:p2p.latency -pair:0-0,1-1,2-2,3-3', ['pair'])
  // 3 sizes × P2P on/off, each holding the 12 ordered pairs × 6 iterations of the one launch.
  assert.equal(d.cells.length, 3 * 2)
  for (const c of d.cells) {
    assert.equal(c.config.src, null)
    assert.deepEqual(c.values, [12 * 6, 12 * 6])
    assert.equal(c.a.n, 1)
  }
  assert.equal(set.rows.filter((r) => r.src === null).length, before)
  const on = d.cells.find((c) => c.config.p2p === 'enabled' && c.config.sizeBytes === 8)
  assert.ok(on && on.a.median < 1e-6 && Math.abs(on.b.median - 13.7e-6) < 1.5e-6, `${on?.a.median} ${on?.b.median}`)
})

test('--ignore pair pools self-copies only with self-copies, never with cross-GPU pairs', async () => {
  const d = await diffOf('bench:p2p.latency size:8', ['pair'])
  // P2P on: the 4 self-copies in one cell ("same GPU"), the 12 cross pairs in another; P2P off: cross only.
  const cells = d.cells.map((c) => `${c.config.p2p} ${c.config.group ?? 'cross'} ${c.values[0]}`).sort()
  assert.deepEqual(cells, ['disabled cross 72', 'enabled cross 72', 'enabled same GPU 24'])
  const self = d.cells.find((c) => c.config.group === 'same GPU')!
  const cross = d.cells.find((c) => c.config.group === undefined && c.config.p2p === 'enabled')!
  // A copy inside one GPU costs something else than one across GPUs (here 1.4 µs vs 0.4 µs):
  // pooling them would blur both.
  assert.ok(Math.abs(Math.log(self.a.median / cross.a.median)) > Math.log(2), `${self.a.median} vs ${cross.a.median}`)
  assert.match(formatDiff(d, 'text'), /^same GPU\s/m)
})

test('tables: one per bench and metric, common fields in the heading, --row order and --col values across', async () => {
  const d = await diffOf('bench:p2p.latency p2p:enabled -pair:0-0,1-1,2-2,3-3')
  const [t] = projectTables(d)
  assert.equal(projectTables(d).length, 1)
  assert.deepEqual(t?.common, ['p2p=enabled', 'copy=ce', 'timer=gpu'])
  assert.deepEqual(t?.rowFields, ['pair', 'size'])
  assert.equal(t?.rows.length, 12 * 3)
  const bySize = projectTables(d, { row: parseFields('--row', ['size']) })[0]
  assert.deepEqual(bySize?.rowFields, ['size', 'pair'])
  const cols = projectTables(d, { col: parseFields('--col', ['size']) })[0]
  assert.deepEqual(cols?.cols, ['size=8 B', 'size=1 KiB', 'size=4 KiB'])
  assert.equal(cols?.rows.length, 12)
  assert.ok(cols?.rows.every((r) => r.cells.every((c) => c !== undefined)))
  const text = formatDiff(d, 'text', { col: parseFields('--col', ['size']) })
  assert.match(text, /^pair\s+size=8 B\s+size=1 KiB\s+size=4 KiB\s+changed$/m)
  assert.match(text, /^0→1\s+\S+ ns † → 1\d\.\d+ µs † \(\+\d+%\)\s+.*peer access: yes → no$/m)
  // One launch a side: said once under the table (a footnote), not in each of the 72 sides.
  assert.doesNotMatch(text, /\(one launch: no interval\)/)
  assert.equal(text.match(/^† one launch: no interval$/gm)?.length, 1)
  const md = formatDiff(d, 'md', { col: parseFields('--col', ['size']) })
  assert.doesNotMatch(md, /\(one launch: no interval\)/)
  assert.match(md, /^† one launch: no interval$/m)
  // Without --col the A and B columns still say it in the cell: no footnote.
  assert.doesNotMatch(formatDiff(d, 'text'), /^†/m)
})

test('human units in text and Markdown; CSV in base units with named columns', async () => {
  const d = await diffOf()
  for (const f of ['text', 'md'] as const) {
    // The tables (the header names temp directories, whose random names may hold anything).
    const out = formatDiff(d, f).replace(/^[\s\S]*?\n\n/, '')
    assert.match(out, /p2p\.latency latency/)
    assert.doesNotMatch(out, /\d[eE][+-]?\d/, `${f}: no exponents`)
    assert.doesNotMatch(out, /\d\.\d{5,}/, `${f}: no long fractions`)
    assert.doesNotMatch(out, /Infinity|NaN/, `${f}: no Infinity or NaN`)
    assert.doesNotMatch(out, /size=\d+\b(?! ?[KMG]?i?B)/, `${f}: no raw-byte sizes`)
    // One launch a side: the median alone, said to have no interval.
    assert.match(out, / (ns|µs) \(one launch: no interval\)/)
    assert.match(out, / GB\/s \(one launch: no interval\)/)
  }
  const [head, ...lines] = formatDiff(d, 'csv').split('\n')
  const first = lines.find((l) => l.includes(',p2p.latency,latency,'))
  const cols = head?.split(',') ?? []
  for (const name of ['unit', 'src', 'dst', 'size_bytes', 'p2p', 'a_median', 'b_median', 'changed'])
    assert.ok(cols.includes(name), name)
  const row = Object.fromEntries(cols.map((c, i) => [c, first?.split(',')[i]]))
  assert.equal(row.unit, 's')
  assert.ok(Number(row.a_median) < 1e-3, `seconds: ${row.a_median}`)
  assert.match(row.size_bytes ?? '', /^\d+$/)
})
