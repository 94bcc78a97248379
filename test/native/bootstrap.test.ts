/**
 * coll_bench's bootstrap of a multi-process run (built with the real nvcc into the tests' cache,
 * loading a stub libnccl.so.2, run here without a GPU): rank 0 writes the NCCL id into
 * --bootstrap DIR, the other ranks read it; a missing or stale id ends with a clear error. The
 * tests spawn the ranks (through _native.ts run), so this file keeps its own process.
 */
import assert from 'node:assert/strict'
import { statSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmp } from '../helpers.ts'
import { built, noGpuSkip, run, stubNccl, stubSkip } from './_native.ts'

for (const s of [stubSkip, noGpuSkip]) if (s) console.log(s)

test('coll_bench bootstrap: rank 0 creates DIR and writes the id before touching a GPU, rank 1 reads it; a lone rank 1 times out', {
  skip: stubSkip || noGpuSkip,
}, async () => {
  const coll = (await built()).collBench
  const lib = await stubNccl(tmp(), 22807)
  const dir = join(tmp(), 'raw', 'point', 'a1-g0,1.bootstrap') // its parents do not exist yet
  const rank = (r: number, extra: string[] = [], d = dir) =>
    run(coll, ['-n', '1', '--bootstrap', d, ...extra], {
      NCCL_LIBRARY: lib,
      OMPI_COMM_WORLD_RANK: String(r),
      OMPI_COMM_WORLD_SIZE: '2',
      OMPI_COMM_WORLD_LOCAL_RANK: String(r),
    })
  const r0 = await rank(0)
  assert.equal(r0.code, 3, r0.stderr)
  assert.equal(statSync(join(dir, 'nccl-unique-id')).size, 128, 'the 128-byte ncclUniqueId')
  // Exit 3 (no GPU) is past the bootstrap: rank 1 read the id. Had it not, it would end with
  // exit 5 after its timeout; no clock is read (a loaded machine once took 10 s to get there).
  const r1 = await rank(1, ['--bootstrap-timeout', '20'])
  assert.equal(r1.code, 3, `rank 1 got past the bootstrap to the (absent) GPU: ${r1.stderr}`)
  assert.equal(r1.stdout, '', 'only rank 0 prints')
  const lone = await rank(1, ['--bootstrap-timeout', '1'], join(tmp(), 'empty'))
  assert.equal(lone.code, 5)
  assert.match(
    lone.stderr.trim(),
    /^coll_bench: error: bootstrap: no unique id in .*empty\/nccl-unique-id after 1 s \(is rank 0 running\?\)$/,
  )
  const none = await run(coll, ['-n', '1'], { NCCL_LIBRARY: lib, OMPI_COMM_WORLD_RANK: '0', OMPI_COMM_WORLD_SIZE: '2' })
  assert.equal(none.code, 2)
  assert.match(none.stderr, /2 processes: --bootstrap DIR is required/)
})

test('coll_bench bootstrap with a stale id file: both ranks stop at once with a clear error, neither hangs', {
  skip: stubSkip || noGpuSkip,
}, async () => {
  const coll = (await built()).collBench
  const lib = await stubNccl(tmp(), 22807)
  const dir = tmp()
  const stale = join(dir, 'nccl-unique-id')
  writeFileSync(stale, Buffer.alloc(128, 7)) // a previous launch's id, ten minutes old
  const old = new Date(Date.now() - 600_000)
  utimesSync(stale, old, old)
  const rank = (r: number, env: Record<string, string> = {}) =>
    run(coll, ['-n', '1', '--bootstrap', dir, '--bootstrap-timeout', '60'], {
      NCCL_LIBRARY: lib,
      OMPI_COMM_WORLD_RANK: String(r),
      OMPI_COMM_WORLD_SIZE: '2',
      ...env,
    })
  // Neither waits for the 60 s timeout: each ends on the stale file, as its message says (a
  // timeout has its own message, 'no unique id … after 60 s').
  const [r0, r1] = await Promise.all([rank(0), rank(1)])
  assert.equal(r0.code, 5)
  assert.equal(
    r0.stderr.trim(),
    `coll_bench: error: bootstrap: ${stale} already exists (left by an earlier launch): use a fresh --bootstrap DIR or remove the file`,
  )
  assert.equal(r1.code, 5)
  assert.match(
    r1.stderr.trim(),
    /^coll_bench: error: bootstrap: .*nccl-unique-id is \d+ s old, older than the bootstrap timeout \(60 s\): left by an earlier launch/,
  )
  // Under a launcher that names the job step, the id file is that step's own: the stale one is never read.
  const step = { SLURM_JOB_ID: '4242', SLURM_STEP_ID: '3' }
  const [s0, s1] = await Promise.all([rank(0, step), rank(1, step)])
  assert.equal(s0.code, 3, s0.stderr)
  assert.equal(s1.code, 3, `rank 1 read this step's id and got to the (absent) GPU: ${s1.stderr}`)
  assert.equal(statSync(join(dir, 'nccl-unique-id.4242.3')).size, 128)
})
