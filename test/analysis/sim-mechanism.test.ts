/**
 * SIMULATED: every preset's p2p and collective floors get the mechanism the preset models, at
 * 20 seeds each, analyzed with the preset's own topology capture (as `gpucomm sim` writes it).
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import type { Analysis, Fit, TopologyView } from '../../src/analysis/index.ts'
import { bandById, viewOfReport } from '../../src/analysis/index.ts'
import type { SimOptions } from '../../src/sim/index.ts'
import { writeSimTopology } from '../../src/sim/index.ts'
import { tmp } from '../helpers.ts'
import { allReduceRuns, analyzeSim, simRows } from './sim-seed.ts'

const SEEDS = Array.from({ length: 20 }, (_, i) => i + 1)
const ALL = [0, 1, 2, 3, 4, 5, 6, 7]
const SIZES = Array.from({ length: 18 }, (_, i) => 8 * 2 ** i) // 8 B … 1 MiB

/**
 * p2p matrices (3 trials: one cell of one run can be a rare slow outlier, as on real hosts),
 * all_reduce on all 8 GPUs and on two groups of 4, for one seed.
 */
function analyzeSeed(preset: string, seed: number, topology: TopologyView): Analysis {
  const runs: SimOptions[] = [
    ...[0, 1, 2].map((trial): SimOptions => ({ preset, format: 'p2p', gpus: ALL, seed, trial })),
    ...allReduceRuns(preset, seed, [ALL, [0, 1, 2, 3], [4, 5, 6, 7]], SIZES),
  ]
  return analyzeSim(`sim-${preset}-${seed}`, simRows(runs), topology, 20)
}

const views = new Map<string, TopologyView>()
async function topologyOf(preset: string): Promise<TopologyView> {
  let v = views.get(preset)
  if (!v) {
    const report = await writeSimTopology(join(tmp('gpucomm-sim-topo-'), 'topology'), preset)
    v = viewOfReport(report, `SIMULATED ${preset} topology`) as TopologyView
    views.set(preset, v)
  }
  return v
}

type Want = (f: Fit) => string
const cross = (f: Fit): boolean => f.src !== undefined && f.dst !== undefined && f.src !== f.dst
const sameSocket = (f: Fit): boolean => (f.src as number) < 4 === (f.dst as number) < 4

/** The mechanism (and detail) each preset models, per fit. */
const MODELS: Record<string, Want> = {
  'seed-vm': (f) => (cross(f) ? 'host-staged' : f.src !== undefined ? 'same-gpu' : 'nccl-shm'),
  'baremetal-turin': (f) =>
    !cross(f)
      ? f.src !== undefined
        ? 'same-gpu'
        : 'nccl-shm'
      : f.p2p === 'disabled'
        ? 'host-staged'
        : `p2p-pcie ${sameSocket(f) ? 'NODE' : 'SYS'}`,
  'pcie-switch': (f) =>
    !cross(f)
      ? f.src !== undefined
        ? 'same-gpu'
        : f.ranks === 4
          ? 'nccl-p2p'
          : 'nccl-shm'
      : f.p2p === 'disabled'
        ? 'host-staged'
        : `p2p-pcie ${sameSocket(f) ? 'PIX' : 'SYS'}`,
  nvlink: (f) =>
    !cross(f) ? (f.src !== undefined ? 'same-gpu' : 'nccl-p2p') : f.p2p === 'disabled' ? 'host-staged' : 'p2p-nvlink',
}

const got = (f: Fit): string => (f.mechanism.id === 'p2p-pcie' ? `p2p-pcie ${f.mechanism.linkClass}` : f.mechanism.id)

for (const preset of Object.keys(MODELS)) {
  test(`SIMULATED ${preset}: every p2p and all_reduce floor gets the mechanism the preset models, at each of ${SEEDS.length} seeds`, async () => {
    const topology = await topologyOf(preset)
    const want = MODELS[preset] as Want
    for (const seed of SEEDS) {
      const a = analyzeSeed(preset, seed, topology)
      const fits = a.fits.filter((f) => f.bench === 'p2p.latency' || f.bench === 'nccl.all_reduce')
      assert.equal(fits.filter((f) => f.bench === 'nccl.all_reduce').length, 3, `${preset} seed ${seed}`)
      const wrong = fits.filter((f) => got(f) !== want(f))
      assert.deepEqual(
        wrong.map((f) => `${f.src ?? f.group}→${f.dst ?? ''} p2p=${f.p2p}: ${got(f)} (want ${want(f)})`),
        [],
        `${preset} seed ${seed}`,
      )
      // Never an NVLink band without NVLink; never a VM band without a VM.
      const nv = preset === 'nvlink'
      const vm = preset === 'seed-vm'
      for (const f of fits)
        for (const c of f.cited) {
          const b = bandById(c.id)!
          if (!nv) assert.ok(!b.links?.every((l) => l === 'NV'), `${preset} ${f.bench}: ${c.id}`)
          if (!vm) assert.notEqual(b.vm, true, `${preset} ${f.bench}: ${c.id}`)
        }
    }
  })
}

test("SIMULATED seed-vm TP8/TP4 (case 6): SHM, no P2P, NCCL's PCI model as the reference, no NVSwitch band", async () => {
  const a = analyzeSeed('seed-vm', 7, await topologyOf('seed-vm'))
  for (const f of a.fits.filter((x) => x.bench === 'nccl.all_reduce')) {
    assert.equal(f.mechanism.id, 'nccl-shm')
    assert.match(f.verdict, /: NCCL over SHM \(no P2P/)
    assert.ok(f.evidence.some((e) => e.strength === 1 && /no P2P \(GPU\d–GPU\d: nvidia-smi topo -p2p NS/.test(e.fact)))
    const ref = f.cited.find((c) => c.role === 'reference')!
    assert.equal(ref.id, `nccl-model-pci-ll-n${f.ranks}`)
    assert.ok(
      f.cited.every((c) => !/nvswitch|dgx|a100/.test(c.id)),
      f.cited.map((c) => c.id).join(),
    )
  }
})
