import { test } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { analyze, bandById } from '../../src/analysis/index.ts'
import type { Analysis, TopologyView } from '../../src/analysis/index.ts'
import { importFiles } from '../../src/importer/index.ts'
import { presetTruth, simulate, trueLatency } from '../../src/sim/index.ts'
import type { SimOptions } from '../../src/sim/index.ts'
import { tmp } from '../helpers.ts'

const GPUS = [0, 1, 2, 3, 4, 5, 6, 7]
const rel = (got: number, want: number): number => Math.abs(got / want - 1)

/** SIMULATED: `trials` runs of the simulator imported into one result set, then analyzed. */
async function simSet(opts: Omit<SimOptions, 'trial'>, trials: number, topology?: TopologyView): Promise<Analysis> {
  const inputs = Array.from({ length: trials }, (_, t) => ({ path: `sim-${opts.preset}-${opts.format}-trial${t}.txt`, data: Buffer.from(simulate({ ...opts, trial: t })) }))
  const out = join(tmp('gpucomm-analysis-sim-'), 'set')
  await importFiles(inputs, { out, command: ['generated-by-test'] })
  return analyze(out, { cells: false, ...(topology ? { topology } : {}) })
}

const crossPairs = (a: Analysis, p2p: 'enabled' | 'disabled') => a.fits.filter((f) => f.bench === 'p2p.latency' && f.p2p === p2p && f.src !== f.dst)

test('seed-vm (SIMULATED p2pBandwidthLatencyTest, 3 trials): a 13.7 µs ± 5 % floor placed in the host-staged bands', async () => {
  const a = await simSet({ preset: 'seed-vm', format: 'p2p', gpus: GPUS, seed: 3 }, 3)
  assert.equal(a.simulated, true)
  const truth = trueLatency('seed-vm', 0, 1, 'disabled')
  assert.ok(rel(truth, 13.7e-6) < 1e-9)
  const cls = a.classes.find((c) => c.bench === 'p2p.latency' && c.p2p === 'disabled')!
  assert.equal(cls.pairs, 56)
  assert.ok(rel(cls.medianAlpha, 13.7e-6) < 0.05, `class median ${cls.medianAlpha}`)
  const pairs = crossPairs(a, 'disabled')
  const staged = pairs.filter((f) => f.bands.length > 0 && f.bands.every((id) => bandById(id)!.kind === 'host-staged'))
  assert.ok(staged.length >= 0.9 * pairs.length, `${staged.length}/${pairs.length} pairs in host-staged bands`)
  assert.ok(pairs.every((f) => !f.bands.some((id) => bandById(id)!.kind === 'p2p-on')))
  // β comes from the unidirectional bandwidth matrix.
  assert.ok(pairs.every((f) => f.beta !== null && f.beta > 1e9))
})

test('baremetal-turin (SIMULATED p2pBandwidthLatencyTest): P2P-enabled pairs land in the P2P-on Gen5 band; NODE and SYS classes match the truth', async () => {
  const truth = presetTruth('baremetal-turin')
  const topology: TopologyView = { source: 'simulator truth', linkClass: (x, y) => truth.link(x, y).level }
  const a = await simSet({ preset: 'baremetal-turin', format: 'p2p', gpus: GPUS, seed: 4 }, 3, topology)
  const pairs = crossPairs(a, 'enabled')
  assert.equal(pairs.length, 56)
  const inBand = pairs.filter((f) => f.bands.includes('p2p-on-rtxpro6000-gen5'))
  assert.ok(inBand.length >= 0.9 * pairs.length, `${inBand.length}/56 in the P2P-on band: ${pairs.map((f) => f.alpha).join()}`)
  for (const level of ['NODE', 'SYS']) {
    const cls = a.classes.find((c) => c.bench === 'p2p.latency' && c.p2p === 'enabled' && c.linkClass === level)!
    const [x, y] = level === 'NODE' ? [0, 1] : [0, 4]
    assert.equal(truth.link(x, y).level, level)
    assert.ok(rel(cls.medianAlpha, trueLatency('baremetal-turin', x, y, 'enabled')) < 0.05, `${level}: ${cls.medianAlpha}`)
  }
  assert.deepEqual(a.outliers, [])
})

for (const preset of ['seed-vm', 'baremetal-turin']) {
  test(`${preset} (SIMULATED nccl-tests all_reduce on 8 GPUs, 8 trials): α and β within 2 % of the truth, breakpoint at the LL → Simple switch`, async () => {
    const truth = presetTruth(preset).collective('all_reduce', GPUS)
    for (const seed of [1, 2]) {
      const a = await simSet({ preset, format: 'nccl-tests', collective: 'all_reduce', gpus: GPUS, seed }, 8)
      const f = a.fits.find((x) => x.bench === 'nccl.all_reduce')!
      assert.equal(f.ranks, 8)
      assert.ok(rel(f.alpha, truth.ll.alphaS) < 0.02, `seed ${seed}: alpha ${f.alpha} vs ${truth.ll.alphaS}`)
      assert.ok(rel(f.beta as number, truth.simple.betaBps) < 0.02, `seed ${seed}: beta ${f.beta} vs ${truth.simple.betaBps}`)
      assert.equal(f.segments.length, 2)
      const edge = f.segments[1]!.fromBytes
      assert.ok(Math.abs(Math.log2(edge / truth.breakpointBytes)) <= 1.5, `seed ${seed}: break at ${edge} vs ${truth.breakpointBytes}`)
    }
  })
}
