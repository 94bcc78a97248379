/**
 * SIMULATED baremetal-turin (issue 30 item 7): P2P works (0.4 µs copies with peer access), yet
 * NCCL's default P2P level stops at the host bridge on AMD with more than 2 GPUs, so all_reduce
 * goes over SHM. The verdict must give that reason (as `topo`'s nccl-p2p-level finding does),
 * not "no peer access": p2p_bench's P2P-disabled rows say `peer=0` because peer access was
 * turned off for the copy, which says nothing about the pair.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import type { TopologyView } from '../../src/analysis/index.ts'
import { analyzeSet, viewOfReport } from '../../src/analysis/index.ts'
import { newManifest } from '../../src/resultset/index.ts'
import type { SimOptions } from '../../src/sim/index.ts'
import { simulate, writeSimTopology } from '../../src/sim/index.ts'
import { tmp } from '../helpers.ts'
import { rowsOf } from './sim-seed.ts'

const ALL = [0, 1, 2, 3, 4, 5, 6, 7]

test('SIMULATED baremetal-turin: the all_reduce SHM verdict gives NCCL’s PATH_PXB level as the reason, consistent with topo, not “no peer access”', async () => {
  const preset = 'baremetal-turin'
  const report = await writeSimTopology(join(tmp('gpucomm-bm-shm-'), 'topology'), preset)
  const topology = viewOfReport(report, `SIMULATED ${preset} topology`) as TopologyView
  // What a sweep runs: p2p_bench with P2P enabled and disabled (rows of both say peer=1 / peer=0).
  const runs: SimOptions[] = [
    {
      preset,
      format: 'p2p-bench',
      gpus: ALL,
      sizes: [8, 64],
      bwSizes: [],
      iters: 3,
      copies: ['ce'],
      p2pModes: ['enabled', 'disabled'],
      seed: 3,
      trial: 0,
    },
    { preset, format: 'nccl-tests', collective: 'all_reduce', gpus: ALL, sizes: [8, 64, 512, 4096], seed: 3, trial: 0 },
  ]
  const rows = runs.flatMap((o, i) =>
    rowsOf(simulate(o), `raw/sim-${i}.txt`).map((r) => (o.format === 'nccl-tests' ? { ...r, group: '0-7' } : r)),
  )
  assert.ok(rows.some((r) => r.p2p === 'disabled' && r.peerAccess === false && r.src !== r.dst))
  const manifest = newManifest({ origin: 'import', simulated: true, command: ['generated-by-test'] })
  const a = analyzeSet({ dir: 'sim', manifest, rows, diagnostics: [] }, { topology, cells: false, replicates: 5 })
  const ar = a.fits.find((f) => f.bench === 'nccl.all_reduce')!
  assert.equal(ar.mechanism.id, 'nccl-shm')
  assert.doesNotMatch(ar.verdict, /no peer access|have no P2P/)
  assert.match(ar.verdict, /NCCL would use SHM: NCCL's default P2P level on AMD CPUs with more than 2 GPUs is PATH_PXB/)
  // topo says the same: its nccl-p2p-level finding names PATH_PXB.
  assert.ok(report.findings.some((f) => f.id === 'nccl-p2p-level' && /PATH_PXB/.test(f.message)))
  // The P2P-enabled copies keep their peer access and their mechanism.
  const on = a.fits.find((f) => f.bench === 'p2p.latency' && f.p2p === 'enabled' && f.src === 0 && f.dst === 1)!
  assert.equal(on.mechanism.id, 'p2p-pcie')
  assert.match(on.verdict, /Device=0 CAN Access Peer Device=1/)
})
