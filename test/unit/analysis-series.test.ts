/**
 * Rows → series (src/analysis/fit/_series.ts) on hand-made rows: which rows are time-like (and
 * which are not), the identity of a series (pair or group, the options it keeps, env in key
 * order, the host only when the rows span several), sizes and their sample lists, unsized
 * rows, bandwidths without a size, bw_uni rows as times, in-place twins, and the same over
 * IndexedRows (rows as loadSamples reads them). Every expected value is written out here.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Series } from '../../src/analysis/index.ts'
import { buildSeries, seriesId } from '../../src/analysis/index.ts'
import type { Row } from '../../src/model/index.ts'
import { indexedRows, makeRow } from '../../src/model/index.ts'

const source = { file: 'raw/a.txt', line: 1 }
/** A p2p.latency row of pair 0→1 (seconds), changed by `over`. */
const row = (value: number, over: Partial<Row> = {}): Row =>
  makeRow({ bench: 'p2p.latency', metric: 'latency', unit: 's', value, sizeBytes: 8, src: 0, dst: 1, source, ...over })
const bw = (value: number, sizeBytes: number | null, over: Partial<Row> = {}): Row =>
  row(value, { bench: 'p2p.bw_uni', metric: 'bandwidth', unit: 'B/s', sizeBytes, ...over })
/** What a user of a series reads, Maps and Sets as arrays in their order. */
const view = (s: Series) => ({
  id: s.id,
  benches: [...s.benches],
  sizes: [...s.bySize],
  unsized: s.unsized,
  bandwidths: s.bandwidths,
  origins: [...s.origins],
})

test('time-like rows only: CPU-timed p2p rows, other metrics and units, non-positive and bidirectional bandwidths left out', () => {
  const ar = { bench: 'nccl.all_reduce', metric: 'time' as const, src: null, dst: null, group: '0-7', ranks: 8 }
  const series = buildSeries([
    row(2e-6),
    row(9e-6, { timer: 'cpu' }), // p2pBandwidthLatencyTest's CPU matrix: call overhead
    row(3e-6, { timer: 'gpu' }),
    row(5e-5, { ...ar, sizeBytes: 1024, timer: 'cpu' }), // nccl-tests' host timer is the real thing
    row(6e-5, { ...ar, sizeBytes: 1024, metric: 'busbw', unit: 'B/s' }),
    row(7e-5, { ...ar, sizeBytes: 1024, unit: 'count' }),
    row(8e-5, { ...ar, sizeBytes: 1024, metric: 'wrong' }),
    row(4e-5, { ...ar, sizeBytes: 2048 }),
    bw(2e10, 1e6), // 1 MB at 20 GB/s: 50 µs on the latency line
    bw(0, 1e6),
    bw(-1, 1e6),
    bw(4e10, null), // no size: β directly
    bw(1e10, 1e6, { bench: 'p2p.bw_bi' }),
    bw(1e10, 1e6, { timer: 'cpu' }),
    bw(5, 1e6, { metric: 'wrong', unit: 'count' }), // a bw_uni count, not a bandwidth
    row(1e-6, { bench: 'p2p.latency', unit: 'B/s', metric: 'latency', sizeBytes: 16 }),
  ])
  assert.deepEqual(series.map(view), [
    {
      id: { bench: 'p2p.latency', p2p: null, src: 0, dst: 1 },
      benches: ['p2p.latency', 'p2p.bw_uni'],
      sizes: [
        [8, [2e-6, 3e-6]],
        [1e6, [5e-5]],
      ],
      unsized: 0,
      bandwidths: [4e10],
      origins: ['raw/a.txt'],
    },
    {
      id: { bench: 'nccl.all_reduce', p2p: null, group: '0-7', ranks: 8 },
      benches: ['nccl.all_reduce'],
      sizes: [
        [1024, [5e-5]],
        [2048, [4e-5]],
      ],
      unsized: 0,
      bandwidths: [],
      origins: ['raw/a.txt'],
    },
  ])
  assert.equal(series[0]?.key, '{"bench":"p2p.latency","p2p":null,"src":0,"dst":1}')
  // A bandwidth ≤ 0 is not a time ≤ 0: it is left out uncounted.
  assert.equal(series[0]?.nonPositive, 0)
})

test('a series identity: a pair or a group, ranks of groups only, every option stated, env sorted, no empty env', () => {
  const all = {
    grouping: 'tp4',
    peerAccess: false,
    copy: 'sm' as const,
    staging: 'bounce' as const,
    direction: 'read' as const,
    placement: 'in-place' as const,
    dtype: 'float',
    redop: 'sum',
    root: 0,
    env: { NCCL_PROTO: 'LL', NCCL_ALGO: 'Ring' },
  }
  const pair = seriesId(row(1, { ranks: 2, group: '0-1', p2p: 'enabled', ...all }), 'p2p.latency')
  assert.deepEqual(pair, {
    bench: 'p2p.latency',
    p2p: 'enabled',
    src: 0,
    dst: 1,
    ...all,
    env: { NCCL_ALGO: 'Ring', NCCL_PROTO: 'LL' },
  })
  assert.deepEqual(Object.keys(pair.env ?? {}), ['NCCL_ALGO', 'NCCL_PROTO'])
  assert.deepEqual(seriesId(row(1, { src: null, dst: null, group: '0-3', ranks: 4, env: {} }), 'nccl.all_reduce'), {
    bench: 'nccl.all_reduce',
    p2p: null,
    group: '0-3',
    ranks: 4,
  })
  // Half a pair is no pair: the group and ranks stand.
  assert.deepEqual(seriesId(row(1, { dst: null, group: '0-1', ranks: 2 }), 'x'), {
    bench: 'x',
    p2p: null,
    group: '0-1',
    ranks: 2,
  })
  assert.deepEqual(seriesId(row(1, { src: null, ranks: null }), 'x'), { bench: 'x', p2p: null })
  assert.deepEqual(seriesId(row(1, { placement: 'out-of-place', host: 'n1' }), 'x'), {
    bench: 'x',
    p2p: null,
    src: 0,
    dst: 1,
    placement: 'out-of-place',
  })
  assert.deepEqual(seriesId(row(1, { host: 'n1' }), 'x', true), { bench: 'x', host: 'n1', p2p: null, src: 0, dst: 1 })
  assert.deepEqual(seriesId(row(1, { host: '' }), 'x', true), { bench: 'x', p2p: null, src: 0, dst: 1 })
  // Env in any key order is one series.
  const s = buildSeries([row(1, { env: { B: '1', A: '2' } }), row(2, { env: { A: '2', B: '1' } })])
  assert.equal(s.length, 1)
  assert.deepEqual(s[0]?.bySize.get(8), [1, 2])
})

test('one series per host when the rows span several hosts; one host, or rows without one, keep one series', () => {
  const one = buildSeries([row(1, { host: 'n1' }), row(2, { host: 'n1' }), row(3)])
  assert.deepEqual(one.map(view), [
    {
      id: { bench: 'p2p.latency', p2p: null, src: 0, dst: 1 },
      benches: ['p2p.latency'],
      sizes: [[8, [1, 2, 3]]],
      unsized: 0,
      bandwidths: [],
      origins: ['raw/a.txt'],
    },
  ])
  const two = buildSeries([row(1, { host: 'n1' }), row(2, { host: 'n2' }), row(3, { host: 'n1' }), row(4)])
  assert.deepEqual(
    two.map((s) => [s.id.host, s.bySize.get(8)]),
    [
      ['n1', [1, 3]],
      ['n2', [2]],
      [undefined, [4]],
    ],
  )
})

test('sizes, unsized rows as 0 B, origins (sweep point or raw file), bandwidth-only series dropped', () => {
  const s = buildSeries([
    row(4, { sizeBytes: 64, point: 'p3' }),
    row(1, { sizeBytes: null, source: { file: 'raw/b.txt', line: 9 } }),
    row(2, { sizeBytes: 0 }),
    row(3, { sizeBytes: null }),
    row(5, { sizeBytes: 64 }),
    bw(8e9, null, { src: 2, dst: 3 }), // pair 2→3 has no time: no series
    bw(2e9, 4e9, { src: 1, dst: 0 }), // 4 GB at 2 GB/s: 2 s
  ])
  assert.deepEqual(s.map(view), [
    {
      id: { bench: 'p2p.latency', p2p: null, src: 0, dst: 1 },
      benches: ['p2p.latency'],
      sizes: [
        [64, [4, 5]],
        [0, [1, 2, 3]],
      ],
      unsized: 2,
      bandwidths: [],
      origins: ['p3', 'raw/b.txt', 'raw/a.txt'],
    },
    {
      id: { bench: 'p2p.latency', p2p: null, src: 1, dst: 0 },
      benches: ['p2p.bw_uni'],
      sizes: [[4e9, [2]]],
      unsized: 0,
      bandwidths: [],
      origins: ['raw/a.txt'],
    },
  ])
})

test('in-place series dropped when their out-of-place twin exists, kept alone', () => {
  const g = (group: string, placement: Row['placement'], value: number): Row =>
    row(value, { bench: 'nccl.all_reduce', src: null, dst: null, group, ranks: 4, placement })
  const s = buildSeries([
    g('0-3', 'in-place', 1),
    g('0-3', 'out-of-place', 2),
    g('4-7', 'in-place', 3),
    g('0-7', null, 4),
    g('0-7', 'in-place', 5),
  ])
  assert.deepEqual(
    s.map((x) => [x.id.group, x.id.placement, x.bySize.get(8)]),
    [
      ['0-3', 'out-of-place', [2]],
      ['4-7', 'in-place', [3]],
      ['0-7', undefined, [4]],
      ['0-7', 'in-place', [5]],
    ],
  )
})

test('IndexedRows: per group and sign, unsized rows counted each, bandwidths kept, the first n rows only', () => {
  const reps = [
    row(0, { sizeBytes: null }), // 0: unsized latency
    bw(0, 1e6), // 1: sized bw_uni, a time where positive
    bw(0, null), // 2: unsized bw_uni: bandwidths
    row(0, { timer: 'cpu' }), // 3: not time-like
    row(0, { sizeBytes: 8, host: 'n1' }), // 4: sized latency
    row(0, { src: 2, dst: 3, sizeBytes: null }), // 5: another pair, unsized
  ]
  const group = Int32Array.from([0, 1, 1, 2, 3, 0, 1, 2, 4, 0, 1, 5, 5, 4])
  const value = Float64Array.from([1, 0, 2e10, 3e10, 9, 2, 4e10, -5, 7, 3, -1, 6, 8, 99])
  const s = buildSeries(indexedRows(reps, group, value, 13))
  assert.deepEqual(s.map(view), [
    {
      id: { bench: 'p2p.latency', p2p: null, src: 0, dst: 1 },
      benches: ['p2p.latency', 'p2p.bw_uni'],
      sizes: [
        [0, [1, 2, 3]],
        [1e6, [5e-5, 2.5e-5]],
        [8, [7]],
      ],
      unsized: 3,
      bandwidths: [3e10],
      origins: ['raw/a.txt'],
    },
    {
      id: { bench: 'p2p.latency', p2p: null, src: 2, dst: 3 },
      benches: ['p2p.latency'],
      sizes: [[0, [6, 8]]],
      unsized: 2,
      bandwidths: [],
      origins: ['raw/a.txt'],
    },
  ])
})

test('times ≤ 0 or NaN are counted in nonPositive, never a sample, and add no size (rows and IndexedRows)', () => {
  // 8 B: 2 µs and a 0; 16 B: only -1 and NaN (no size list at all); unsized: a 0 (not unsized).
  const rows = [row(2e-6), row(0), row(-1, { sizeBytes: 16 }), row(Number.NaN, { sizeBytes: 16 })]
  const [a, ...none] = buildSeries([...rows, row(0, { sizeBytes: null })])
  assert.deepEqual(none, [])
  assert.deepEqual([[...(a?.bySize ?? [])], a?.unsized, a?.nonPositive], [[[8, [2e-6]]], 0, 4])
  // A series with no positive time has no size: it is not a series; `left` counts its times.
  const left = { nonPositive: -1 }
  assert.deepEqual(buildSeries([row(0), row(-2e-6, { src: 1, dst: 0 }), row(1e-6, { src: 2, dst: 0 })], left).length, 1)
  assert.equal(left.nonPositive, 2)
  // IndexedRows: group 0 = 8 B, group 1 = 16 B, group 2 = unsized; a 0 first in its group and later.
  const reps = [row(0), row(0, { sizeBytes: 16 }), row(0, { sizeBytes: null })]
  const group = Int32Array.from([0, 0, 0, 1, 1, 2, 2, 0])
  const value = Float64Array.from([0, 3e-6, -1, Number.NaN, 0, 0, 5e-6, 4e-6])
  const [b, ...rest] = buildSeries(indexedRows(reps, group, value, 8))
  assert.deepEqual(rest, [])
  assert.deepEqual(
    [[...(b?.bySize ?? [])], b?.unsized, b?.nonPositive],
    [
      [
        [8, [3e-6, 4e-6]],
        [0, [5e-6]],
      ],
      1,
      5,
    ],
  )
})
