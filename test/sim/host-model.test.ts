/**
 * The simulator's host model on every preset (a MODEL, labelled so): the host knobs move only
 * copies staged through host memory. Where P2P is direct (baremetal-turin, pcie-switch,
 * nvlink) a copy between GPUs does not pass through host memory and stays where it was; the
 * same copy with P2P disabled is staged and pays the knobs, as every cross copy does in the VM.
 * `sweep --host-axis` runs on every preset.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import type { Row } from '../../src/model/index.ts'
import { parserById, parseText } from '../../src/parsers/index.ts'
import { loadSet } from '../../src/resultset/index.ts'
import { presetByName } from '../../src/sim/_physics.ts'
import { presetNames, simulate } from '../../src/sim/index.ts'
import { sweepIn } from '../e2e/_sweep.ts'
import { tmp } from '../helpers.ts'
import { median } from './_helpers.ts'

const native = parserById('native') as NonNullable<ReturnType<typeof parserById>>

/** Mean 8 B CE latency (µs) of cross-GPU copies, by P2P mode, under `host`. */
function latencies(preset: string, host: Record<string, string>): { direct: number[]; staged: number[] } {
  // Twelve trials: each arm draws its own drift and noise, so one trial is not enough.
  const text = Array.from({ length: 12 }, (_, trial) =>
    simulate({
      preset,
      format: 'p2p-bench',
      gpus: [0, 1],
      sizes: [8],
      bwSizes: [],
      copies: ['ce'],
      iters: 10,
      seed: 4,
      trial,
      host,
    }),
  )
  const rows = text.flatMap((t) => parseText(native, t, { file: 'sim.txt' }).rows).filter((r) => r.src !== r.dst)
  const us = (f: (r: Row) => boolean): number[] => rows.filter(f).map((r) => r.value * 1e6)
  return { direct: us((r) => r.peerAccess === true), staged: us((r) => r.p2p === 'disabled') }
}

test('every preset carries a host model, labelled a MODEL with its assumptions and sources', () => {
  assert.deepEqual(presetNames().sort(), ['baremetal-turin', 'nvlink', 'pcie-switch', 'seed-vm'])
  for (const name of presetNames()) {
    const h = presetByName(name).host
    assert.ok(h, `${name} has no host model`)
    assert.match(h.basis, /^MODEL: /)
    assert.match(h.basis, /rtx6kpro|assumption/)
  }
})

for (const preset of ['baremetal-turin', 'pcie-switch', 'nvlink']) {
  test(`${preset}: cstates=shallow and numa=remote leave direct P2P copies unchanged and move staged ones`, () => {
    const base = latencies(preset, {})
    for (const [host, shift] of [
      [{ cstates: 'shallow' }, -2],
      [{ numa: 'remote' }, 0.6],
    ] as const) {
      const k = latencies(preset, host)
      assert.ok(base.direct.length >= 10 && k.direct.length === base.direct.length, `${preset}: direct rows`)
      const direct = median(k.direct) - median(base.direct)
      assert.ok(Math.abs(direct) < 0.05, `${preset} ${JSON.stringify(host)}: direct P2P moved ${direct} µs`)
      const staged = median(k.staged) - median(base.staged)
      assert.ok(Math.abs(staged - shift) < 0.3, `${preset} ${JSON.stringify(host)}: staged moved ${staged} µs`)
    }
  })
}

test('seed-vm: every cross copy is staged, so the knob moves them all', () => {
  const base = latencies('seed-vm', {})
  const k = latencies('seed-vm', { cstates: 'shallow' })
  assert.equal(base.direct.length, 0)
  const staged = median(k.staged) - median(base.staged)
  assert.ok(Math.abs(staged + 2) < 0.3, `${staged} µs`)
})

test('sweep --host-axis runs on every preset; on nvlink only the P2P-disabled rows differ', async () => {
  for (const preset of ['baremetal-turin', 'pcie-switch', 'nvlink']) {
    const out = join(tmp('gpucomm-hostmodel-'), 'out')
    // In-process through the sim executor: the simulator's bytes for each point, no process.
    const r = await sweepIn(
      {
        ...{ instrument: 'sim', preset, gpus: '0-1', pairs: 'all', collectives: 'all_reduce' },
        ...{ groupings: 'tp2', sizes: '8', trials: 3, iters: 10, seed: 4, hostAxis: ['cstates=default,shallow'] },
      },
      { out },
    )
    assert.equal(r.code, 0, `${preset}: ${r.stderr}`)
    if (preset !== 'nvlink') continue
    const { rows } = await loadSet(out)
    const lat = (v: string, f: (x: Row) => boolean): number =>
      median(
        rows
          .filter((x) => x.bench === 'p2p.latency' && x.timer === 'gpu' && x.src !== x.dst && x.hostAxis?.cstates === v)
          .filter(f)
          .map((x) => x.value * 1e6),
      )
    const direct = (x: Row): boolean => x.peerAccess === true
    const staged = (x: Row): boolean => x.p2p === 'disabled'
    assert.ok(Math.abs(lat('default', direct) - lat('shallow', direct)) < 0.05)
    assert.ok(Math.abs(lat('default', staged) - lat('shallow', staged) - 2) < 0.3)
  }
})
