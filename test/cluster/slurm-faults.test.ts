/** Slower Slurm checks (npm run test:cluster): concurrent srun groups, and a hang killed with its tasks. */

import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { execa } from 'execa'
import type { SweepExtra } from '../../src/run/index.ts'
import { CLEAN_ENV, manifestOf } from '../e2e/_sweep.ts'
import { BIN, ROOT, tmp } from '../helpers.ts'
import { packageSkip } from '../system.ts'
import { slurmMissing, startSlurm } from './_slurm.ts'

const missing = await slurmMissing()
const skip = packageSkip(missing)
if (missing) console.log(`# skipping the Slurm fault test: ${missing}`)

/** The live processes whose command line holds `marker`, polled until there are none or `ms` have passed. */
async function survivors(marker: string, ms: number): Promise<string[]> {
  const until = Date.now() + ms
  for (;;) {
    const ps = await execa('ps', ['-eo', 'pid,args'], { reject: false })
    const left = String(ps.stdout)
      .split('\n')
      .filter((l) => l.includes(marker) && !l.includes('<defunct>'))
    if (left.length === 0 || Date.now() > until) return left
    await new Promise((res) => setTimeout(res, 100))
  }
}

test('srun: two TP2 groups run as concurrent job steps; a hanging step is killed with its tasks', {
  skip,
}, async () => {
  const cluster = await startSlurm()
  const seed = 660_000 + (process.pid % 1000)
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
        '0-3',
        '--pairs',
        'none',
        '--groupings',
        'tp2',
        '--sizes',
        '8:1K:x2',
        '--trials',
        '2',
        '--seed',
        String(seed),
        // Generous: t1's steps must print within it; they ran 3.8-4.6 s (srun and node start included) at load 16.
        '--timeout',
        '15',
        '--retries',
        '0',
        '--sim-fault',
        't2=hang',
        '--out',
        out,
      ],
      { reject: false, cwd: ROOT, timeout: 120_000, env: { ...CLEAN_ENV, SLURM_CONF: cluster.conf }, extendEnv: true },
    )
    assert.equal(r.exitCode, 1, `${r.stdout}\n${r.stderr}`)
    const m = manifestOf(out)
    assert.equal(m.outcomes?.['nccl.all_reduce~tp2~t1']?.status, 'ok')
    assert.equal(m.outcomes?.['nccl.all_reduce~tp2~t2']?.status, 'hung')
    const [a, b] = (m.extra?.sweep as SweepExtra).points['nccl.all_reduce~tp2~t1']?.attempts[0]?.launches ?? []
    assert.ok(a && b && a.group === '0,1' && b.group === '2,3')
    assert.ok(Math.abs(a.startedMs - b.startedMs) < 1000 * Math.min(a.wallS, b.wallS), 'the two srun steps overlap')
    // slurmd ends the killed step's tasks on its own time (0.1-0.4 s after the sweep at load 14-17).
    assert.deepEqual(await survivors(`--seed ${seed} `, 15_000), [], 'no task outlives the kill')
  } finally {
    await cluster.stop()
  }
})
