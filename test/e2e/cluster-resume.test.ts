/**
 * `gpucomm sweep --resume DIR` of a cluster sweep (issue 16): a sweep stopped between steps,
 * and one killed before its manifest recorded the last steps (their rows written, their
 * outcomes not), both continue to the set an uninterrupted sweep writes; the rows of the
 * unfinished steps are dropped and run again. Changed flags with --resume are refused.
 */
import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { planCluster, runCluster } from '../../src/cluster/index.ts'
import { loadSet } from '../../src/resultset/index.ts'
import { resolveSpec } from '../../src/sweep/index.ts'
import { cli, tmp } from '../helpers.ts'

const spec = resolveSpec(
  {
    instrument: 'sim',
    preset: 'seed-vm',
    gpus: '0-7',
    sizes: '8,1M',
    trials: 1,
    nodes: 6,
    pattern: 'per-node,node-pairs',
    inject: 'slow-nic@node03',
  },
  4,
)
const plan = planCluster(spec, {})

/** The set's rows as sorted JSON lines (order differs between a resumed and a straight run). */
const rowsOf = async (dir: string): Promise<string[]> => (await loadSet(dir)).rows.map((r) => JSON.stringify(r)).sort()

test('cluster --resume: stopped between steps, or killed before the manifest caught up, ends as the straight run', async () => {
  const straight = join(tmp(), 'a')
  await runCluster({ spec, plan, out: straight, command: ['test'] })
  const want = await rowsOf(straight)
  assert.equal(plan.steps.length, 11, 'per-node all_reduce + 5 rounds × 2 collectives')

  // Stopped (SIGINT) after 5 steps.
  const stopped = join(tmp(), 'b')
  const ac = new AbortController()
  const r = await runCluster({
    spec,
    plan,
    out: stopped,
    command: ['test'],
    signal: ac.signal,
    onStep: (p) => p.index === 4 && ac.abort(),
  })
  assert.equal(r.interrupted, true)
  assert.ok((await rowsOf(stopped)).length < want.length)
  const resumed = await cli(['sweep', '--resume', stopped])
  assert.equal(resumed.code, 0, resumed.stderr)
  assert.match(resumed.stdout, /cluster: 6 nodes \(SIMULATED\), 11 steps/)
  assert.deepEqual(await rowsOf(stopped), want)

  // Killed: the last three steps' rows are on disk, their outcomes never reached the manifest.
  const killed = join(tmp(), 'c')
  await runCluster({ spec, plan, out: killed, command: ['test'] })
  const m = JSON.parse(readFileSync(join(killed, 'manifest.json'), 'utf8'))
  for (const s of plan.steps.slice(-3)) delete m.outcomes[s.id]
  writeFileSync(join(killed, 'manifest.json'), JSON.stringify(m))
  const again = await cli(['sweep', '--resume', killed])
  assert.equal(again.code, 0, again.stderr)
  assert.match(again.stderr, /resume: dropped \d+ rows of steps that had not finished/)
  assert.deepEqual(await rowsOf(killed), want, 'no row twice, none lost')
  const rec = JSON.parse(readFileSync(join(killed, 'manifest.json'), 'utf8')).extra.cluster
  assert.equal(rec.resumes.length, 1)
  assert.ok(rec.resumes[0].dropped > 0)
})

test('cluster --resume with other flags: exit 2, one line, nothing changed', async () => {
  const set = join(tmp(), 'd')
  await runCluster({ spec, plan, out: set, command: ['test'] })
  const before = await rowsOf(set)
  const r = await cli(['sweep', '--resume', set, '--nodes', '8'])
  assert.equal(r.code, 2)
  assert.match(r.stderr, /resumes with its stored flags; give --resume DIR alone/)
  assert.equal(r.stderr.trim().split('\n').length, 1)
  assert.deepEqual(await rowsOf(set), before)
})
