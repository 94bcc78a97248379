import assert from 'node:assert/strict'
import { test } from 'node:test'
import { HarnessError } from '../../src/errors/index.ts'
import type { InstrumentContext } from '../../src/instruments/index.ts'
import {
  geometricFlags,
  INSTRUMENTS,
  instrumentById,
  ncclSizeFlags,
  p2pSizeFlags,
} from '../../src/instruments/index.ts'
import { expandHostlist, launcherById, resolveHosts } from '../../src/launch/index.ts'
import type { SpecInput } from '../../src/sweep/index.ts'
import { plan, resolveSpec } from '../../src/sweep/index.ts'

const ctxFor = (input: SpecInput): InstrumentContext => ({
  spec: resolveSpec({ gpus: '0-7', ...input }, 5),
  repoRoot: '/repo',
  nodePath: '/node',
  scratchDir: '/out',
})

function pointsOf(ctx: InstrumentContext) {
  const benches = ctx.spec.instruments.flatMap((i) => instrumentById(i).benches(ctx.spec))
  return plan(ctx.spec, { benches }).points
}

test('the registry lists every instrument once, each with a parser id and a pure command', () => {
  const ids = INSTRUMENTS.map((i) => i.id)
  assert.deepEqual([...ids].sort(), ['native', 'nccl-tests', 'nvbandwidth', 'p2p', 'sim'])
  assert.throws(
    () => instrumentById('gpu-magic'),
    (e: unknown) => e instanceof HarnessError && /known: .*sim/.test(e.message),
  )
})

test('sim: the bin is run with node; format, GPUs, sizes, seed, trial and env follow the point; faults only where asked', () => {
  const ctx = ctxFor({
    instrument: 'sim',
    preset: 'seed-vm',
    groupings: 'tp4',
    sizes: '8:64M:x2',
    env: ['NCCL_PROTO=LL'],
    simFaults: ['t2=hang@1'],
    trials: 2,
  })
  const sim = instrumentById('sim')
  const pts = pointsOf(ctx)
  const coll = pts.find((p) => p.id === 'nccl.all_reduce~tp4~NCCL_PROTO=LL~t1')
  assert.ok(coll)
  const inv = sim.command(coll, { gpus: [4, 5, 6, 7], procs: 1 }, ctx, 1)
  assert.deepEqual(inv.argv, [
    '/node',
    '/repo/bin/gpucomm.js',
    'sim',
    '--preset',
    'seed-vm',
    '--format',
    'nccl-tests',
    '--collective',
    'all_reduce',
    '--sizes',
    '8:67108864:x2',
    '--gpus',
    '4-7',
    '--iters',
    '20',
    '--warmup',
    '1',
    '--seed',
    '5',
    '--trial',
    '1',
    '--env',
    'NCCL_PROTO=LL',
  ])
  const t2 = pts.find((p) => p.id.endsWith('~t2') && p.kind === 'collective')
  assert.ok(t2)
  assert.deepEqual(sim.command(t2, { gpus: [0, 1, 2, 3], procs: 1 }, ctx, 1).argv.slice(-2), ['--fault', 'hang'])
  assert.ok(!sim.command(t2, { gpus: [0, 1, 2, 3], procs: 1 }, ctx, 2).argv.includes('--fault'))
  const p2p = pts.find((p) => p.kind === 'pairs')
  assert.ok(p2p)
  // Pairs run the simulated p2p_bench: every ordered pair (and each GPU to itself), P2P on and off (the
  // driver's staging; the bench's own bounce costs the same in the model), latency sizes up to 1 MiB, bandwidth from 64 KiB.
  assert.deepEqual(sim.command(p2p, { gpus: [0, 1, 2, 3, 4, 5, 6, 7], procs: 1 }, ctx, 1).argv.slice(5, 17), [
    '--format',
    'p2p-bench',
    '--copy',
    'ce',
    '--p2p',
    'enabled,disabled',
    '--pairs',
    'all',
    '--sizes',
    '8:1048576:x2',
    '--bw-sizes',
    '65536:67108864:x2',
  ])
  assert.equal(sim.parser(p2p), 'native')
  assert.equal(sim.parser(coll), 'nccl-tests-text')
})

test('nccl-tests: -g N in one process, -g 1 per rank; sizes as -b/-e/-f or -i', () => {
  const ctx = ctxFor({
    instrument: 'nccl-tests',
    ncclTestsDir: '/nt',
    pairs: 'none',
    groupings: 'tp8',
    sizes: '8:128M:x2',
  })
  const nt = instrumentById('nccl-tests')
  const p = pointsOf(ctx)[0]
  assert.ok(p)
  assert.deepEqual(nt.command(p, { gpus: [0, 1, 2, 3, 4, 5, 6, 7], procs: 1 }, ctx, 1).argv, [
    '/nt/all_reduce_perf',
    '-b',
    '8',
    '-e',
    '134217728',
    '-f',
    '2',
    '-g',
    '8',
    '-w',
    '1',
    '-n',
    '20',
    '-c',
    '1',
  ])
  assert.deepEqual(nt.command(p, { gpus: [0, 1, 2, 3, 4, 5, 6, 7], procs: 8 }, ctx, 1).argv.slice(7, 9), ['-g', '1'])
  assert.deepEqual(ncclSizeFlags([1024, 2048, 3072]), ['-b', '1024', '-e', '3072', '-i', '1024'])
  assert.throws(() => ncclSizeFlags([8, 100, 101]), /geometric/)
  assert.match(nt.unavailable(ctx, () => false) ?? '', /all_reduce_perf not found/)
  assert.match(instrumentById('p2p').unavailable(ctxFor({ instrument: 'p2p' }), () => true) ?? '', /--p2p-bin/)
})

test('native: p2p_bench gets "all" or visible-ordinal pairs; coll_bench a fresh bootstrap dir per rank launch', () => {
  const ctx = ctxFor({ instrument: 'native', nativeDir: '/nb', gpus: '2,3,5', groupings: 'tp3', sizes: '8:1M:x4' })
  const nat = instrumentById('native')
  const pts = pointsOf(ctx)
  const pairs = pts.find((p) => p.kind === 'pairs')
  assert.ok(pairs)
  // The sweep's sizes 8:1M:x4: latency over all of them (≤ 1 MiB), bandwidth over those ≥ 64 KiB.
  assert.deepEqual(nat.command(pairs, { gpus: [2, 3, 5], procs: 1 }, ctx, 1).argv.slice(0, 17), [
    '/nb/p2p_bench',
    '--pairs',
    'all',
    '--tests',
    'latency,bw_uni,bw_bi',
    '-b',
    '8',
    '-e',
    '524288',
    '-f',
    '4',
    '-B',
    '131072',
    '-E',
    '524288',
    '-F',
    '4',
  ])
  assert.deepEqual(p2pSizeFlags([8, 16, 32]), ['--tests', 'latency', '-b', '8', '-e', '32', '-f', '2'])
  assert.deepEqual(p2pSizeFlags([4 << 20, 16 << 20]), [
    '--tests',
    'bw_uni,bw_bi',
    '-B',
    '4194304',
    '-E',
    '16777216',
    '-F',
    '4',
  ])
  assert.deepEqual(p2pSizeFlags([1 << 20]), [
    '--tests',
    'latency,bw_uni,bw_bi',
    '-b',
    '1048576',
    '-e',
    '1048576',
    '-B',
    '1048576',
    '-E',
    '1048576',
  ])
  assert.throws(() => p2pSizeFlags([8, 24, 40]), /geometric/)
  assert.deepEqual(geometricFlags([8, 64, 512]), ['-b', '8', '-e', '512', '-f', '8'])
  const selfPairs = {
    ...pairs,
    pairs: [
      [2, 2],
      [3, 3],
      [5, 5],
    ] as [number, number][],
  }
  assert.deepEqual(nat.command(selfPairs, { gpus: [2, 3, 5], procs: 1 }, ctx, 1).argv.slice(1, 3), ['--pairs', 'self'])
  const some = {
    ...pairs,
    pairs: [
      [2, 5],
      [5, 3],
    ] as [number, number][],
  }
  assert.deepEqual(nat.command(some, { gpus: [2, 3, 5], procs: 1 }, ctx, 1).argv.slice(1, 3), ['--pairs', '0:2,2:1'])
  const coll = pts.find((p) => p.kind === 'collective')
  assert.ok(coll)
  const one = nat.command(coll, { gpus: [2, 3, 5], procs: 1 }, ctx, 1).argv
  assert.deepEqual(one.slice(0, 9), ['/nb/coll_bench', '--coll', 'all_reduce', '-b', '8', '-e', '524288', '-f', '4'])
  assert.ok(!one.includes('--bootstrap'))
  const ranks = nat.command(coll, { gpus: [2, 3, 5], procs: 3 }, ctx, 2).argv
  assert.equal(ranks[ranks.indexOf('-g') + 1], '1')
  assert.equal(ranks[ranks.indexOf('--bootstrap') + 1], '/out/raw/nccl.all_reduce~tp3~t1/a2-g2,3,5.bootstrap')
})

test('launchers: local sets CUDA_VISIBLE_DEVICES; mpirun -np/-H/-x/--tag-output; srun --ntasks and GPU requests', () => {
  const inv = { argv: ['/bin/bench', '-g', '1'], env: { NCCL_PROTO: 'LL' } }
  const base = {
    inv,
    gpus: [4, 5, 6, 7],
    procs: 4,
    hosts: [] as string[],
    srunGpus: 'gpus-per-task' as const,
    asRoot: false,
  }
  assert.deepEqual(launcherById('local').wrap(base), {
    file: '/bin/bench',
    args: ['-g', '1'],
    env: { NCCL_PROTO: 'LL', CUDA_VISIBLE_DEVICES: '4,5,6,7' },
  })
  assert.equal(launcherById('local').procs('collective', 4), 1)
  const m = launcherById('mpirun').wrap({ ...base, hosts: ['a', 'b'], asRoot: true })
  assert.equal(m.file, 'mpirun')
  assert.deepEqual(m.args, [
    '--allow-run-as-root',
    '--oversubscribe',
    '-np',
    '4',
    '-H',
    'a,b',
    '--tag-output',
    '-x',
    'NCCL_PROTO=LL',
    '-x',
    'CUDA_VISIBLE_DEVICES=4,5,6,7',
    '/bin/bench',
    '-g',
    '1',
  ])
  assert.equal(launcherById('mpirun').procs('collective', 4), 4)
  assert.equal(launcherById('mpirun').procs('pairs', 8), 1)
  const s = launcherById('srun').wrap(base)
  assert.deepEqual(s.args, [
    '--ntasks',
    '4',
    '--export=ALL',
    '--unbuffered',
    '--kill-on-bad-exit=1',
    '--gpus-per-task',
    '1',
    '/bin/bench',
    '-g',
    '1',
  ])
  assert.equal(s.env.CUDA_VISIBLE_DEVICES, undefined)
  const g = launcherById('srun').wrap({ ...base, srunGpus: 'gres', hosts: ['n1'] })
  assert.deepEqual(g.args.slice(5), ['--nodelist', 'n1', '--gres', 'gpu:4', '/bin/bench', '-g', '1'])
  assert.equal(g.env.CUDA_VISIBLE_DEVICES, '4,5,6,7')
})

test('hosts: Slurm hostlists expand with their padding; flags win over the allocation', () => {
  assert.deepEqual(expandHostlist('node[01-03,07],gpu5'), ['node01', 'node02', 'node03', 'node07', 'gpu5'])
  assert.deepEqual(expandHostlist('a,b'), ['a', 'b'])
  assert.deepEqual(resolveHosts([], { SLURM_JOB_NODELIST: 'n[1-2]' }), ['n1', 'n2'])
  assert.deepEqual(resolveHosts(['x'], { SLURM_JOB_NODELIST: 'n[1-2]' }), ['x'])
  assert.deepEqual(resolveHosts([], {}), [])
})
