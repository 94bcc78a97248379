/**
 * Cluster sweeps against a real 4-node Slurm cluster (issue 16), beyond the one npm test
 * runs: an odd node count (one node sits out each round, said in the plan, every pair still
 * once), and bad input that Slurm itself answers: an allocation smaller than --nodes, a
 * --hosts list naming nodes outside the allocation or unknown to Slurm, mpirun. Bad input
 * exits 2 with one line and writes nothing.
 */

import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { execa } from 'execa'
import { loadSet } from '../../src/resultset/index.ts'
import { CLEAN_ENV } from '../e2e/_sweep.ts'
import { BIN, ROOT, tmp } from '../helpers.ts'
import { packageSkip } from '../system.ts'
import { SWEEP, sallocSweep, slurmMissing, startSlurm } from './_slurm.ts'

const missing = await slurmMissing()

test('real Slurm nodes: odd count sits one out per round; bad allocations and hostlists exit 2 with one line, nothing written', {
  skip: packageSkip(missing),
}, async () => {
  const cluster = await startSlurm({ nodes: 4 })
  try {
    // Three of the four allocated nodes: 3 rounds of 1 pair, a different node out each round.
    const odd = join(tmp(), 'set')
    const dry = await sallocSweep(cluster.conf, 4, [...SWEEP, '--nodes', '3', '--pattern', 'node-pairs', '--dry-run'])
    assert.equal(dry.code, 0, dry.stderr)
    assert.match(dry.stdout, /# node-pairs: 3 rounds of 1 pairs/)
    assert.match(dry.stdout, /3 nodes is odd: one node sits out each round/)
    const outs = [...dry.stdout.matchAll(/\((node0\d) sits out\)/g)].map((m) => m[1])
    assert.deepEqual([...outs].sort(), ['node01', 'node02', 'node03'])
    const r = await sallocSweep(cluster.conf, 4, [
      ...SWEEP,
      ...['--nodes', '3', '--pattern', 'node-pairs', '--sizes', '8', '--trials', '1', '--out', odd],
    ])
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`)
    const set = await loadSet(odd)
    const send = set.rows.filter((x) => x.bench === 'nccl.sendrecv')
    assert.deepEqual([...new Set(send.map((x) => x.host))].sort(), ['node01,node02', 'node01,node03', 'node02,node03'])
    assert.equal(new Set(send.map((x) => x.source?.file)).size, 3, 'one job step per pair: each pair once')

    const bad: [number | undefined, string[], RegExp][] = [
      [
        2,
        ['--nodes', '4', '--pattern', 'node-pairs'],
        /--nodes 4: the allocation has only 2 node\(s\) \(node01,node02\)/,
      ],
      [2, ['--hosts', 'node01,node03', '--pattern', 'node-pairs'], /node03 not in the Slurm allocation/],
      [undefined, ['--hosts', 'node01,node09', '--pattern', 'node-pairs'], /Slurm knows no node node09/],
      [4, ['--launcher', 'mpirun', '--pattern', 'node-pairs'], /not mpirun/],
      [4, ['--nodes', '1', '--pattern', 'scaling'], /needs at least 2 nodes/],
    ]
    for (const [n, args, msg] of bad) {
      const out = join(tmp(), 'set')
      const base = args.includes('--launcher') ? SWEEP.slice(0, 4) : SWEEP
      const all = [...base, ...args, '--sizes', '8', '--out', out]
      const x =
        n === undefined
          ? await execa(process.execPath, [BIN, 'sweep', ...all], {
              reject: false,
              cwd: ROOT,
              env: { ...CLEAN_ENV, SLURM_CONF: cluster.conf },
              extendEnv: true,
            }).then((v) => ({ code: v.exitCode, stderr: String(v.stderr) }))
          : await sallocSweep(cluster.conf, n, all)
      assert.equal(x.code, 2, `${args.join(' ')}: ${x.stderr}`)
      const lines = x.stderr.split('\n').filter((l) => l && !l.startsWith('salloc:'))
      assert.equal(lines.length, 1, x.stderr)
      assert.match(lines[0] as string, msg)
      assert.ok(!existsSync(out), `${args.join(' ')} wrote ${out}`)
    }
  } finally {
    await cluster.stop()
  }
  const left = await execa('pgrep', ['-f', cluster.conf], { reject: false })
  assert.equal(String(left.stdout).trim(), '', 'every daemon is gone')
})
