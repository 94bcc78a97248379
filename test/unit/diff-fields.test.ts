/**
 * The fields diff projections name (src/diff/_fields.ts), on hand-made rows: what each reads
 * (the pair from src and dst, the requested size first, env.NAME and host.NAME from their own
 * maps), how numeric bounds are read, and what `--ignore` forgets (null for the fields a row
 * always carries, gone for the optional ones, one key of a map).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { mapFields } from '../../src/diff/_fields.ts'
import { FIELD_NAMES, fieldOf } from '../../src/diff/index.ts'
import type { Row } from '../../src/model/index.ts'
import { makeRow } from '../../src/model/index.ts'

const row = (over: Partial<Row> = {}): Row =>
  makeRow({ bench: 'p2p.latency', metric: 'latency', unit: 's', value: 1e-5, source: { file: 'x', line: 1 }, ...over })

const field = (name: string) => {
  const f = fieldOf(name)
  assert.ok(f, name)
  return f
}

test('fieldOf: the fields in table order, env.NAME and host.NAME, nothing else', () => {
  assert.equal(
    FIELD_NAMES,
    'bench, metric, pair, src, dst, group, ranks, grouping, size, placement, p2p, copy, staging, direction, timer, ' +
      'dtype, redop, root, env.NAME, host.NAME',
  )
  for (const n of ['env.NCCL_ALGO', 'host.governor', 'env.a.b']) assert.equal(fieldOf(n)?.name, n)
  for (const n of ['env.', 'host.', 'envX', 'env', 'xenv.A', 'hostXA', 'Size', 'pairs', '', 'env.A\nB'])
    assert.equal(fieldOf(n), undefined, n)
})

test('numeric fields read integers, decimals and negatives only; string fields read nothing', () => {
  const ranks = field('ranks')
  assert.deepEqual(
    ['4', '12', '-1', '1.5', '0.25'].map((t) => ranks.parse?.(t)),
    [4, 12, -1, 1.5, 0.25],
  )
  for (const t of ['x4', '4x', '1.', '.5', '1.x', '', '-', '--1', '1e3', '0x10', 'Infinity'])
    assert.equal(ranks.parse?.(t), undefined, t)
  for (const n of ['src', 'dst', 'root']) assert.equal(field(n).parse?.('7'), 7, n)
  for (const n of ['bench', 'metric', 'pair', 'group', 'grouping', 'placement', 'p2p', 'copy', 'timer', 'env.X'])
    assert.equal(field(n).parse, undefined, n)
  // Blanks around a bound are read past.
  assert.equal(ranks.parse?.(' 4 '), 4)
  // size takes human sizes.
  assert.equal(field('size').parse?.('64K'), 65536)
})

test('get: the pair from src and dst (one side alone prints as itself), the requested size first, null as missing', () => {
  const pair = field('pair')
  assert.equal(pair.get(row({ src: 0, dst: 1 })), '0→1')
  assert.equal(pair.get(row({ src: 0, dst: 0 })), '0→0')
  assert.equal(pair.get(row({ src: 3 })), 3)
  assert.equal(pair.get(row({ dst: 2 })), 2)
  assert.equal(pair.get(row()), undefined)
  const size = field('size')
  assert.equal(size.get(row({ sizeBytes: 1000 })), 1000)
  assert.equal(size.get(row({ sizeBytes: 1000, requestedBytes: 1024 })), 1024)
  assert.equal(size.get(row()), undefined)
  assert.equal(size.show(1024), '1 KiB')
  assert.equal(field('src').get(row({ src: 0 })), 0)
  assert.equal(field('p2p').get(row()), undefined)
  assert.equal(field('p2p').get(row({ p2p: 'enabled' })), 'enabled')
  assert.equal(field('copy').get(row()), undefined)
  assert.equal(field('bench').get(row()), 'p2p.latency')
  assert.equal(field('metric').get(row()), 'latency')
  const both = row({ env: { A: 'e' }, hostAxis: { A: 'h' } })
  assert.equal(field('env.A').get(both), 'e')
  assert.equal(field('host.A').get(both), 'h')
  assert.equal(field('env.B').get(both), undefined)
  assert.equal(field('env.A').get(row()), undefined)
  assert.equal(field('host.A').get(row()), undefined)
})

test('clear (--ignore): always-present fields become null, optional ones go, a map loses one key only', () => {
  const r = row({
    src: 0,
    dst: 1,
    ranks: 8,
    sizeBytes: 1000,
    requestedBytes: 1024,
    placement: 'same-node' as Row['placement'],
    p2p: 'enabled',
    timer: 'gpu',
    copy: 'ce',
    group: 'g',
    root: 0,
    env: { A: '1', B: '2' },
    hostAxis: { A: 'x' },
  })
  const cleared = (name: string): Row => {
    const c = structuredClone(r)
    field(name).clear(c)
    return c
  }
  for (const n of ['src', 'dst', 'ranks', 'placement', 'p2p', 'timer']) {
    const c = cleared(n)
    assert.ok(n in c && c[n as keyof Row] === null, n)
  }
  for (const n of ['copy', 'group', 'root']) assert.ok(!(n in cleared(n)), n)
  assert.deepEqual([cleared('pair').src, cleared('pair').dst], [null, null])
  const s = cleared('size')
  assert.ok(s.sizeBytes === null && !('requestedBytes' in s))
  assert.deepEqual(cleared('bench'), r)
  assert.deepEqual(cleared('metric'), r)
  assert.deepEqual([cleared('env.A').env, cleared('env.A').hostAxis], [{ B: '2' }, { A: 'x' }])
  assert.deepEqual([cleared('host.A').env, cleared('host.A').hostAxis], [{ A: '1', B: '2' }, {}])
  // A key the map does not hold, or no map at all: the row as it was.
  const kept = structuredClone(r)
  const env = kept.env
  field('env.C').clear(kept)
  assert.equal(kept.env, env, 'the same map, not a copy')
  assert.deepEqual(kept, r)
  const bare = row()
  field('env.A').clear(bare)
  field('host.A').clear(bare)
  assert.ok(!('env' in bare) && !('hostAxis' in bare))
})

test('mapFields: the env.NAME and host.NAME keys any config carries, once each, sorted', () => {
  const configs = [row({ env: { B: '1', A: '2' }, hostAxis: { z: 'x' } }), row({ env: { C: '3', A: '4' } }), row()]
  assert.deepEqual(
    mapFields(configs).map((f) => f.name),
    ['env.A', 'env.B', 'env.C', 'host.z'],
  )
})
