/**
 * The sweep driver in-process, its processes answered by the simulator through a mock
 * Executor (no process is started): seeds, env axes with no visible effect, and resume of a
 * point whose rows were written but whose outcome never was.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { sweepCommand } from '../../src/cli/_sweep-flow.ts'
import { loadSet, readManifest, writeManifest } from '../../src/resultset/index.ts'
import type { SweepExtra } from '../../src/run/index.ts'
import { runSweep } from '../../src/run/index.ts'
import type { SpecInput } from '../../src/sweep/index.ts'
import { resolveSpec } from '../../src/sweep/index.ts'
import { rowBag } from '../e2e/_sweep.ts'
import { tmp } from '../helpers.ts'
import { simExecutor } from '../mock-executor.ts'

const SIM: SpecInput = { instrument: 'sim', preset: 'seed-vm' }

/** Runs a sweep of `input` into `out` in-process; returns the result and the executor's requests. */
async function sweepIn(out: string, input: SpecInput, resume = false) {
  const executor = simExecutor()
  const result = await runSweep({
    spec: resolveSpec({ ...SIM, ...input }, input.seed ?? 1),
    out,
    resume,
    command: ['test'],
    deps: { executor },
  })
  return { result, requests: executor.requests }
}

test('the driver launches through the injected executor: one request per point and group, no process started', async () => {
  const out = join(tmp(), 'set')
  const { result, requests } = await sweepIn(out, {
    gpus: '0-3',
    pairs: 'none',
    groupings: 'tp2',
    sizes: '8:64:x8',
    trials: 2,
  })
  // tp2 on 4 GPUs: 2 groups per point, 2 trials.
  assert.equal(requests.length, 4)
  assert.deepEqual(result.counts, { ok: 2 })
  assert.ok(requests.every((r) => r.command.args.includes('sim')))
  assert.ok((await loadSet(out)).rows.length > 0)
})

test('--seed fixes the numbers: the same seed gives the same rows, another seed other rows', async () => {
  const input: SpecInput = {
    gpus: '0-7',
    pairs: 'none',
    groupings: 'tp4',
    sizes: '8:1M:x4',
    trials: 1,
    order: 'shuffled',
  }
  const d = tmp()
  for (const [name, seed] of [
    ['a', 5],
    ['b', 5],
    ['c', 6],
  ] as const)
    await sweepIn(join(d, name), { ...input, seed })
  const [ra, rb, rc] = await Promise.all(['a', 'b', 'c'].map((x) => rowBag(join(d, x))))
  assert.ok(ra && ra.length > 0)
  assert.deepEqual(ra, rb)
  assert.notDeepEqual(ra, rc)
  assert.equal((readManifest(join(d, 'a')).extra?.sweep as SweepExtra).spec.seed, 5)
})

test('env axes: NCCL_P2P_DISABLE on a VM without P2P is flagged as making no visible difference; NCCL_PROTO is not', async () => {
  const out = join(tmp(), 'set')
  let stdout = ''
  const r = await sweepCommand(
    {
      flags: {
        ...SIM,
        gpus: '0-3',
        pairs: 'none',
        groupings: 'tp4',
        sizes: '8:64M:x8',
        trials: 2,
        seed: 5,
        env: ['NCCL_P2P_DISABLE=0,1', 'NCCL_PROTO=LL,Simple'],
      },
      out,
      command: ['test'],
      root: tmp(),
    },
    { stdout: (t) => void (stdout += t), stderr: () => {}, isTTY: false },
    { executor: simExecutor() },
  )
  assert.equal(r.code, 0)
  const flags = (readManifest(out).extra?.sweep as SweepExtra).noVisibleEffect
  assert.deepEqual(
    flags.map((f) => [f.axis, f.others.NCCL_PROTO, f.basis]),
    [
      ['NCCL_P2P_DISABLE', 'LL', 'timing'],
      ['NCCL_P2P_DISABLE', 'Simple', 'timing'],
    ],
  )
  assert.match(stdout, /no visible effect: NCCL_P2P_DISABLE=0,1 on nccl\.all_reduce tp4/)
  const rows = (await loadSet(out)).rows
  assert.deepEqual([...new Set(rows.map((x) => JSON.stringify(x.env)))].sort(), [
    '{"NCCL_P2P_DISABLE":"0","NCCL_PROTO":"LL"}',
    '{"NCCL_P2P_DISABLE":"0","NCCL_PROTO":"Simple"}',
    '{"NCCL_P2P_DISABLE":"1","NCCL_PROTO":"LL"}',
    '{"NCCL_P2P_DISABLE":"1","NCCL_PROTO":"Simple"}',
  ])
})

test('resume: rows of a point whose outcome was never recorded are dropped and rerun, never duplicated', async () => {
  const input: SpecInput = { gpus: '0-3', pairs: 'all', groupings: 'tp4,tp2', sizes: '8:1M:x4', trials: 2, seed: 99 }
  const ref = join(tmp(), 'ref')
  await sweepIn(ref, input)
  const want = await rowBag(ref)
  // A kill after a point's rows were appended but before its outcome was written.
  const dir = join(tmp(), 'cut')
  await sweepIn(dir, input)
  const m = readManifest(dir)
  const cut = 'nccl.all_reduce~tp2~t2'
  delete m.outcomes?.[cut]
  writeManifest(dir, m)
  const cutRows = (await loadSet(dir)).rows.filter((r) => r.point === cut).length
  assert.ok(cutRows > 0)
  const { result, requests } = await sweepIn(dir, input, true)
  assert.equal(result.resumeDropped, cutRows, 'the unrecorded point’s rows are dropped')
  assert.equal(result.ran, 1)
  assert.equal(requests.length, 2, 'only the unrecorded point runs again (tp2: two groups)')
  const got = await rowBag(dir)
  assert.equal(got.length, want.length, 'no sample duplicated or lost')
  assert.deepEqual(got, want)
})
