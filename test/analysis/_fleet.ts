/**
 * The fleet tests' simulated clusters (the simulator in-process, nothing written) and the
 * seed sweeps that fleet.test.ts, fleet-64.test.ts and fleet-tail.test.ts run (split so that
 * no file runs much over 10 s on a quiet machine).
 */
import assert from 'node:assert/strict'
import { analyzeFleet } from '../../src/analysis/index.ts'
import { planCluster, runCluster } from '../../src/cluster/index.ts'
import type { Row } from '../../src/model/index.ts'
import { resolveSpec } from '../../src/sweep/index.ts'

/** A simulated cluster of `nodes` nodes with `inject` faults: its rows and node names. */
export async function fleet(nodes: number, inject: string, seed: number, more: Record<string, unknown> = {}) {
  const spec = resolveSpec(
    {
      instrument: 'sim',
      preset: 'seed-vm',
      gpus: '0-7',
      sizes: '8,32,128,8M,32M,128M',
      trials: 1,
      nodes,
      pattern: 'per-node,node-pairs',
      inject,
      ...more,
    },
    seed,
  )
  const plan = planCluster(spec, {})
  const { rows } = await runCluster({ spec, plan, out: '', command: [], write: false })
  return { rows, nodes: plan.nodes }
}

/** The outliers analyzeFleet names, as KIND:HOSTS, sorted. */
export const named = (rows: Row[], nodes: string[]): string[] =>
  analyzeFleet(rows, nodes)
    .outliers.map((o) => `${o.kind}:${o.hosts.join('+')}`)
    .sort()

/**
 * A test's title and body; each test file calls `test(...)` itself, so the runner's per-file times
 * count the test in the file that runs it (node's reporter names the file of the `test()` call).
 */
type Case = [title: string, body: () => Promise<void>]

/** With one degraded NIC and one node without P2P: exactly those two nodes, at every seed. */
export function namesTwoNodes(n: number, more: Record<string, unknown> = {}): Case {
  return [
    `${n} nodes, slow-nic@node05 and no-p2p@node11: exactly those two nodes, 20 seeds`,
    async () => {
      for (let seed = 1; seed <= 20; seed++) {
        const { rows, nodes } = await fleet(n, 'slow-nic@node05,no-p2p@node11', seed, more)
        assert.deepEqual(named(rows, nodes), ['node:node05', 'node:node11'], `seed ${seed}`)
      }
    },
  ]
}

/** A flapping NIC beside a slow one: exactly those two, the flapping one named for its tail at most seeds. */
export function flappingByTail(n: number, seeds: number, more: Record<string, unknown> = {}): Case {
  return [
    `${n} nodes, flapping-nic@node07 beside slow-nic@node05: exactly those two, node07 named for its tail, ${seeds} seeds`,
    async () => {
      let byTail = 0
      for (let seed = 1; seed <= seeds; seed++) {
        const { rows, nodes } = await fleet(n, 'slow-nic@node05,flapping-nic@node07', seed, more)
        const out = analyzeFleet(rows, nodes).outliers
        assert.deepEqual(
          out.map((o) => `${o.kind}:${o.hosts.join('+')}`),
          ['node:node05', 'node:node07'],
          `seed ${seed}`,
        )
        const flap = out[1]
        assert.match(flap?.mechanism ?? '', /^a flapping NIC: \d+ of \d+ network cells/, `seed ${seed}`)
        assert.match(out[0]?.mechanism ?? '', /the node's NIC/)
        if (flap?.metric === 'net.busbw.tail') {
          byTail++
          // The slow cells are a quarter of the fleet's; the node's median is not what gave it away.
          assert.ok(Math.abs((flap.delta ?? 0) + 0.75) < 0.05, String(flap.delta))
          assert.match(flap.mechanism, /the rest normal \(median ×(0\.9\d|1\.0\d)\)/)
        }
      }
      // Most seeds: the median of node07's links is normal and only the tail names it.
      assert.ok(byTail >= seeds / 4, `named by the tail at ${byTail} of ${seeds} seeds`)
    },
  ]
}
