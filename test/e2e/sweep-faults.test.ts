/**
 * Faults, in-process: the driver records a hang killed by the watchdog (hung), crashes,
 * non-zero exits, garbage, truncation and bad data, retries with backoff, and resumes a failed
 * point, with the simulator answered through a mock executor (test/mock-executor.ts simExecutor,
 * which acts out a hang and a crash on a fake clock; no process is started, nothing waits). The
 * watchdog itself, killing real process groups, is tested in test/unit/exec-watched.test.ts.
 */

import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { loadSet } from '../../src/resultset/index.ts'
import type { SweepExtra } from '../../src/run/index.ts'
import type { SpecInput } from '../../src/sweep/index.ts'
import { tmp } from '../helpers.ts'
import { manifestOf, sweepIn } from './_sweep.ts'

const BASE: SpecInput = {
  instrument: 'sim',
  preset: 'seed-vm',
  gpus: '0-3',
  pairs: 'none',
  groupings: 'tp4',
  sizes: '8:1K:x2',
  retries: 0,
}

test('hang → hung at the watchdog; crash, exit, garbage, truncated, corrupt recorded; the good point still runs', async () => {
  const out = join(tmp(), 'set')
  const simFaults = ['t1=hang', 't2=crash', 't3=exit', 't4=garbage', 't5=truncated', 't6=corrupt']
  const r = await sweepIn({ ...BASE, trials: 7, timeoutS: 5, seed: 900, simFaults }, { out })
  assert.equal(r.code, 1, 'a sweep with failed points exits 1')
  assert.match(r.stdout, /7 points: 1 hung, 2 failed, 3 corrupt, 1 ok/)
  const m = manifestOf(out)
  const o = (t: number) => m.outcomes?.[`nccl.all_reduce~tp4~t${t}`]
  assert.deepEqual(o(1), { status: 'hung', attempts: 1, reason: 'no output for 5 s; killed the process group' })
  assert.equal(o(2)?.status, 'failed')
  assert.match((o(2) as { reason: string }).reason, /crashed: killed by SIGABRT/)
  assert.deepEqual(o(3), { status: 'failed', attempts: 1, exitCode: 1, reason: 'exited with status 1' })
  assert.equal(o(4)?.status, 'corrupt')
  assert.match((o(4) as { reason: string }).reason, /no rows/)
  assert.equal(o(5)?.status, 'corrupt')
  assert.match((o(5) as { reason: string }).reason, /truncated or incomplete output|parse error/)
  assert.equal(o(6)?.status, 'corrupt')
  assert.match((o(6) as { reason: string }).reason, /data check failed: \d+ wrong elements/)
  assert.equal(o(7)?.status, 'ok')
  // Rows a failed point printed are not in the set; the progress line says where they are.
  const hint =
    /t6 corrupt: data check failed[^\n]*\(its \d+ rows are not in the set: gpucomm import (\S+) --out DIR recovers them\)/.exec(
      r.stderr,
    )
  assert.equal(hint?.[1], join(out, 'raw', 'nccl.all_reduce~tp4~t6', 'a1-g0-3.stdout'))
  assert.ok(existsSync(hint?.[1] ?? ''))
  assert.doesNotMatch(r.stderr, /t7 ok[^\n]*not in the set/)
  // Only the ok point's rows are kept; every launch's raw output and status are.
  const set = await loadSet(out)
  assert.deepEqual([...new Set(set.rows.map((x) => x.point))], ['nccl.all_reduce~tp4~t7'])
  const extra = m.extra?.sweep as SweepExtra
  const hang = extra.points['nccl.all_reduce~tp4~t1']?.attempts[0]?.launches[0]
  assert.equal(hang?.killed, 'no-output')
  // The watchdog's limit reached the executor: the fake clock ends the hang after exactly 5 s.
  assert.equal(hang?.wallS, 5, `hung after ${hang?.wallS} s, not at the 5 s watchdog`)
  assert.match(readFileSync(join(out, hang?.stdout ?? ''), 'utf8'), /# Using devices/)
  const crash = extra.points['nccl.all_reduce~tp4~t2']?.attempts[0]?.launches[0]
  assert.equal(crash?.signal, 'SIGABRT')
  assert.ok(existsSync(join(out, (crash?.stdout ?? '').replace(/\.stdout$/, '.json'))))
})

test('retries with backoff: a crash on the first attempt is retried and recorded ok; a hard-capped hang is hung after every attempt', async () => {
  const out = join(tmp(), 'set')
  const r = await sweepIn(
    {
      ...BASE,
      trials: 2,
      retries: 1,
      retryBackoffS: 0.2,
      timeoutS: 30,
      hardTimeoutS: 5,
      seed: 4,
      simFaults: ['t1=crash@1', 't2=hang'],
    },
    { out },
  )
  assert.equal(r.code, 1)
  assert.match(r.stderr, /retry nccl\.all_reduce~tp4~t1 \(attempt 2\) after failed: crashed/)
  const m = manifestOf(out)
  assert.deepEqual(
    { ...m.outcomes?.['nccl.all_reduce~tp4~t1'], wallS: 0 },
    { status: 'ok', attempts: 2, wallS: 0, rows: 64 },
  )
  const hung = m.outcomes?.['nccl.all_reduce~tp4~t2'] as { status: string; attempts: number; reason: string }
  assert.equal(hung.status, 'hung')
  assert.equal(hung.attempts, 2)
  assert.match(hung.reason, /hard cap/)
  const att = (m.extra?.sweep as SweepExtra).points['nccl.all_reduce~tp4~t1']?.attempts ?? []
  assert.deepEqual(
    att.map((a) => a.status),
    ['failed', 'ok'],
  )
  assert.ok(existsSync(join(out, 'raw', 'nccl.all_reduce~tp4~t1', 'a1-g0-3.stdout')))
  assert.ok(existsSync(join(out, 'raw', 'nccl.all_reduce~tp4~t1', 'a2-g0-3.stdout')))
  const set = await loadSet(out)
  assert.equal(set.rows.length, 64)
  assert.ok(set.rows.every((x) => x.source.file === 'raw/nccl.all_reduce~tp4~t1/a2-g0-3.stdout'))
})

test('--resume reruns a failed point without overwriting its earlier logs: they move to raw/<point>.earlier-1', async () => {
  const out = join(tmp(), 'set')
  const r = await sweepIn({ ...BASE, trials: 2, seed: 5, simFaults: ['t1=exit'] }, { out })
  assert.equal(r.code, 1, r.stderr)
  const id = 'nccl.all_reduce~tp4~t1'
  const raw = join(out, 'raw', id)
  const first = readFileSync(join(raw, 'a1-g0-3.stderr'), 'utf8')
  const resumed = await sweepIn({}, { resume: out })
  assert.equal(resumed.code, 1, 'the fault is part of the spec, so the point fails again')
  assert.match(resumed.stderr, /1 points to run, 1 already done/)
  assert.equal(
    readFileSync(join(`${raw}.earlier-1`, 'a1-g0-3.stderr'), 'utf8'),
    first,
    "the first run's log, moved intact",
  )
  assert.ok(existsSync(join(raw, 'a1-g0-3.stdout')), 'the resumed run wrote its own logs')
  assert.ok(
    !existsSync(join(out, 'raw', 'nccl.all_reduce~tp4~t2.earlier-1')),
    'a point that did not run again keeps its logs in place',
  )
})
