/**
 * A cluster sweep never writes through a link planted in its set (issue 35: a set may be
 * hostile): a link at raw/<step> of a step still to run is removed and a real folder made there,
 * so the link's target stays untouched when `sweep --resume` runs that step.
 */
import assert from 'node:assert/strict'
import { lstatSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { planCluster, runCluster } from '../../src/cluster/index.ts'
import { resolveSpec } from '../../src/sweep/index.ts'
import { cli, tmp } from '../helpers.ts'

const spec = resolveSpec(
  {
    instrument: 'sim',
    preset: 'seed-vm',
    gpus: '0-7',
    sizes: '8',
    trials: 1,
    nodes: 2,
    pattern: 'per-node,node-pairs',
  },
  4,
)
const plan = planCluster(spec, {})

test('cluster --resume: a link planted at raw/<step> is replaced by a folder, its target untouched', async () => {
  const out = join(tmp(), 'set')
  const ac = new AbortController()
  const r = await runCluster({
    spec,
    plan,
    out,
    command: ['test'],
    signal: ac.signal,
    onStep: (p) => p.index === 0 && ac.abort(),
  })
  assert.equal(r.interrupted, true)
  const next = plan.steps[plan.steps.length - 1]
  assert.ok(next)
  const outside = join(tmp(), 'outside')
  mkdirSync(outside)
  symlinkSync(outside, join(out, 'raw', next.id))
  const resumed = await cli(['sweep', '--resume', out])
  assert.equal(resumed.code, 0, resumed.stderr)
  assert.deepEqual(readdirSync(outside), [], 'the cluster writer wrote through the planted link')
  const at = lstatSync(join(out, 'raw', next.id))
  assert.ok(at.isDirectory() && !at.isSymbolicLink())
  assert.ok(readdirSync(join(out, 'raw', next.id)).some((f) => f.endsWith('.stdout')))
})
