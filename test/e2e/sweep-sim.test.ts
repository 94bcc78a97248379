/**
 * The main job end to end on the simulator: the CLI contract of issue 5, rows from the real
 * parsers. In-process: the sweep command through the sim executor (the simulator's bytes
 * without a process; real sweep processes run in sweep-progress-tty and sweep-host-axis).
 */

import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { test } from 'node:test'
import { parserById, parseText } from '../../src/parsers/index.ts'
import { loadSet } from '../../src/resultset/index.ts'
import type { SweepExtra } from '../../src/run/index.ts'
import { enrichRow } from '../../src/run/index.ts'
import type { SpecInput } from '../../src/sweep/index.ts'
import { checkGolden } from '../golden.ts'
import { cli, ROOT, tmp } from '../helpers.ts'
import { simExecutor } from '../mock-executor.ts'
import { sweepIn } from './_sweep.ts'

const CONTRACT = [
  '--instrument',
  'sim',
  '--preset',
  'seed-vm',
  '--gpus',
  '0-7',
  '--pairs',
  'all',
  '--groupings',
  'tp8,tp4',
  '--sizes',
  '8:64M:x2',
  '--trials',
  '3',
  // p2p_bench prints every iteration: one keeps the set small (64 pairs × 40 sizes × 2 modes per trial).
  '--iters',
  '1',
]

/** CONTRACT as the sweep command's flags. */
const CONTRACT_FLAGS: SpecInput = {
  instrument: 'sim',
  preset: 'seed-vm',
  gpus: '0-7',
  pairs: 'all',
  groupings: 'tp8,tp4',
  sizes: '8:64M:x2',
  trials: 3,
  iters: 1,
}

test('8 GPUs, all pairs, 8 B–64 MiB, tp8 vs tp4, 3 trials: every point ok, rows exactly what the real parsers read from raw/', async () => {
  const out = join(tmp(), 'set')
  // Each launch's start and end, by point: the groups of one point run at the same time.
  const events: string[] = []
  const sim = simExecutor()
  const executor: typeof sim = {
    ...sim,
    async run(req) {
      const point = basename(dirname(req.stdoutPath))
      events.push(`start ${point}`)
      const res = await sim.run(req)
      events.push(`end ${point}`)
      return res
    },
  }
  const r = await sweepIn({ ...CONTRACT_FLAGS, seed: 11 }, { out }, executor)
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stdout, new RegExp(`result set: ${out}`))
  assert.match(r.stdout, /^SIMULATED sweep/)
  assert.match(r.stdout, /nccl\.all_reduce busbw at 64 MiB: tp8 .* · tp4 /)
  const set = await loadSet(out)
  assert.equal(set.manifest.simulated, true)
  assert.equal(set.diagnostics.length, 0)
  const outcomes = set.manifest.outcomes ?? {}
  assert.deepEqual(Object.keys(outcomes).sort(), [
    'nccl.all_reduce~tp4~t1',
    'nccl.all_reduce~tp4~t2',
    'nccl.all_reduce~tp4~t3',
    'nccl.all_reduce~tp8~t1',
    'nccl.all_reduce~tp8~t2',
    'nccl.all_reduce~tp8~t3',
    'p2p~0-7~t1',
    'p2p~0-7~t2',
    'p2p~0-7~t3',
  ])
  for (const o of Object.values(outcomes)) assert.equal(o.status, 'ok')
  const extra = set.manifest.extra?.sweep as SweepExtra
  // Every row is what the registered parser makes of the raw stdout, plus the sweep's fields.
  let reparsed = 0
  for (const [id, rec] of Object.entries(extra.points)) {
    const p = extra.order.includes(id) ? id : ''
    assert.ok(p)
    for (const l of rec.attempts.at(-1)?.launches ?? []) {
      const parser = parserById(l.parser ?? '')
      assert.ok(parser, `${id}: parser ${l.parser}`)
      const text = readFileSync(join(out, l.stdout), 'utf8')
      const trial = Number(id.slice(-1))
      const group = l.group.includes('-') ? range(l.group) : l.group.split(',').map(Number)
      const point = {
        id,
        instrument: 'sim',
        bench: id.split('~')[0] as string,
        kind: id.startsWith('p2p') ? ('pairs' as const) : ('collective' as const),
        grouping: id.split('~')[1] as string,
        groups: [group],
        pairs: extra.spec.pairs === 'none' ? [] : extra.spec.pairs,
        sizes: extra.spec.sizes,
        env: {},
        trial,
      }
      const want = parseText(parser, text, { file: l.stdout, trial })
        .rows.map((row) => enrichRow(row, point, group, true))
        .filter((x) => x !== undefined)
      const got = set.rows.filter((row) => row.source.file === l.stdout)
      assert.deepEqual(got, want, `${id} ${l.group}`)
      reparsed += got.length
    }
  }
  assert.equal(reparsed, set.rows.length)
  // TP4 = two groups of four, run at the same time; TP8 = one group of eight.
  const coll = set.rows.filter((x) => x.bench === 'nccl.all_reduce' && x.metric === 'time')
  assert.deepEqual([...new Set(coll.filter((x) => x.grouping === 'tp4').map((x) => `${x.group}:${x.ranks}`))].sort(), [
    '0-3:4',
    '4-7:4',
  ])
  assert.deepEqual(
    [...new Set(coll.filter((x) => x.grouping === 'tp8').map((x) => `${x.group}:${x.ranks}`))],
    ['0-7:8'],
  )
  assert.equal(new Set(coll.map((x) => x.sizeBytes)).size, 24)
  assert.deepEqual([...new Set(coll.map((x) => x.trial))].sort(), [1, 2, 3])
  for (const t of [1, 2, 3]) {
    const id = `nccl.all_reduce~tp4~t${t}`
    const [a, b] = extra.points[id]?.attempts[0]?.launches ?? []
    assert.ok(a && b && a.startedMs > 0 && b.startedMs > 0)
    const mine = events.filter((e) => e.endsWith(` ${id}`))
    assert.deepEqual(mine.slice(0, 2), [`start ${id}`, `start ${id}`], 'the two TP4 groups overlap in time')
  }
  const lat = set.rows.filter((x) => x.bench === 'p2p.latency' && x.src !== x.dst)
  assert.equal(new Set(lat.map((x) => `${x.src}>${x.dst}`)).size, 56)
  assert.ok(set.rows.every((x) => x.point !== undefined && (x.bench.startsWith('p2p') || x.grouping !== undefined)))
  assert.equal(set.manifest.host?.hostname !== undefined, true)
  assert.deepEqual(extra.spec.gpus, [0, 1, 2, 3, 4, 5, 6, 7])
  assert.match(set.manifest.instrument?.hash ?? '', /^[0-9a-f]{16}$/)
})

function range(t: string): number[] {
  const [a, b] = t.split('-').map(Number) as [number, number]
  return Array.from({ length: b - a + 1 }, (_, i) => a + i)
}

test('--dry-run prints every point and its exact commands, and writes nothing', async () => {
  const out = join(tmp(), 'never')
  const args = [
    '--instrument',
    'sim',
    '--preset',
    'seed-vm',
    '--gpus',
    '0-7',
    '--pairs',
    'all',
    '--groupings',
    'tp8,tp4,best',
    '--sizes',
    '8:64M:x2',
    '--trials',
    '1',
  ]
  const r = await cli(['sweep', ...args, '--seed', '3', '--env', 'NCCL_PROTO=LL,Simple', '--out', out, '--dry-run'])
  assert.equal(r.code, 0, r.stderr)
  assert.equal(existsSync(out), false)
  const lines = r.stdout.replaceAll(process.execPath, '<node>').replaceAll(ROOT, '<repo>').trimEnd().split('\n')
  checkGolden('sweep/dry-run', lines)
  assert.ok(
    lines.some((l) =>
      l.startsWith(
        '  [4-7] NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,ENV,TUNING CUDA_VISIBLE_DEVICES=4,5,6,7 <node> <repo>/bin/gpucomm.js sim --preset seed-vm --format nccl-tests',
      ),
    ),
  )
  // `best` ranks the preset's SIMULATED topology: the seed VM's pairs all cost the same, so the first TP4 split wins.
  assert.ok(lines.includes('nccl.all_reduce~best~NCCL_PROTO=LL~t1'))
  assert.ok(!lines.some((l) => l.startsWith('skipped')))
})

test('bad input: one line, exit 2, nothing written or overwritten', async () => {
  const d = tmp()
  mkdirSync(join(d, 'full'))
  writeFileSync(join(d, 'full', 'keep.txt'), 'mine\n')
  const r = await cli(['sweep', ...CONTRACT, '--out', join(d, 'full')])
  assert.equal(r.code, 2)
  assert.match(r.stderr, /directory is not empty \(use --resume/)
  assert.equal(readFileSync(join(d, 'full', 'keep.txt'), 'utf8'), 'mine\n')
  const base = ['--instrument', 'sim', '--pairs', 'all', '--sizes', '8:64M:x2']
  const good: Record<string, string> = {
    '--preset': 'seed-vm',
    '--gpus': '0-7',
    '--groupings': 'tp8,tp4',
    '--trials': '3',
  }
  for (const [flag, value] of [
    ['--preset', 'quantum'],
    ['--gpus', '7-0'],
    ['--groupings', '0-3/3-7'],
    ['--trials', '0'],
  ] as const) {
    const flags = Object.entries({ ...good, [flag]: value }).flat()
    const b = await cli(['sweep', ...base, ...flags, '--out', join(d, 'x')])
    assert.equal(b.code, 2, `${flag} ${value}: ${b.stderr}`)
    assert.equal(b.stderr.trim().split('\n').length, 1, b.stderr)
    assert.equal(existsSync(join(d, 'x')), false)
  }
})
