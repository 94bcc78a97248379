/**
 * diff matches cells on the requested configuration: simulated bare metal (peer access) vs
 * the simulated seed VM (none) compares every pair's p2p latency, with the change beside it.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { diffSets, diffText } from '../../src/diff/index.ts'
import { loadSet } from '../../src/resultset/index.ts'
import { simSet } from '../simset.ts'

test('VM vs bare metal: per-pair p2p latency cells compared, peer access yes → no shown beside them', async () => {
  // Four launches a side: the fewest whose U test can reach 0.05 (2/C(8,4) = 0.029).
  const spec = { seed: 5, groups: [], trials: 4, bench: { sizes: [8, 1024], iters: 6 } }
  const bare = await loadSet(await simSet({ preset: 'baremetal-turin', ...spec }))
  const vm = await loadSet(await simSet({ preset: 'seed-vm', ...spec }))
  const d = diffSets(bare, vm)
  const lat = d.cells.filter((c) => c.bench === 'p2p.latency' && c.config.src !== c.config.dst)
  // 12 ordered pairs × 2 sizes × P2P on/off, CE copies.
  assert.equal(lat.length, 12 * 2 * 2)
  const on = lat.filter((c) => c.config.p2p === 'enabled')
  for (const c of on) {
    assert.ok(c.a.median < 1e-6, `bare metal ${c.label}: ${c.a.median}`)
    assert.ok(Math.abs(c.b.median - 13.7e-6) < 1.5e-6, `VM ${c.label}: ${c.b.median}`)
    assert.deepEqual(c.changed, [{ field: 'peerAccess', a: 'yes', b: 'no' }])
    assert.equal(c.significant, true)
  }
  // P2P disabled never uses peer access: nothing changed beside those cells.
  assert.ok(lat.filter((c) => c.config.p2p === 'disabled').every((c) => c.changed === undefined))
  // Nothing of what was asked is left unmatched (before, every peer-access cell was only-in-A or only-in-B).
  assert.deepEqual(d.onlyA, [])
  assert.deepEqual(d.onlyB, [])
  const text = diffText(d)
  assert.match(text, /^p2p\.latency latency \(copy=ce timer=gpu\)\npair\s+size\s+p2p\s+A\s+B\s+delta\s+p\s+changed$/m)
  assert.match(
    text,
    /^0→1\s+8 B\s+enabled\s+\S+ ns ±∞\s+1\d\.\d+ µs ±∞\s+\+\d+% \[\+\d+%, \+\d+%\].*peer access: yes → no$/m,
  )
  assert.match(text, /^0→1\s+8 B\s+disabled\s+.*n=4\+4 launches$/m)
})
