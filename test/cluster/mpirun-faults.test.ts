/** Slower launcher checks (npm run test:cluster): a hang under mpirun is killed with every rank. */

import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { execa } from 'execa'
import { manifestOf, sweep } from '../e2e/_sweep.ts'
import { tmp } from '../helpers.ts'
import { packageSkip } from '../system.ts'

const probe = await execa('mpirun', ['--version'], { reject: false })
const missing =
  probe.exitCode === 0 && /Open MPI/.test(String(probe.stdout))
    ? undefined
    : "OpenMPI's mpirun not found (Debian's openmpi-bin is not installed)"
const skip = packageSkip(missing)
if (missing) console.log(`# skipping the mpirun fault test: ${missing}`)

test('a hang under mpirun: the watchdog kills mpirun and every rank (the process group)', {
  skip,
}, async () => {
  const out = join(tmp(), 'set')
  const seed = 770_000 + (process.pid % 1000)
  const r = await sweep([
    '--instrument',
    'sim',
    '--preset',
    'seed-vm',
    '--launcher',
    'mpirun',
    '--gpus',
    '0-1',
    '--pairs',
    'none',
    '--groupings',
    'tp2',
    '--sizes',
    '8:1K:x2',
    '--trials',
    '1',
    '--seed',
    String(seed),
    '--timeout',
    '5',
    '--retries',
    '0',
    '--sim-fault',
    't1=hang',
    '--out',
    out,
  ])
  assert.equal(r.code, 1)
  assert.equal(manifestOf(out).outcomes?.['nccl.all_reduce~tp2~t1']?.status, 'hung')
  const ps = await execa('ps', ['-eo', 'pid,args'], { reject: false })
  assert.deepEqual(
    String(ps.stdout)
      .split('\n')
      .filter((l) => l.includes(`--seed ${seed} `)),
    [],
    'no rank outlives the kill',
  )
})
