/**
 * The real-instrument path without a GPU: the nccl-tests and p2pBandwidthLatencyTest
 * instruments run test-helper stand-ins (test/helpers/fake-*) that print real published
 * logs; the sweep treats them as it would the binaries (not simulated, binary hashes,
 * topology capture attempted, provenance).
 */

import assert from 'node:assert/strict'
import { appendFileSync, cpSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { loadSet } from '../../src/resultset/index.ts'
import type { SweepExtra } from '../../src/run/index.ts'
import { FIXTURES, ROOT, tmp } from '../helpers.ts'
import { manifestOf, sweep } from './_sweep.ts'

test('nccl-tests + p2p instruments: -g 8 in one process, rows from the real parsers, not simulated, binary hash; a changed binary refuses --resume', async () => {
  const d = tmp()
  const nt = join(d, 'nccl-tests')
  cpSync(join(ROOT, 'test', 'helpers', 'fake-nccl-tests'), nt, { recursive: true })
  const p2p = join(ROOT, 'test', 'helpers', 'fake-p2pBandwidthLatencyTest')
  const out = join(d, 'set')
  const args = [
    '--instrument',
    'nccl-tests,p2p',
    '--nccl-tests-dir',
    nt,
    '--p2p-bin',
    p2p,
    '--gpus',
    '0-7',
    '--pairs',
    'all',
    '--groupings',
    'tp8',
    '--sizes',
    '8:4G:x2',
    '--trials',
    '1',
    '--seed',
    '1',
  ]
  const r = await sweep([...args, '--out', out], 120_000, { GPUCOMM_FIXTURES: FIXTURES })
  assert.equal(r.code, 0, r.stderr)
  const m = manifestOf(out)
  assert.equal(m.simulated, false)
  assert.deepEqual(Object.fromEntries(Object.entries(m.outcomes ?? {}).map(([k, v]) => [k, v.status])), {
    'nccl.all_reduce~tp8~t1': 'ok',
    'p2p~0-7~t1': 'ok',
  })
  const extra = m.extra?.sweep as SweepExtra
  assert.match(extra.instrumentHashes['nccl-tests'] ?? '', /^[0-9a-f]{16}$/)
  assert.ok(
    extra.topology?.dir !== undefined || /topology/.test(extra.topology?.reason ?? ''),
    JSON.stringify(extra.topology),
  )
  assert.equal(m.host?.hostname !== undefined && 'env' in (m.host ?? {}), true)
  const launch = extra.points['nccl.all_reduce~tp8~t1']?.attempts[0]?.launches[0]
  assert.deepEqual(launch?.argv, [
    join(nt, 'all_reduce_perf'),
    '-b',
    '8',
    '-e',
    '4294967296',
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
  assert.match(readFileSync(join(out, launch?.stderr ?? ''), 'utf8'), /CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7/)
  const set = await loadSet(out)
  const coll = set.rows.filter(
    (x) => x.bench === 'nccl.all_reduce' && x.metric === 'busbw' && x.placement === 'out-of-place',
  )
  assert.equal(coll.length, 30)
  assert.ok(coll.every((x) => x.ranks === 8 && x.grouping === 'tp8' && x.group === '0-7'))
  assert.equal(
    new Set(set.rows.filter((x) => x.bench === 'p2p.latency' && x.src !== x.dst).map((x) => `${x.src}>${x.dst}`)).size,
    56,
  )
  // A rebuilt binary is another instrument: resuming into this set is refused, nothing changes.
  appendFileSync(join(nt, 'all_reduce_perf'), '// rebuilt\n')
  const before = readFileSync(join(out, 'manifest.json'), 'utf8')
  const again = await sweep([...args, '--resume', out], 120_000, { GPUCOMM_FIXTURES: FIXTURES })
  assert.equal(again.code, 2)
  assert.match(
    again.stderr,
    /point nccl\.all_reduce~tp8~t1 was measured with another instrument build or other settings/,
  )
  assert.equal(readFileSync(join(out, 'manifest.json'), 'utf8'), before)
})
