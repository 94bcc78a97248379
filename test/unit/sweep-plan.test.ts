import assert from 'node:assert/strict'
import { test } from 'node:test'
import { HarnessError } from '../../src/errors/index.ts'
import type { BenchDef, SweepSpec } from '../../src/sweep/index.ts'
import {
  allPairs,
  checkSpecInput,
  envCombos,
  formatGpuList,
  parseGpuList,
  parsePairs,
  parseSizes,
  plan,
  resolveGroupings,
  resolveSpec,
  shuffle,
  sizesArg,
  splitGroupingTokens,
} from '../../src/sweep/index.ts'

const bad = (f: () => unknown, re: RegExp): void => {
  assert.throws(f, (e: unknown) => e instanceof HarnessError && e.code === 2 && re.test(e.message))
}

test('GPU lists: ranges, lists and their compact form', () => {
  assert.deepEqual(parseGpuList('0-7'), [0, 1, 2, 3, 4, 5, 6, 7])
  assert.deepEqual(parseGpuList('0,2,4'), [0, 2, 4])
  assert.deepEqual(parseGpuList('4-5,0'), [4, 5, 0])
  assert.equal(formatGpuList([0, 1, 2, 3]), '0-3')
  assert.equal(formatGpuList([0, 2, 4]), '0,2,4')
  assert.equal(formatGpuList([0, 1, 4, 5, 6]), '0,1,4-6')
  bad(() => parseGpuList('3-1'), /backwards/)
  bad(() => parseGpuList('0,0'), /twice/)
  bad(() => parseGpuList('a'), /not a GPU index/)
})

test('sizes: geometric ranges with suffixes, additive steps, lists', () => {
  const s = parseSizes('8:64M:x2')
  assert.equal(s.length, 24)
  assert.equal(s[0], 8)
  assert.equal(s[23], 64 * 2 ** 20)
  assert.deepEqual(parseSizes('1K:4K:+1K'), [1024, 2048, 3072, 4096])
  assert.deepEqual(parseSizes('8,1K,1M'), [8, 1024, 2 ** 20])
  assert.equal(sizesArg(s), '8:67108864:x2')
  assert.equal(sizesArg([8, 100]), '8,100')
  bad(() => parseSizes('64M:8:x2'), /max below min/)
  bad(() => parseSizes('8:64M:x1'), /factor/)
  bad(() => parseSizes('8,eight'), /not a size/)
})

test('groupings: tpN splits in order, explicit groups, best falls back with a reason', () => {
  const gpus = parseGpuList('0-7')
  assert.deepEqual(splitGroupingTokens('tp8,tp4'), ['tp8', 'tp4'])
  assert.deepEqual(splitGroupingTokens('tp8,0,2,4,6/1,3,5,7;0-3/4-7'), ['tp8', '0,2,4,6/1,3,5,7', '0-3/4-7'])
  const { groupings, skips } = resolveGroupings(['tp8', 'tp4', 'tp2', '0,2,4,6/1,3,5,7', 'best', 'tp3'], gpus)
  assert.deepEqual(
    groupings.map((g) => g.groups.length),
    [1, 2, 4, 2],
  )
  assert.deepEqual(groupings[1]?.groups, [
    [0, 1, 2, 3],
    [4, 5, 6, 7],
  ])
  assert.equal(groupings[3]?.name, '0,2,4,6/1,3,5,7')
  assert.deepEqual(
    skips.map((s) => s.name),
    ['best', 'tp3'],
  )
  assert.match(skips[0]?.reason ?? '', /topology/)
  const withBest = resolveGroupings(['best'], gpus, {
    groups: [
      [0, 1, 2, 3],
      [4, 5, 6, 7],
    ],
    note: 'ranked',
  })
  assert.equal(withBest.groupings[0]?.groups.length, 2)
  bad(() => resolveGroupings(['0-3/3-7'], gpus), /two groups/)
  bad(() => resolveGroupings(['0-3/8-9'], gpus), /not in --gpus/)
})

test('pairs and env axes', () => {
  assert.equal(allPairs([0, 1, 2]).length, 6)
  assert.deepEqual(parsePairs('0>1,2:3', [0, 1, 2, 3]), [
    [0, 1],
    [2, 3],
  ])
  bad(() => parsePairs('0>0', [0, 1]), /one GPU twice \(use self/)
  assert.deepEqual(parsePairs('self', [0, 2]), [
    [0, 0],
    [2, 2],
  ])
  assert.deepEqual(
    envCombos([
      ['A', ['0', '1']],
      ['B', ['x', 'y']],
    ]),
    [
      { A: '0', B: 'x' },
      { A: '0', B: 'y' },
      { A: '1', B: 'x' },
      { A: '1', B: 'y' },
    ],
  )
  assert.deepEqual(envCombos([]), [{}])
})

const BENCHES: BenchDef[] = [
  { instrument: 'sim', bench: 'p2p', kind: 'pairs', pairMode: 'matrix' },
  { instrument: 'sim', bench: 'nccl.all_reduce', kind: 'collective', collective: 'all_reduce' },
]

const spec = (over: Record<string, unknown> = {}, seed = 7): SweepSpec =>
  resolveSpec(
    {
      instrument: 'sim',
      preset: 'seed-vm',
      gpus: '0-7',
      pairs: 'all',
      groupings: 'tp8,tp4',
      sizes: '8:64M:x2',
      trials: 3,
      ...over,
    },
    seed,
  )

test('plan: benches × groupings × env × trials with stable ids, interleaved by trial', () => {
  const p = plan(spec({ env: ['NCCL_PROTO=LL,Simple'] }), { benches: BENCHES })
  // p2p: 1 matrix point; all_reduce: 2 groupings × 2 protos; all × 3 trials.
  assert.equal(p.points.length, (1 + 4) * 3)
  assert.deepEqual(
    p.points.slice(0, 5).map((x) => x.id),
    [
      'p2p~0-7~t1',
      'nccl.all_reduce~tp8~NCCL_PROTO=LL~t1',
      'nccl.all_reduce~tp8~NCCL_PROTO=Simple~t1',
      'nccl.all_reduce~tp4~NCCL_PROTO=LL~t1',
      'nccl.all_reduce~tp4~NCCL_PROTO=Simple~t1',
    ],
  )
  assert.equal(p.points[5]?.trial, 2)
  assert.equal(p.points[0]?.pairs?.length, 56)
  const tp4 = p.points.find((x) => x.grouping === 'tp4')
  assert.deepEqual(tp4?.groups, [
    [0, 1, 2, 3],
    [4, 5, 6, 7],
  ])
  assert.deepEqual(tp4?.env, { NCCL_PROTO: 'LL' })
  assert.equal(new Set(p.points.map((x) => x.id)).size, p.points.length)
})

test('plan: shuffled order is a permutation fixed by the seed', () => {
  const a = plan(spec({ order: 'shuffled' }, 42), { benches: BENCHES }).points.map((x) => x.id)
  const b = plan(spec({ order: 'shuffled' }, 42), { benches: BENCHES }).points.map((x) => x.id)
  const c = plan(spec({ order: 'shuffled' }, 43), { benches: BENCHES }).points.map((x) => x.id)
  const inter = plan(spec(), { benches: BENCHES }).points.map((x) => x.id)
  assert.deepEqual(a, b)
  assert.notDeepEqual(a, c)
  assert.notDeepEqual(a, inter)
  assert.deepEqual([...a].sort(), [...inter].sort())
  assert.deepEqual(shuffle([1, 2, 3, 4, 5], 1), shuffle([1, 2, 3, 4, 5], 1))
})

test('plan: a grouping that cannot be formed becomes a skipped point with the reason', () => {
  const p = plan(spec({ gpus: '0-5', groupings: 'tp4,tp2,best' }), { benches: BENCHES })
  assert.deepEqual(
    p.skipped.map((s) => s.id),
    ['nccl.all_reduce~tp4', 'nccl.all_reduce~best'],
  )
  assert.match(p.skipped[0]?.reason ?? '', /multiple of 4 GPUs; 6 selected/)
  assert.ok(p.points.some((x) => x.grouping === 'tp2' && x.groups.length === 3))
})

test('spec: defaults, flag errors, and the preset schema check', () => {
  const s = spec()
  assert.equal(s.retries, 1)
  assert.equal(s.noOutputTimeoutS, 60)
  assert.equal(s.ncclDebug, false)
  assert.equal(spec({ env: ['NCCL_P2P_DISABLE=0,1'] }).ncclDebug, true)
  bad(() => spec({ trials: 0 }), /--trials/)
  bad(() => spec({ order: 'random' }), /--order/)
  bad(() => spec({ env: ['NCCL_PROTO=LL', 'NCCL_PROTO=Simple'] }), /given twice/)
  bad(() => spec({ simFaults: ['x=explode'] }), /--sim-fault/)
  assert.deepEqual(spec({ simFaults: ['t2=crash@1'] }).faults, [{ match: 't2', fault: 'crash', attempts: 1 }])
  bad(() => checkSpecInput({ gpus: '0-7', trails: 3 }, 'bench/x.json'), /bench\/x\.json: unknown key "trails"/)
  bad(() => checkSpecInput({ trials: 'three' }, 'p.json'), /"trials" must be an integer/)
  bad(() => checkSpecInput([1], 'p.json'), /JSON object/)
  assert.deepEqual(checkSpecInput({ description: 'x', gpus: '0-3', sizes: [8, 16] }, 'p.json'), {
    description: 'x',
    gpus: '0-3',
    sizes: [8, 16],
  })
})
