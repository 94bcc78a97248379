/**
 * The node-pairs schedule on a real Slurm cluster (issue 16): the test starts slurmctld and
 * four slurmd nodes on this machine (Slurm's multiple-slurmd mode, see _slurm.ts), takes a
 * 4-node allocation with salloc, and runs `gpucomm sweep --launcher srun --pattern node-pairs`
 * inside it with the simulator as the instrument: every job is an srun job step on its two
 * nodes, and the simulator names the nodes Slurm gave the step (SLURM_STEP_NODELIST).
 */

import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { execa } from 'execa'
import { loadSet } from '../../src/resultset/index.ts'
import { tmp } from '../helpers.ts'
import { packageSkip } from '../system.ts'
import { SWEEP, sallocSweep, slurmMissing, startSlurm } from './_slurm.ts'

const missing = await slurmMissing()
if (missing) console.log(`# skipping the Slurm cluster test: ${missing}`)

test('4 slurmd nodes, salloc -N 4, node-pairs through srun job steps: every pair exactly once, hosts are the Slurm node names', {
  skip: packageSkip(missing),
}, async () => {
  const cluster = await startSlurm({ nodes: 4 })
  try {
    const out = join(tmp(), 'set')
    const r = await sallocSweep(cluster.conf, 4, [
      ...SWEEP,
      ...['--pattern', 'node-pairs', '--sizes', '8,1M', '--trials', '1', '--seed', '3', '--out', out],
    ])
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`)
    const set = await loadSet(out)
    const cl = set.manifest.extra?.cluster as { allocation: string[]; nodes: string[]; rounds: unknown[] }
    assert.deepEqual(cl.allocation, cluster.nodes, 'the allocation is the one salloc gave')
    assert.equal(cl.rounds.length, 3)
    assert.ok(Object.values(set.manifest.outcomes ?? {}).every((o) => o.status === 'ok'))
    const want = ['node01,node02', 'node01,node03', 'node01,node04', 'node02,node03', 'node02,node04', 'node03,node04']
    for (const bench of ['nccl.all_reduce', 'nccl.sendrecv']) {
      const rows = set.rows.filter((x) => x.bench === bench)
      // Each pair's rows come from one job step's output, and no pair is measured twice.
      const files = new Map<string, Set<string>>()
      for (const x of rows) files.set(x.host ?? '', (files.get(x.host ?? '') ?? new Set()).add(x.source?.file ?? ''))
      assert.deepEqual([...files.keys()].sort(), want, bench)
      for (const [pair, f] of files) assert.equal(f.size, 1, `${bench} ${pair}: ${[...f]}`)
    }
    // The text is the instrument's, with the nodes Slurm placed the two tasks on.
    const step = readdirSync(join(out, 'raw')).find((d) => d.includes('sendrecv')) as string
    for (const f of readdirSync(join(out, 'raw', step)).filter((x) => x.endsWith('.stdout'))) {
      const text = readFileSync(join(out, 'raw', step, f), 'utf8')
      const [a, b] = f.replace('.stdout', '').split('+')
      assert.match(text, new RegExp(`Rank +0 Group +0 Pid +\\d+ on +${a} device`), f)
      assert.match(text, new RegExp(`Rank +1 Group +0 Pid +\\d+ on +${b} device`), f)
    }
  } finally {
    await cluster.stop()
  }
  const left = await execa('pgrep', ['-f', cluster.conf], { reject: false })
  assert.equal(String(left.stdout).trim(), '', 'every daemon is gone')
})
