import assert from 'node:assert/strict'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { defaultSpecInput, readPreset } from '../../src/cli/_sweep-defaults.ts'
import { instrumentById } from '../../src/instruments/index.ts'
import type { GpuQuery } from '../../src/run/index.ts'
import { plan, resolveSpec } from '../../src/sweep/index.ts'
import { cli, ROOT } from '../helpers.ts'

const presets = readdirSync(join(ROOT, 'bench')).filter((f) => /^sweep-.*\.json$/.test(f))

test('every bench/sweep-*.json preset passes the schema check and plans', () => {
  assert.ok(presets.length >= 4)
  for (const f of presets) {
    const input = readPreset(join(ROOT, 'bench', f))
    const spec = resolveSpec({ gpus: '0-7', groupings: 'tp8', ...input, instrument: 'sim', preset: 'seed-vm' }, 1)
    const p = plan(spec, { benches: instrumentById('sim').benches(spec) })
    assert.ok(p.points.length > 0, f)
  }
})

const gpus = (n: number): GpuQuery => ({
  found: true,
  gpus: Array.from({ length: n }, (_, index) => ({ index, name: 'GPU' })),
})

test('the default plan: seed-vm simulation without a GPU (all pairs, TP8 vs TP4); native benches on the GPUs found', () => {
  const sim = resolveSpec(defaultSpecInput({ found: false, reason: 'nvidia-smi not found', gpus: [] }), 1)
  assert.deepEqual([sim.instruments, sim.preset, sim.groupings, sim.seed], [['sim'], 'seed-vm', ['tp8', 'tp4'], 1])
  const p = plan(sim, { benches: instrumentById('sim').benches(sim) })
  assert.equal(p.points.length, 18) // (p2p + tp8 + tp4) × 6 trials
  assert.equal(p.points.find((x) => x.kind === 'pairs')?.pairs?.length, 56)
  const eight = resolveSpec(defaultSpecInput(gpus(8)), 1)
  assert.deepEqual([eight.instruments, eight.gpus.length, eight.groupings], [['native'], 8, ['tp8', 'tp4']])
  assert.deepEqual(resolveSpec(defaultSpecInput(gpus(4)), 1).groupings, ['tp4', 'tp2'])
  // One GPU: its copies to itself (local and host-staged floors), nothing else; 3 trials.
  const one = resolveSpec(defaultSpecInput(gpus(1)), 1)
  assert.deepEqual([one.pairs, one.collectives, one.groupings], [[[0, 0]], [], []])
  const p1 = plan(one, { benches: instrumentById('native').benches(one) })
  assert.deepEqual(
    p1.points.map((x) => x.id),
    ['native.p2p~0:self~t1', 'native.p2p~0:self~t2', 'native.p2p~0:self~t3'],
  )
  // Two GPUs' self pairs are as many as their cross pairs, and still named self.
  const two = resolveSpec({ ...defaultSpecInput(gpus(2)), pairs: 'self' }, 1)
  assert.equal(plan(two, { benches: instrumentById('native').benches(two) }).points[0]?.id, 'native.p2p~0,1:self~t1')
})

test('--spec FILE with flags on top, and a bad preset named in one line', async () => {
  const r = await cli([
    'sweep',
    '--spec',
    join(ROOT, 'bench', 'sweep-nccl-env.json'),
    '--instrument',
    'sim',
    '--preset',
    'seed-vm',
    '--gpus',
    '0-7',
    '--trials',
    '1',
    '--seed',
    '2',
    '--dry-run',
  ])
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stdout, /# 16 points, 0 skipped/)
  assert.match(r.stdout, /env axes NCCL_P2P_DISABLE=0,1 NCCL_SHM_DISABLE=0,1 NCCL_PROTO=LL,Simple/)
  const bad = await cli(['sweep', '--spec', join(ROOT, 'package.json'), '--dry-run'])
  assert.equal(bad.code, 2)
  assert.match(bad.stderr, /package\.json: unknown key "name"/)
})
