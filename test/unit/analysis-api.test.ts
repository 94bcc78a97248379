/**
 * The async entry points (src/analysis/_api.ts) on one tiny set written to disk and the same
 * rows in memory: analyze reads the set and its topology (embedded in the manifest), builds
 * the cells here or on the worker thread (the same cells either way, none when asked for none),
 * says why there are no link classes, and fails with exit code 2 on a directory that is no
 * result set; compare reads the set too. Expected values are written out here.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import type { Analysis } from '../../src/analysis/index.ts'
import { analyze, compare } from '../../src/analysis/index.ts'
import { HarnessError } from '../../src/errors/index.ts'
import type { Manifest, Row } from '../../src/model/index.ts'
import { indexedRows, makeRow } from '../../src/model/index.ts'
import { writeSet } from '../analysis/generated.ts'
import { tmp } from '../helpers.ts'

const US = 1e-6
/** Pair 0→1 on 13 µs + size / 25 GB/s and two all_reduce groupings, two trials at three sizes. */
const rows: Row[] = [8, 4096, 65536].flatMap((x) =>
  [0, 1].flatMap((trial) => [
    makeRow({
      bench: 'p2p.latency',
      metric: 'latency',
      unit: 's',
      value: 13 * US + x / 25e9 + trial * US,
      sizeBytes: x,
      src: 0,
      dst: 1,
      p2p: 'disabled',
      trial,
      source: { file: 'raw/a.txt', line: 1 },
    }),
    ...(['tp2', 'tp4'] as const).map((grouping, i) =>
      makeRow({
        bench: 'nccl.all_reduce',
        metric: 'time',
        unit: 's',
        value: (20 + 10 * i) * US + x / 10e9,
        sizeBytes: x,
        ranks: 2 + 2 * i,
        grouping,
        group: i ? '0-3' : '0-1',
        placement: 'out-of-place',
        trial,
        source: { file: 'raw/n.txt', line: 1 },
      }),
    ),
  ]),
)
const topology = { pairs: [{ a: 0, b: 1, link: 'NODE' }] }
let dir: string | undefined
const setDir = async (): Promise<string> => (dir ??= await writeSet(rows, { topology }))
const pair = (a: Analysis) => a.fits.find((f) => f.src === 0)
/** The cell of pair 0→1 at 8 B: 13 and 14 µs (and the 8 B on the wire). */
const cell8 = (a: Analysis) => a.cells.find((c) => c.config.src === 0 && c.config.sizeBytes === 8)

test('analyze a set on disk: its rows, the topology in its manifest, the cells here or on the worker thread', async () => {
  const d = await setDir()
  const here = await analyze(d, { replicates: 20 })
  assert.equal(here.dir, d)
  assert.deepEqual(here.topology, { source: 'manifest.json extra.topology', note: 'pairs aggregated by link class' })
  assert.equal(pair(here)?.linkClass, 'NODE')
  assert.equal(here.fits.length, 3)
  assert.equal(here.cells.length, 9)
  const c = cell8(here)
  assert.equal(c?.n, 2)
  assert.ok(Math.abs((c?.median ?? 0) / (13.5 * US + 8 / 25e9) - 1) < 1e-9)
  // 18 rows: at a minimum of 1 the cells are built on the worker thread, the same cells.
  const worker = await analyze(d, { replicates: 20, workerMin: 1 })
  assert.deepEqual(worker.cells, here.cells)
  assert.deepEqual(worker.fits, here.fits)
  assert.deepEqual((await analyze(d, { replicates: 20, workerMin: 1, cells: false })).cells, [])
  assert.deepEqual((await analyze(d, { replicates: 20, workerMin: 18 })).cells, here.cells)
  assert.deepEqual((await analyze(d, { replicates: 20, workerMin: 19 })).cells, here.cells)
})

test('analyze rows in memory: no topology in the set, none given, or one given; the note says which', async () => {
  const manifest: Manifest = {
    schema: 2,
    id: 'mem',
    created: '2026-01-01T00:00:00Z',
    origin: 'import',
    simulated: false,
    command: [],
    gpucommVersion: '0',
  }
  const set = { dir: join(tmp(), 'no-such-set'), manifest, diagnostics: [], rows }
  const loaded = await analyze(set, { replicates: 20, workerMin: 1, topologyNote: 'ignored' })
  assert.deepEqual(loaded.topology, {
    source: null,
    note: 'no topology capture in the set: pairs aggregated as one class',
  })
  assert.equal(loaded.id, 'mem')
  assert.equal(cell8(loaded)?.n, 2)
  assert.deepEqual((await analyze(set, { topology: null })).topology, {
    source: null,
    note: 'no topology capture: pairs aggregated as one class',
  })
  // IndexedRows in memory, as many as the worker minimum: the cells all the same (built here:
  // the arrays are not shared).
  const ix = indexedRows(
    rows,
    Int32Array.from(rows.keys()),
    Float64Array.from(rows, (r) => r.value),
    rows.length,
  )
  const indexed = await analyze({ ...set, rows: ix }, { replicates: 20, workerMin: 18, topology: null })
  assert.deepEqual(indexed.cells, loaded.cells)
  const view = { source: 'given', linkClass: () => 'SYS' }
  const given = await analyze({ ...set, manifest: { ...manifest, extra: { topology } } }, { topology: view })
  assert.deepEqual([given.topology.source, pair(given)?.linkClass], ['given', 'SYS'])
})

test('a directory that is no result set: HarnessError, exit code 2, with or without the worker thread', async () => {
  for (const workerMin of [undefined, 1])
    await assert.rejects(analyze(join(tmp(), 'missing'), { workerMin }), (e: unknown) => {
      assert.ok(e instanceof HarnessError)
      assert.equal(e.code, 2)
      return true
    })
  await assert.rejects(compare(join(tmp(), 'missing')), HarnessError)
})

test('compare reads the set from disk or takes it in memory: the groupings per bench', async () => {
  const d = await setDir()
  const c = await compare(d)
  assert.deepEqual([c.dir, c.by], [d, 'grouping'])
  assert.deepEqual(
    c.benches.map((b) => b.bench),
    ['nccl.all_reduce'],
  )
  assert.deepEqual(c.benches[0]?.groupings, ['tp2', 'tp4'])
  const mem = await compare({
    dir: 'in-memory',
    manifest: { ...c, id: 'mem' } as unknown as Manifest,
    diagnostics: [],
    rows,
  })
  assert.deepEqual([mem.dir, mem.id, mem.benches[0]?.groupings], ['in-memory', 'mem', ['tp2', 'tp4']])
})
