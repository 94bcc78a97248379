/**
 * Real signals to a real `gpucomm sweep`: SIGINT then --resume, SIGKILL mid-sweep with a
 * half-written temp part then --resume, and the lock. The signalled sweeps are processes; the
 * reference sweep, the resumes and the refused second sweeps run in-process (the sim executor,
 * the in-process CLI): the lock they meet is the signalled process's.
 */

import assert from 'node:assert/strict'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite, test } from 'node:test'
import { loadSet } from '../../src/resultset/index.ts'
import type { SweepExtra } from '../../src/run/index.ts'
import type { SpecInput } from '../../src/sweep/index.ts'
import { cli, tmp } from '../helpers.ts'
import { manifestOf, rowBag, startSweep, sweepIn } from './_sweep.ts'

// 6 points: p2p + tp4 + tp2 on 4 GPUs, 2 trials.
const SPEC = [
  '--instrument',
  'sim',
  '--preset',
  'seed-vm',
  '--gpus',
  '0-3',
  '--pairs',
  'all',
  '--groupings',
  'tp4,tp2',
  '--sizes',
  '8:1K:x4',
  '--trials',
  '2',
  '--seed',
  '99',
]
/** SPEC as the sweep command's flags. */
const FLAGS: SpecInput = {
  instrument: 'sim',
  preset: 'seed-vm',
  gpus: '0-3',
  pairs: 'all',
  groupings: 'tp4,tp2',
  sizes: '8:1K:x4',
  trials: 2,
  seed: 99,
}
const IDS = [
  'nccl.all_reduce~tp2~t1',
  'nccl.all_reduce~tp2~t2',
  'nccl.all_reduce~tp4~t1',
  'nccl.all_reduce~tp4~t2',
  'p2p~0-3~t1',
  'p2p~0-3~t2',
]

let reference: Promise<{ dir: string; rows: string[] }> | undefined
/** The uninterrupted run everything is compared with (run once). */
function uninterrupted(): Promise<{ dir: string; rows: string[] }> {
  reference ??= (async () => {
    const dir = join(tmp(), 'ref')
    const r = await sweepIn(FLAGS, { out: dir })
    assert.equal(r.code, 0, r.stderr)
    return { dir, rows: await rowBag(dir) }
  })()
  return reference
}

async function assertSameAsUninterrupted(dir: string): Promise<void> {
  const ref = await uninterrupted()
  const m = manifestOf(dir)
  assert.deepEqual(Object.keys(m.outcomes ?? {}).sort(), IDS)
  assert.ok(Object.values(m.outcomes ?? {}).every((o) => o.status === 'ok'))
  const rows = await rowBag(dir)
  assert.equal(rows.length, ref.rows.length, 'no sample lost or duplicated')
  assert.deepEqual(rows, ref.rows)
  assert.equal(existsSync(join(dir, 'sweep.lock')), false)
}

// Three real sweeps stopped at once, side by side (each in its own directory).
suite('a real sweep stopped mid-way', { concurrency: 3 }, () => {
  test('SIGINT mid-sweep stops after the current write (exit 130); --resume DIR completes the same point set and rows', async () => {
    await uninterrupted()
    const dir = join(tmp(), 'int')
    const run = await startSweep([...SPEC, '--out', dir], /\[2\/6\]/)
    run.child.kill('SIGINT')
    const r = await run.child
    assert.equal(r.exitCode, 130, run.stderr())
    assert.match(String(r.stdout), new RegExp(`continue with: gpucomm sweep --resume ${dir}`))
    const m = manifestOf(dir)
    const done = Object.keys(m.outcomes ?? {}).length
    assert.ok(done >= 2 && done < 6, `${done} points written before the stop`)
    assert.equal((m.extra?.sweep as SweepExtra).interrupted, true)
    assert.equal(existsSync(join(dir, 'sweep.lock')), false, 'the lock is released')
    const resumed = await sweepIn({}, { resume: dir })
    assert.equal(resumed.code, 0, resumed.stderr)
    assert.match(resumed.stderr, new RegExp(`sweep: ${6 - done} points to run, ${done} already done`))
    await assertSameAsUninterrupted(dir)
    assert.equal((manifestOf(dir).extra?.sweep as SweepExtra).resumes.length, 1)
  })

  test('SIGKILL mid-sweep plus a half-written temp part: the set loads without it and --resume completes it, removing it', async () => {
    await uninterrupted()
    const dir = join(tmp(), 'kill')
    const run = await startSweep([...SPEC, '--out', dir], /\[3\/6\]/)
    run.child.kill('SIGKILL')
    await run.child
    assert.equal(existsSync(join(dir, 'sweep.lock')), true, 'a killed sweep leaves its lock')
    // What a kill in the middle of writing a part leaves: its temp file, a Parquet header and no footer.
    const stale = join(dir, 'samples', 'part-000099.parquet.4242.tmp')
    writeFileSync(stale, 'PAR1\u0015\u0004half a page')
    const partial = await loadSet(dir)
    assert.deepEqual(partial.diagnostics, [], 'a temp file is not a part')
    assert.ok(partial.rows.length > 0)
    const resumed = await sweepIn({}, { resume: dir })
    assert.equal(resumed.code, 0, resumed.stderr)
    assert.equal(existsSync(stale), false, "the writer that resumes removes the dead writer's temp part")
    await assertSameAsUninterrupted(dir)
    assert.equal((await loadSet(dir)).diagnostics.length, 0)
  })

  test('the lock: a second sweep on a set being written is refused (exit 2, one line) and changes nothing', async () => {
    const dir = join(tmp(), 'locked')
    const run = await startSweep(
      [...SPEC, '--timeout', '60', '--sim-fault', 'p2p~0-3~t1=hang', '--out', dir],
      /sweep: 6 points to run/,
    )
    try {
      const before = readFileSync(join(dir, 'manifest.json'), 'utf8')
      for (const args of [
        ['--resume', dir],
        [...SPEC, '--out', dir],
      ]) {
        const r = await cli(['sweep', ...args])
        assert.equal(r.code, 2)
        assert.match(r.stderr, /another sweep is writing this result set \(pid \d+ on /)
        assert.equal(r.stderr.trim().split('\n').length, 1)
      }
      assert.equal(readFileSync(join(dir, 'manifest.json'), 'utf8'), before)
    } finally {
      run.child.kill('SIGINT')
    }
    const r = await run.child
    assert.equal(r.exitCode, 130, 'SIGINT also ends a sweep stuck in a hang at once')
    assert.deepEqual(manifestOf(dir).outcomes, {})
  })
})
