/**
 * The passes over IndexedRows (rows as a representative per group of conditions plus per-row
 * group numbers and values, as loadSamples reads a set) against the same rows one by one:
 * buildSeries and groupRows must give the same series, cells, values, launch numbers and
 * order. The rows mix what the per-group shortcut has to get right: bw_uni rows that join
 * the latency series (and those whose value is not positive, which do not), sizes that are
 * not recorded, bandwidths without a size, CPU-timed p2p rows, two hosts, in-place twins and
 * groups interleaved row by row, and an observed condition (peer access) that differs between trials.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { buildSeries, machineContext } from '../../src/analysis/index.ts'
import { cells, groupRows } from '../../src/cells/index.ts'
import type { IndexedRows, Row } from '../../src/model/index.ts'
import { eachRow, indexedRows, isIndexed, makeRow } from '../../src/model/index.ts'
import { mulberry32 } from '../../src/random/index.ts'
import { newManifest } from '../../src/resultset/index.ts'

function rows(): Row[] {
  const u = mulberry32(7)
  const out: Row[] = []
  for (let it = 0; it < 4; it++)
    for (const trial of [0, 1])
      for (const [src, dst] of [
        [0, 1],
        [1, 0],
      ] as const)
        for (const sizeBytes of [8, 4096, null]) {
          const common = {
            src,
            dst,
            trial,
            peerAccess: trial === 0,
            p2p: 'enabled' as const,
            source: { file: `raw/${trial}.txt`, line: 0 },
          }
          const host = { host: src === 0 ? 'node-a' : 'node-b' }
          out.push(
            makeRow({
              bench: 'p2p.latency',
              metric: 'latency',
              unit: 's',
              value: 1e-6 * (1 + u()),
              sizeBytes,
              timer: 'gpu',
              ...common,
              ...host,
            }),
            // Every third bandwidth is 0 or negative: no time there, so not in the series.
            makeRow({
              bench: 'p2p.bw_uni',
              metric: 'bandwidth',
              unit: 'B/s',
              value: it % 3 === 2 ? -u() : 2e10 * (1 + u()),
              sizeBytes,
              timer: 'gpu',
              ...common,
              ...host,
            }),
            makeRow({
              bench: 'p2p.latency',
              metric: 'latency',
              unit: 's',
              value: 9e-6 * (1 + u()),
              sizeBytes,
              timer: 'cpu',
              ...common,
            }),
          )
        }
  for (let it = 0; it < 3; it++)
    for (const placement of ['out-of-place', 'in-place'] as const)
      for (const group of ['0-1', '0-3'])
        out.push(
          makeRow({
            bench: 'nccl.all_reduce',
            metric: 'time',
            unit: 's',
            value: 3e-5 * (1 + u()),
            sizeBytes: 1024,
            group,
            ranks: 2,
            placement,
            source: { file: 'raw/n.txt', line: 0 },
          }),
        )
  return out
}

/** `rows` as IndexedRows: one representative per group of equal conditions (all but value and line). */
function indexed(all: readonly Row[]): IndexedRows {
  const ids = new Map<string, number>()
  const reps: Row[] = []
  const group = new Int32Array(all.length)
  const value = new Float64Array(all.length)
  all.forEach((r, i) => {
    const k = JSON.stringify({ ...r, value: 0, source: { file: r.source.file } })
    let g = ids.get(k)
    if (g === undefined) {
      ids.set(k, (g = reps.length))
      reps.push({ ...r })
    }
    group[i] = g
    value[i] = r.value
  })
  return indexedRows(reps, group, value, all.length)
}

/** JSON with Maps and Sets as arrays in their order, so order differences show. */
const ordered = (v: unknown): string =>
  JSON.stringify(v, (_, x) => (x instanceof Map ? [...x] : x instanceof Set ? [...x] : x))

test('buildSeries over IndexedRows: the same series, sizes, values and counts, in the same order', () => {
  const all = rows()
  const ix = indexed(all)
  assert.ok(isIndexed(ix) && !isIndexed(all))
  const want = buildSeries(all)
  const got = buildSeries(ix)
  assert.equal(ordered(got), ordered(want))
  // What the rows hold: a series per pair, host and peer access (here: trial), unsized
  // latencies counted, bandwidths kept, positive bandwidths joining the latencies as times.
  const s = want.find((x) => x.id.src === 0 && x.id.peerAccess) as (typeof want)[number]
  assert.equal(s.id.host, 'node-a')
  assert.equal(s.unsized, 4)
  assert.equal(s.bandwidths.length, 3)
  assert.equal(s.bySize.get(8)?.length, 7)
  assert.ok(!want.some((x) => x.id.placement === 'in-place'))
})

test('groupRows and cells over IndexedRows: the same cells, values and launch numbers, in the same order', () => {
  const all = rows()
  for (const requested of [false, true])
    assert.equal(ordered(groupRows(indexed(all), { requested })), ordered(groupRows(all, { requested })))
  assert.equal(ordered(cells(indexed(all))), ordered(cells(all)))
})

test('eachRow and the machine context over IndexedRows: the same rows, peer access and GPU count', () => {
  // Peer access of pair 0↔1: CAN in trial 0, CANNOT in trial 1 (the first CANNOT wins);
  // pair 2↔3 only CAN, from two files (the last row's file is the source).
  const all = rows()
  for (const file of ['raw/a.txt', 'raw/b.txt'])
    all.push(
      makeRow({
        bench: 'p2p.latency',
        metric: 'latency',
        unit: 's',
        value: 2e-6,
        sizeBytes: 8,
        src: 2,
        dst: 3,
        peerAccess: true,
        source: { file, line: 0 },
      }),
    )
  const seen: Row[] = []
  eachRow(indexed(all), (r) => seen.push({ ...r }))
  assert.deepEqual(seen, all)
  const manifest = newManifest({ origin: 'sweep', simulated: false, command: [] })
  const ctx = (rs: Iterable<Row>) => machineContext({ dir: 'd', manifest, diagnostics: [], rows: rs }, null)
  const [want, got] = [ctx(all), ctx(indexed(all))]
  assert.equal(got.gpus, 4)
  assert.equal(got.gpus, want.gpus)
  for (const [a, b] of [
    [0, 1],
    [2, 3],
  ] as const)
    assert.deepEqual(got.peerAccess(a, b), want.peerAccess(a, b))
  assert.deepEqual(want.peerAccess(0, 1), { value: false, source: 'raw/1.txt: Device=0 CANNOT Access Peer Device=1' })
  assert.equal(want.peerAccess(2, 3)?.source, 'raw/b.txt: Device=2 CAN Access Peer Device=3')
})
