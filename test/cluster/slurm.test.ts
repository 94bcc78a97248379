/** The srun launcher for real: a private single-node Slurm cluster runs a 2-task sweep of simulator ranks. */

import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { execa } from 'execa'
import { loadSet } from '../../src/resultset/index.ts'
import type { SweepExtra } from '../../src/run/index.ts'
import { CLEAN_ENV, manifestOf } from '../e2e/_sweep.ts'
import { BIN, ROOT, tmp } from '../helpers.ts'
import { packageSkip } from '../system.ts'
import { slurmMissing, startSlurm } from './_slurm.ts'

const missing = await slurmMissing()
const skip = packageSkip(missing)
if (missing) console.log(`# skipping the Slurm test: ${missing}`)

test('srun --ntasks 2: both ranks start under Slurm, rank 0 prints, rows parse; the env reaches the tasks', {
  skip,
}, async () => {
  const cluster = await startSlurm()
  try {
    const out = join(tmp(), 'set')
    const r = await execa(
      process.execPath,
      [
        BIN,
        'sweep',
        '--instrument',
        'sim',
        '--preset',
        'seed-vm',
        '--launcher',
        'srun',
        '--srun-gpus',
        'none',
        '--gpus',
        '0-1',
        '--pairs',
        'none',
        '--groupings',
        'tp2',
        '--sizes',
        '8:1M:x4',
        '--trials',
        '1',
        '--seed',
        '3',
        '--env',
        'NCCL_PROTO=Simple',
        '--timeout',
        '30',
        '--out',
        out,
      ],
      { reject: false, cwd: ROOT, timeout: 120_000, env: { ...CLEAN_ENV, SLURM_CONF: cluster.conf }, extendEnv: true },
    )
    assert.equal(r.exitCode, 0, `${r.stdout}\n${r.stderr}`)
    const m = manifestOf(out)
    assert.equal(m.outcomes?.['nccl.all_reduce~tp2~NCCL_PROTO=Simple~t1']?.status, 'ok')
    const launch = (m.extra?.sweep as SweepExtra).points['nccl.all_reduce~tp2~NCCL_PROTO=Simple~t1']?.attempts[0]
      ?.launches[0]
    assert.deepEqual(launch?.argv.slice(0, 6), [
      'srun',
      '--ntasks',
      '2',
      '--export=ALL',
      '--unbuffered',
      '--kill-on-bad-exit=1',
    ])
    assert.equal(launch?.env.CUDA_VISIBLE_DEVICES, '0,1')
    const text = readFileSync(join(out, launch?.stdout ?? ''), 'utf8')
    // Two processes (two Pids) behind the two rank lines: Slurm started both tasks.
    const pids = new Set([...text.matchAll(/#\s+Rank\s+\d+ Group\s+\d+ Pid\s+(\d+)/g)].map((x) => x[1]))
    assert.equal(pids.size, 2, text.slice(0, 800))
    const set = await loadSet(out)
    assert.ok(set.rows.length > 0)
    assert.ok(set.rows.every((x) => x.ranks === 2 && x.grouping === 'tp2' && x.env?.NCCL_PROTO === 'Simple'))
  } finally {
    await cluster.stop()
  }
  const left = await execa('pgrep', ['-f', cluster.conf], { reject: false })
  assert.equal(String(left.stdout).trim(), '', 'both daemons are gone')
})
