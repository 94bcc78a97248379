/**
 * One place per extension: a simulator preset registered at run time is accepted by
 * `gpucomm sim` and by the sim instrument of `sweep`, and its numbers are the ones used.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { loadSet } from '../../src/resultset/index.ts'
import { runSweep } from '../../src/run/index.ts'
import type { Preset } from '../../src/sim/index.ts'
import { presetNames, registerPreset, trueTime } from '../../src/sim/index.ts'
import { seedVm } from '../../src/sim/presets/seed-vm.ts'
import { resolveSpec } from '../../src/sweep/index.ts'
import { cli, tmp } from '../helpers.ts'
import { simExecutor } from '../mock-executor.ts'

/** A test-only preset: the seed VM with a 10× slower NCCL call. */
const SLOW_VM: Preset = {
  ...seedVm,
  name: 'test-slow-vm',
  description: 'test only: the seed VM with NCCL base latencies ×10',
  nccl: { ...seedVm.nccl, baseLLUs: seedVm.nccl.baseLLUs * 10, baseSimpleUs: seedVm.nccl.baseSimpleUs * 10 },
}
registerPreset(SLOW_VM)

test('a registered preset is listed, refused twice, and drawn by gpucomm sim', async () => {
  assert.deepEqual(presetNames().slice(-1), ['test-slow-vm'])
  assert.throws(() => registerPreset(SLOW_VM), /already registered/)
  const r = await cli(['sim', '--preset', 'test-slow-vm', '--format', 'nccl-tests', '--gpus', '0-3', '--sizes', '8'])
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stdout, /test-slow-vm/)
})

test('sweep with a test-only preset: accepted by the sim instrument, its own numbers in the rows', async () => {
  const out = join(tmp(), 'set')
  const executor = simExecutor()
  const spec = resolveSpec(
    {
      instrument: 'sim',
      preset: 'test-slow-vm',
      gpus: '0-3',
      pairs: 'none',
      groupings: 'tp4',
      sizes: '8',
      trials: 1,
    },
    1,
  )
  const result = await runSweep({ spec, out, command: ['test'], deps: { executor } })
  assert.deepEqual(result.counts, { ok: 1 })
  assert.ok(executor.requests[0]?.command.args.join(' ').includes('--preset test-slow-vm'))
  const set = await loadSet(out)
  assert.equal(set.manifest.simulated, true)
  const times = set.rows.filter((r) => r.metric === 'time').map((r) => r.value)
  assert.ok(times.length > 0)
  const q = { kind: 'collective', collective: 'all_reduce', gpus: [0, 1, 2, 3], sizeBytes: 8 } as const
  const slow = trueTime('test-slow-vm', q)
  assert.ok(slow > 3 * trueTime('seed-vm', q), 'the registered numbers differ from the preset they copy')
  for (const t of times) assert.ok(Math.abs(t / slow - 1) < 0.2, `time ${t} ≈ ${slow}`)
})
