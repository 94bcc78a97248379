/** The mpirun launcher for real: OpenMPI starts simulator ranks (`--allow-run-as-root --oversubscribe -np 2`). */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { execa } from 'execa'
import type { SweepExtra } from '../../src/run/index.ts'
import { loadSet } from '../../src/resultset/index.ts'
import { tmp } from '../helpers.ts'
import { manifestOf, sweep } from '../e2e/_sweep.ts'

const probe = await execa('mpirun', ['--version'], { reject: false })
const missing = probe.exitCode === 0 && /Open MPI/.test(String(probe.stdout)) ? undefined : "OpenMPI's mpirun not found (Debian's openmpi-bin is not installed)"
if (missing) console.log(`# skipping the mpirun test: ${missing}`)

test('mpirun -np 2: two ranks, --tag-output lines parsed, env exported with -x', { skip: missing }, async () => {
  const out = join(tmp(), 'set')
  const r = await sweep(['--instrument', 'sim', '--preset', 'seed-vm', '--launcher', 'mpirun', '--gpus', '0-1', '--pairs', 'all', '--groupings', 'tp2',
    '--sizes', '8:1M:x4', '--trials', '1', '--seed', '8', '--env', 'NCCL_P2P_DISABLE=1', '--out', out])
  assert.equal(r.code, 0, r.stderr)
  const m = manifestOf(out)
  const id = 'nccl.all_reduce~tp2~NCCL_P2P_DISABLE=1~t1'
  assert.equal(m.outcomes?.[id]?.status, 'ok')
  assert.equal(m.outcomes?.['p2p~0,1~t1']?.status, 'ok')
  const launch = (m.extra?.sweep as SweepExtra).points[id]?.attempts[0]?.launches[0]
  const argv = launch?.argv ?? []
  assert.equal(argv[0], 'mpirun')
  assert.deepEqual(argv.slice(argv.indexOf('-np'), argv.indexOf('-np') + 2), ['-np', '2'])
  assert.ok(argv.includes('--tag-output') && argv.includes('CUDA_VISIBLE_DEVICES=0,1') && argv.includes('NCCL_DEBUG=INFO'))
  const text = readFileSync(join(out, launch?.stdout ?? ''), 'utf8')
  assert.match(text, /^\[1,0\]<stdout>:# SIMULATED by gpucomm sim/)
  const pids = new Set([...text.matchAll(/#\s+Rank\s+\d+ Group\s+\d+ Pid\s+(\d+)/g)].map((x) => x[1]))
  assert.equal(pids.size, 2, 'two processes behind the two ranks')
  const rows = (await loadSet(out)).rows.filter((x) => x.point === id)
  assert.ok(rows.length > 0 && rows.every((x) => x.ranks === 2 && x.env?.NCCL_P2P_DISABLE === '1'))
})
