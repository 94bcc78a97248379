/**
 * Arms are never pooled into one line (#31): two NCCL_P2P_DISABLE arms of one grouping are two
 * latency and two busbw series, each named by its arm, not one "tp2 (2 groups…)" line.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { analyzeSet } from '../../src/analysis/index.ts'
import type { Row } from '../../src/model/index.ts'
import { makeRow } from '../../src/model/index.ts'
import { busbwCharts, latencyCharts } from '../../src/output/index.ts'
import { setOf } from '../analysis/compare-rows.ts'

function rows(): Row[] {
  const out: Row[] = []
  for (const v of ['0', '1'])
    for (let trial = 1; trial <= 3; trial++)
      for (const sizeBytes of [8, 65536, 1 << 20]) {
        const time = (v === '1' ? 20e-6 : 10e-6) + sizeBytes / 10e9
        const base = { bench: 'nccl.all_reduce', sizeBytes, grouping: 'tp2', group: '0,1', ranks: 2, trial }
        const at = { env: { NCCL_P2P_DISABLE: v }, point: `p~${v}~t${trial}`, source: { file: 'x', line: 1 } }
        out.push(makeRow({ ...base, ...at, metric: 'time', unit: 's', value: time }))
        out.push(makeRow({ ...base, ...at, metric: 'busbw', unit: 'B/s', value: sizeBytes / time }))
      }
  return out
}

test('each arm its own latency and busbw series, named by its env', () => {
  const set = setOf(rows(), true)
  const ctx = { simulated: true }
  const series = (spec: unknown): string[] =>
    [...JSON.stringify(spec).matchAll(/"series":"([^"]*)"/g)].map((m) => m[1] as string)
  const lat = latencyCharts(set.rows, analyzeSet(set), ctx)
  assert.equal(lat.length, 1)
  const names = new Set(series(lat[0]?.spec))
  assert.ok(names.has('tp2 NCCL_P2P_DISABLE=0 (1 group; floor α 10 µs)'), [...names].join(' | '))
  assert.ok(names.has('tp2 NCCL_P2P_DISABLE=1 (1 group; floor α 20 µs)'), [...names].join(' | '))
  assert.ok(![...names].some((n) => /^tp2 \(/.test(n)), [...names].join(' | '))
  const bw = new Set(series(busbwCharts(set.rows, ctx)[0]?.spec))
  assert.deepEqual([...bw].filter((n) => n.startsWith('tp2')).sort(), [
    'tp2 NCCL_P2P_DISABLE=0',
    'tp2 NCCL_P2P_DISABLE=1',
  ])
})
