/**
 * Independent arms: two arms of one trial (host knobs, NCCL env) draw their own drift and
 * noise, so their ratio varies from trial to trial instead of staying at the truth's ratio.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { simulate } from '../../src/sim/index.ts'
import { ncclRows } from './_helpers.ts'

const BASE = { preset: 'seed-vm', format: 'nccl-tests', gpus: [0, 1], sizes: [8], seed: 11 } as const

/** The 8 B out-of-place time of each trial (µs) under extra options. */
const times = (extra: object): number[] =>
  [0, 1, 2, 3, 4, 5].map((trial) => ncclRows(simulate({ ...BASE, ...extra, trial }))[0]?.oop.time as number)

const spread = (xs: readonly number[]): number => Math.max(...xs) / Math.min(...xs) - 1

test('host-axis arms: the ratio of the arms varies across trials', () => {
  const dflt = times({ host: { cstates: 'default' } })
  const shallow = times({ host: { cstates: 'shallow' } })
  const ratios = dflt.map((d, i) => d / (shallow[i] as number))
  // Shared draws kept this ratio constant to the print's rounding (< 0.1 %).
  assert.ok(spread(ratios) > 0.01, `ratios ${ratios.map((r) => r.toFixed(4)).join(' ')}`)
})

test('env arms: the ratio of the arms varies across trials', () => {
  const a = times({ env: { NCCL_PROTO: 'Simple' } })
  const b = times({ env: { NCCL_PROTO: 'LL' } })
  const ratios = a.map((x, i) => x / (b[i] as number))
  assert.ok(spread(ratios) > 0.01, `ratios ${ratios.map((r) => r.toFixed(4)).join(' ')}`)
})

test('one arm is reproducible: the same arm and seed print the same bytes', () => {
  const o = { ...BASE, host: { cstates: 'shallow' }, trial: 2 }
  assert.equal(simulate(o), simulate(o))
})
