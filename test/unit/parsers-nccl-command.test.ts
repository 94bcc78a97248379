/**
 * Rank counts of multi-host nccl-tests logs whose rank list is cut short: from the launch
 * command line (-np, -n, --ntasks, -N × --ntasks-per-node, × -g), else from busbw/algbw of the
 * widest row, and the meta says which. Generated logs (test/nccl-multihost-gen.ts) and the real
 * command lines of the fixtures.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { factorRange } from '../../src/parsers/nccl-tests/_nccl-collective.ts'
import { launchFacts } from '../../src/parsers/nccl-tests/_nccl-command.ts'
import { multiHostLog } from '../nccl-multihost-gen.ts'
import { parse } from '../nccl-text.ts'

test("launchFacts: mpirun -np, srun -N × --ntasks-per-node, --ntasks=, -g/-t; the program's own -n is iterations", () => {
  const np = launchFacts(
    'mpirun -np 1024 -npernode 8 --hostfile h -x NCCL_IB_HCA=mlx5_0 ./all_reduce_perf -b 8 -n 50 -g 1',
  )
  assert.deepEqual(np, { env: { NCCL_IB_HCA: 'mlx5_0' }, ranks: 1024, hosts: 128, ranksFrom: '-np 1024' })
  assert.deepEqual(launchFacts('srun -N 16 --ntasks-per-node=4 all_gather_perf -g 2'), {
    ranks: 128,
    hosts: 16,
    ranksFrom: '-N 16 × --ntasks-per-node 4 × -g 2',
  })
  // Slurm's -N is nodes with one task each; Open MPI's -N is processes per node.
  assert.equal(launchFacts('srun -N 2 ./all_reduce_perf -g 4')?.ranks, 8)
  assert.equal(launchFacts('mpirun -N 8 -H a,b,c ./all_reduce_perf')?.ranks, 24)
  assert.equal(launchFacts('srun --ntasks=64 --export=ALL,FI_PROVIDER=efa all_reduce_perf -t 2')?.ranks, 128)
  assert.deepEqual(launchFacts('srun --ntasks=64 --export=ALL,FI_PROVIDER=efa all_reduce_perf')?.env, {
    FI_PROVIDER: 'efa',
  })
  assert.equal(launchFacts('mpirun -n 16 ./build/sendrecv_perf -n 100')?.ranks, 16)
  assert.deepEqual(launchFacts('root@box:~/nccl-tests# ./build/all_reduce_perf -b 8 -g2'), {
    ranks: 2,
    hosts: 1,
    ranksFrom: 'one process × -g 2',
  })
  // A hostfile hides the host count: no ranks without -np.
  assert.equal(launchFacts('mpirun --hostfile h -npernode 8 ./alltoall_perf')?.ranks, undefined)
  assert.equal(launchFacts('echo nothing to run here'), undefined)
})

test('factorRange: the rank counts busbw/algbw allows at two decimals', () => {
  assert.deepEqual(factorRange('2(n-1)/n', '39.99', '79.90'), [842, 1230])
  assert.deepEqual(factorRange('2(n-1)/n', '10.00', '15.00'), [4, 4])
  assert.deepEqual(factorRange('(n-1)/n', '43.93', '41.19'), [16, 16])
  assert.equal(factorRange('1', '10.00', '10.00'), undefined)
  assert.equal(factorRange('2(n-1)/n', '0.00', '0.00'), undefined)
})

const CUT = { hosts: 128, gpusPerHost: 8, listed: 100 } as const

test('generated 128-host log, rank list cut at 99, -np 1024 on the command line: every row on 1024 ranks, from the command line', () => {
  const cmd = 'mpirun -np 1024 -npernode 8 --hostfile hosts ./build/all_reduce_perf -b 8 -e 8G -f 2 -g 1'
  const o = parse(multiHostLog({ ...CUT, command: cmd }).split('\n'))
  assert.deepEqual([...new Set(o.rows.map((r) => r.ranks))], [1024])
  assert.equal(o.meta.ranks, 1024)
  assert.equal(o.meta.ranksFrom, 'command-line')
  assert.equal(o.meta.ranksListed, 100)
  assert.equal(o.meta.hosts.length, 13)
  assert.equal(o.meta.launch.hosts, 128)
  assert.ok(o.diags.includes('2 info ranks-from-command'), o.diags.join('\n'))
  assert.match(o.messages.join('\n'), /rank lines list 100 ranks, the command line launches 1024 \(-np 1024\)/)
})

test('generated 128-host log cut at 99 without a command line: 1024 ranks from busbw/algbw (the one power of two that fits), for every row', () => {
  const o = parse(multiHostLog(CUT).split('\n'))
  assert.deepEqual([...new Set(o.rows.map((r) => r.ranks))], [1024])
  assert.equal(o.meta.ranksFrom, 'busbw/algbw')
  assert.match(o.messages.join('\n'), /rank lines list 100 ranks, but busbw\/algbw .* needs 842–1230 ranks/)
  // A complete list that fits its factor stays the rank lines' count.
  const full = parse(multiHostLog({ hosts: 2, gpusPerHost: 8 }).split('\n'))
  assert.equal(full.meta.ranksFrom, 'rank-lines')
  assert.deepEqual([...new Set(full.rows.map((r) => r.ranks))], [16])
})
