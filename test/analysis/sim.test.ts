import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import type { Analysis, Comparison, TopologyView } from '../../src/analysis/index.ts'
import { analyze, bandById, compare, resolveModel } from '../../src/analysis/index.ts'
import { importFiles } from '../../src/importer/index.ts'
import type { SimOptions } from '../../src/sim/index.ts'
import { presetTruth, simulate, trueLatency, trueTime } from '../../src/sim/index.ts'
import { cli, tmp } from '../helpers.ts'

const GPUS = [0, 1, 2, 3, 4, 5, 6, 7]
const rel = (got: number, want: number): number => Math.abs(got / want - 1)

/** SIMULATED: `trials` runs of the simulator imported into one result set, then analyzed. */
async function simSet(opts: Omit<SimOptions, 'trial'>, trials: number, topology?: TopologyView): Promise<Analysis> {
  const inputs = Array.from({ length: trials }, (_, t) => ({
    path: `sim-${opts.preset}-${opts.format}-trial${t}.txt`,
    data: Buffer.from(simulate({ ...opts, trial: t })),
  }))
  const out = join(tmp('gpucomm-analysis-sim-'), 'set')
  await importFiles(inputs, { out, command: ['generated-by-test'] })
  return analyze(out, { cells: false, ...(topology ? { topology } : {}) })
}

const crossPairs = (a: Analysis, p2p: 'enabled' | 'disabled') =>
  a.fits.filter((f) => f.bench === 'p2p.latency' && f.p2p === p2p && f.src !== f.dst)

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
  assert.ok(
    inBand.length >= 0.9 * pairs.length,
    `${inBand.length}/56 in the P2P-on band: ${pairs.map((f) => f.alpha).join()}`,
  )
  for (const level of ['NODE', 'SYS']) {
    const cls = a.classes.find((c) => c.bench === 'p2p.latency' && c.p2p === 'enabled' && c.linkClass === level)!
    const [x, y] = level === 'NODE' ? [0, 1] : [0, 4]
    assert.equal(truth.link(x, y).level, level)
    assert.ok(
      rel(cls.medianAlpha, trueLatency('baremetal-turin', x, y, 'enabled')) < 0.05,
      `${level}: ${cls.medianAlpha}`,
    )
  }
  assert.deepEqual(a.outliers, [])
})

// baremetal-turin over P2P (NCCL_P2P_LEVEL=SYS): its default, SHM across the sockets, runs Simple from 8 B.
for (const [preset, env] of [
  ['seed-vm', {}],
  ['baremetal-turin', { NCCL_P2P_LEVEL: 'SYS' }],
] as const) {
  test(`${preset} (SIMULATED nccl-tests all_reduce on 8 GPUs, 8 trials${Object.keys(env).length ? ', NCCL_P2P_LEVEL=SYS' : ''}): α and β within 2 % of the truth, breakpoint at the LL → Simple switch`, async () => {
    const truth = presetTruth(preset).collective('all_reduce', GPUS, env)
    for (const seed of [1, 2]) {
      const a = await simSet({ preset, format: 'nccl-tests', collective: 'all_reduce', gpus: GPUS, seed, env }, 8)
      const f = a.fits.find((x) => x.bench === 'nccl.all_reduce')!
      assert.equal(f.ranks, 8)
      assert.ok(rel(f.alpha, truth.ll.alphaS) < 0.02, `seed ${seed}: alpha ${f.alpha} vs ${truth.ll.alphaS}`)
      assert.ok(
        rel(f.beta as number, truth.simple.betaBps) < 0.02,
        `seed ${seed}: beta ${f.beta} vs ${truth.simple.betaBps}`,
      )
      assert.equal(f.segments.length, 2)
      const edge = f.segments[1]!.fromBytes
      assert.ok(
        Math.abs(Math.log2(edge / truth.breakpointBytes)) <= 1.5,
        `seed ${seed}: break at ${edge} vs ${truth.breakpointBytes}`,
      )
    }
  })
}

/** SIMULATED seed-vm: the p2p matrices plus all_reduce on 0-7 and on 0-3 and 4-7, imported into one set. */
async function seedVmMixed(env?: Record<string, string>): Promise<string> {
  const runs: SimOptions[] = [{ preset: 'seed-vm', format: 'p2p', gpus: GPUS, seed: 5, trial: 0 }]
  for (const gpus of [GPUS, [0, 1, 2, 3], [4, 5, 6, 7]])
    for (const trial of [0, 1, 2])
      runs.push({
        preset: 'seed-vm',
        format: 'nccl-tests',
        collective: 'all_reduce',
        gpus,
        seed: 5,
        trial,
        ...(env ? { env } : {}),
      })
  const inputs = runs.map((o, i) => ({ path: `sim-mixed-${i}.txt`, data: Buffer.from(simulate(o)) }))
  const out = join(tmp('gpucomm-analysis-sim-'), 'set')
  await importFiles(inputs, { out, command: ['generated-by-test'] })
  return out
}

test('decode model on SIMULATED seed-vm: measured all-reduce at the payload, both §4 readings, and which one the data supports', async () => {
  const m = resolveModel('glm-5')!
  const payload = 786432
  // NCCL over SHM: ring steps cost ~2.3 µs, not the 13.7 µs copy floor → neither reading fits within 2×.
  const shm = await compare(await seedVmMixed(), { model: m })
  const d = shm.decode!
  const tp8 = d.plans.find((p) => p.plan === 'TP8')!
  assert.equal(tp8.grouping, 'ranks=8')
  const truth8 = trueTime('seed-vm', { kind: 'collective', collective: 'all_reduce', gpus: GPUS, sizeBytes: payload })
  assert.ok(rel(tp8.allreduceTime as number, truth8) < 0.05, `${tp8.allreduceTime} vs ${truth8}`)
  assert.equal(tp8.tokPerSec, 64 / (156 * (tp8.allreduceTime as number)))
  const tp4 = d.plans.find((p) => p.plan === 'TP4×PP2')!
  const truth4 = trueTime('seed-vm', {
    kind: 'collective',
    collective: 'all_reduce',
    gpus: [0, 1, 2, 3],
    sizeBytes: payload,
  })
  assert.ok(rel(tp4.allreduceTime as number, truth4) < 0.05, `${tp4.allreduceTime} vs ${truth4}`)
  assert.ok(rel(d.p2pReadings!.alpha, 13.7e-6) < 0.05)
  assert.equal(d.p2pReadings!.supported, 'undecided')
  // Every ring step a 13.7 µs staged copy (NCCL_SHM_USE_CUDA_MEMCPY=1): the per-hop reading holds.
  const memcpy = await compare(await seedVmMixed({ NCCL_SHM_USE_CUDA_MEMCPY: '1' }), { model: m })
  assert.equal(memcpy.decode!.p2pReadings!.supported, 'per-hop', memcpy.decode!.p2pReadings!.why)
})

test('decode model with only p2p measured: both readings shown, undecided, and no all-reduce time invented', async () => {
  const inputs = [
    {
      path: 'sim-p2p-only.txt',
      data: Buffer.from(simulate({ preset: 'seed-vm', format: 'p2p', gpus: GPUS, seed: 6, trial: 0 })),
    },
  ]
  const out = join(tmp('gpucomm-analysis-sim-'), 'set')
  await importFiles(inputs, { out, command: ['generated-by-test'] })
  const r = await cli(['compare', out, '--model', 'glm-5', '--json'])
  assert.equal(r.code, 0, r.stderr)
  const d = (JSON.parse(r.stdout) as Comparison).decode!
  assert.deepEqual(
    d.p2pReadings!.readings.map((x) => x.reading),
    ['per-hop', 'whole-transfer'],
  )
  assert.equal(d.p2pReadings!.supported, 'undecided')
  assert.match(d.p2pReadings!.why, /only p2p latency was measured/)
  assert.ok(d.plans.every((p) => p.allreduceTime === null && p.commTime === null))
})
