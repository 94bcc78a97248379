/**
 * Promises of the topology rules and the grouping ranking that only a targeted case shows:
 * a shared bridge makes an ACS override meaningful, ACS redirect matters only at switch
 * downstream ports, and groupings rank by their worst pair before their mean.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { TopoGpu, TopologyReport, TopoPair } from '../../../src/topology/index.ts'
import { rankGroupings, runRules } from '../../../src/topology/index.ts'

type Bridge = NonNullable<TopoGpu['upstream']>[number]
const REDIRECT = { capability: 0x5f, control: 0x1d, p2pRequestRedirect: true }

const gpu = (index: number, upstream: Bridge[]): TopoGpu => ({ index, upstream, from: {} })
const ids = (gpus: TopoGpu[]): string[] =>
  runRules({ gpus, pairs: [], hypervisor: { detected: false, kind: 'none', from: [] } }).map((f) => f.id)

test('acs-override-useless: said when no two GPUs share a bridge, not when two sit behind one', () => {
  const alone = [
    gpu(0, [{ bdf: '0000:00:01.1', role: 'root-port' }]),
    gpu(1, [{ bdf: '0000:20:01.1', role: 'root-port' }]),
  ]
  assert.ok(ids(alone).includes('acs-override-useless'))
  const switchUp: Bridge = { bdf: '0000:01:00.0', role: 'switch-upstream' }
  const shared = [
    gpu(0, [{ bdf: '0000:00:01.1', role: 'root-port' }, switchUp, { bdf: '0000:02:00.0', role: 'switch-downstream' }]),
    gpu(1, [{ bdf: '0000:00:01.1', role: 'root-port' }, switchUp, { bdf: '0000:02:01.0', role: 'switch-downstream' }]),
    gpu(2, [{ bdf: '0000:20:01.1', role: 'root-port' }]),
  ]
  assert.ok(!ids(shared).includes('acs-override-useless'), 'GPUs 0 and 1 share a switch: an override can matter')
})

test('acs-p2p-redirect: only a switch downstream port with redirect on counts, not a root port', () => {
  const at = (role: Bridge['role'], acs: Bridge['acs']) => [
    gpu(0, [
      { bdf: '0000:00:01.1', role: 'root-port' },
      { bdf: '0000:02:00.0', role, acs },
    ]),
  ]
  assert.ok(ids(at('switch-downstream', REDIRECT)).includes('acs-p2p-redirect'))
  assert.ok(!ids(at('switch-downstream', { ...REDIRECT, p2pRequestRedirect: false })).includes('acs-p2p-redirect'))
  const root = [gpu(0, [{ bdf: '0000:00:01.1', role: 'root-port', acs: REDIRECT }])]
  assert.ok(!ids(root).includes('acs-p2p-redirect'), 'redirect at a root port sends nothing further up')
  assert.ok(!ids(at('switch-upstream', REDIRECT)).includes('acs-p2p-redirect'))
})

test('groupings rank by the worst pair first: a lower mean does not beat a lower worst', () => {
  // TP2 on 4 GPUs: {0,1}{2,3} has the lowest mean (1 and 8 → 4.5) but the worst pair (8);
  // {0,2}{1,3} (5, 5) is best, then {0,3}{1,2} (6, 6).
  const cost: Record<string, number> = { '0-1': 1, '2-3': 8, '0-2': 5, '1-3': 5, '0-3': 6, '1-2': 6 }
  const gpus: TopoGpu[] = [0, 1, 2, 3].map((index) => ({ index, from: {} }))
  const pairs: TopoPair[] = Object.entries(cost).map(([k, c]) => {
    const [a, b] = k.split('-').map(Number) as [number, number]
    return { a, b, p2p: {}, cost: c, from: {} }
  })
  const report: TopologyReport = {
    schema: 1,
    gpus,
    pairs,
    findings: [],
    groupings: [],
    hypervisor: { detected: false, kind: 'none', from: [] },
    pciRootBuses: [],
    sources: [],
    diagnostics: [],
  }
  const ranked = rankGroupings(report, 2)
  assert.deepEqual(
    ranked.map((g) => [JSON.stringify(g.groups), g.worstCost, g.meanCost]),
    [
      ['[[0,2],[1,3]]', 5, 5],
      ['[[0,3],[1,2]]', 6, 6],
      ['[[0,1],[2,3]]', 8, 4.5],
    ],
  )
})
