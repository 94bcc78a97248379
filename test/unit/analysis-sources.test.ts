/**
 * What a source says about its launch (verdict/_sources.ts): launchOfSource over one run or
 * several (hosts named by rank lines or, failing those, by NCCL INFO lines; the command line's
 * host count; ranks per host; a cut rank list; NCCL_* settings) and mergeSeen's INFO line count.
 * Hand-made sources of the shape the importer records (meta, or meta.runs).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { SourceLike } from '../../src/analysis/verdict/_sources.ts'
import { launchOfSource, mergeSeen } from '../../src/analysis/verdict/_sources.ts'

const src = (meta: Record<string, unknown>, nccl?: SourceLike['nccl']): SourceLike => ({
  raw: 'raw/a.txt',
  format: 'nccl-tests',
  meta,
  ...(nccl ? { nccl } : {}),
})
const seen = { transports: [], algos: [], protos: [] }

test('one run: hosts of the rank lines in first-seen order, ranks per host, the command line settings', () => {
  const run = {
    hosts: ['node2', 'node1', 'node2'],
    devices: [{ host: 'node2' }, { host: 'node2' }, { host: 'node1' }, {}],
    launch: { hosts: 2, env: { NCCL_IB_HCA: 'mlx5_0', NCCL_DEBUG: 'INFO' } },
  }
  assert.deepEqual(launchOfSource(src(run, { ...seen, hosts: ['other'] })), {
    named: ['node2', 'node1'],
    count: 2,
    countFrom: 'the rank lines',
    ranksPerHost: { node2: 2, node1: 1 },
    env: { NCCL_IB_HCA: 'mlx5_0', NCCL_DEBUG: 'INFO' },
  })
})

test('several runs: hosts and settings merged, the largest command-line count, no ranks per host', () => {
  const runs = [
    { hosts: ['a'], devices: [{ host: 'a' }], launch: { hosts: 3, env: { NCCL_ALGO: 'Ring' } } },
    { hosts: ['b', 'a'], devices: [{ host: 'b' }], launch: { hosts: 2, env: { NCCL_ALGO: 'Tree', NCCL_PROTO: 'LL' } } },
  ]
  assert.deepEqual(launchOfSource(src({ runs })), {
    named: ['a', 'b'],
    count: 3,
    countFrom: 'the command line (3 hosts; the rank lines name 2)',
    env: { NCCL_ALGO: 'Tree', NCCL_PROTO: 'LL' },
  })
})

test('no rank lines: the NCCL INFO lines name the hosts; nothing at all: no launch facts', () => {
  assert.deepEqual(launchOfSource(src({}, { ...seen, hosts: ['h1', 'h2'] })), {
    named: ['h1', 'h2'],
    count: 2,
    countFrom: 'the host names of its NCCL INFO lines',
    env: {},
  })
  assert.equal(launchOfSource(src({})), undefined)
  assert.equal(launchOfSource(src({ runs: [{}, { devices: [{ host: 'x' }] }] })), undefined)
  // A command line's host count alone, or its settings alone, are launch facts.
  assert.deepEqual(launchOfSource(src({ launch: { hosts: 4 } })), {
    named: [],
    count: 4,
    countFrom: 'the command line (4 hosts; the rank lines name 0)',
    env: {},
  })
  assert.deepEqual(launchOfSource(src({ launch: { env: { NCCL_P2P_LEVEL: 'SYS' } } }))?.env, { NCCL_P2P_LEVEL: 'SYS' })
})

test('a rank list cut short: the first run that lists fewer ranks than it had, and where the count came from', () => {
  const runs = [
    { hosts: ['a'], ranks: 8, ranksListed: 8 },
    { hosts: ['a'], ranks: 16, ranksListed: 4, ranksFrom: 'nThread 1 nGpus 1 … 16 ranks' },
    { hosts: ['a'], ranks: 32, ranksListed: 2 },
  ]
  assert.deepEqual(launchOfSource(src({ runs }))?.listCut, {
    listed: 4,
    ranks: 16,
    from: 'nThread 1 nGpus 1 … 16 ranks',
  })
  assert.deepEqual(launchOfSource(src({ hosts: ['a'], ranks: 4, ranksListed: 2 }))?.listCut, {
    listed: 2,
    ranks: 4,
    from: '',
  })
  for (const meta of [
    { hosts: ['a'], ranks: 4, ranksListed: 4 },
    { hosts: ['a'], ranks: 4 },
    { hosts: ['a'], ranksListed: 2 },
  ])
    assert.equal(launchOfSource(src(meta))?.listCut, undefined, JSON.stringify(meta))
})

test('mergeSeen: INFO lines summed when every launch recorded them, else not recorded', () => {
  const a = { ...seen, infoLines: 3 }
  const b = { ...seen, infoLines: 0 }
  assert.equal(mergeSeen([a, b]).infoLines, 3)
  assert.equal(mergeSeen([a, seen]).infoLines, undefined)
  assert.ok(!('infoLines' in mergeSeen([seen, a])))
})
