/**
 * The per-token step model on a toy model whose terms are worked out by hand: TP, back-to-back
 * and pipelined PP, the experts a batch touches, the engine's one-shot all-reduce and its
 * crossover, and the calibration recovering known constants.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { calibrate, rowNet } from '../../src/decision/_calibrate.ts'
import type { GpuSpec } from '../../src/decision/_gpus.ts'
import { gpuById } from '../../src/decision/_gpus.ts'
import { ONE_SHOT, withCustomAllReduce } from '../../src/decision/_interconnect.ts'
import type { StepModel } from '../../src/decision/_models.ts'
import { splitParams, stepModelById } from '../../src/decision/_models.ts'
import { PUBLISHED_ROWS } from '../../src/decision/_published.ts'
import type { Efficiency, Interconnect, Plan } from '../../src/decision/_step.ts'
import { predictStep, touched } from '../../src/decision/_step.ts'

const toy: StepModel = {
  id: 'toy',
  name: 'toy',
  layers: 2,
  hidden: 4,
  actBytes: 2,
  denseBytes: 1000,
  routedBytes: 4000,
  experts: 4,
  topK: 1,
  kvBytesPerTokenLayer: 10,
  kvReplicatedOverTp: false,
  allreducesPerLayer: 2,
  source: 'test',
}
const gpu: GpuSpec = { id: 'g', name: 'g', pattern: /g/, memBandwidth: 1000, memBytes: 1, source: 'test' }
const eff: Efficiency = { memory: 0.5, perLayer: 0.1, from: 'test' }
const net: Interconnect = {
  allReduce: (bytes, n) => ({ t: 0.01 + bytes * 0.001 * n, from: 'ar' }),
  gather: () => ({ t: 0.5, from: 'g' }),
  sendRecv: () => ({ t: 0.2, from: 'sr' }),
}
const plan = (tp: number, pp: number, schedule: Plan['schedule']): Plan => ({
  tp,
  pp,
  schedule,
  batch: 2,
  context: 3,
  dcp: 1,
})
const near = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9, `${a} ≠ ${b}`)
const term = (p: ReturnType<typeof predictStep>, name: string) => p.terms.find((t) => t.name === name)?.seconds ?? 0

test('touched: 1 − (1 − k/E)^batch of the routed experts', () => {
  near(touched(toy, 1), 0.25)
  near(touched(toy, 2), 1 - 0.75 ** 2)
  assert.equal(touched({ ...toy, experts: 1, topK: 1 }, 5), 1)
})

test('TP2: weights, KV, per-layer and all-reduce terms by hand', () => {
  const p = predictStep(toy, gpu, plan(2, 1, 'back-to-back'), net, eff)
  near(term(p, 'weights'), (1000 + 4000 * 0.4375) / 2 / 500) // 2.75 s
  near(term(p, 'kv'), (2 * 3 * 2 * 10) / 2 / 500) // 0.12 s
  near(term(p, 'per-layer'), 0.2)
  near(term(p, 'collectives'), 2 * 2 * (0.01 + 16 * 0.001 * 2)) // 0.168 s
  near(p.step, 3.238)
  near(p.tokPerSec, 2 / 3.238)
  near(p.comm, 0.168)
})

test('MTP: the verify pass runs drafts tokens per sequence, drafts − 1 one-layer draft passes, accepted tokens per step', () => {
  const p = predictStep(
    toy,
    gpu,
    { ...plan(2, 1, 'back-to-back'), mtp: { accepted: 2, drafts: 3, from: 't' } },
    net,
    eff,
  )
  near(term(p, 'weights'), (1000 + 4000 * (1 - 0.75 ** 6)) / 2 / 500) // 6 tokens touch more experts
  near(term(p, 'kv'), 0.12) // the KV cache is read once per sequence
  near(term(p, 'collectives'), 2 * 2 * (0.01 + 48 * 0.001 * 2)) // payload 6 tokens × 4 × 2 B
  // Two draft passes of one average layer at one token per sequence: weights 1.375, KV 0.06, 0.1 fixed, 0.084 collectives.
  near(term(p, 'mtp draft'), 2 * (1.375 + 0.06 + 0.1 + 0.084))
  near(p.step, 4.2880859375 + 0.12 + 0.2 + 0.424 + 3.238)
  near(p.tokPerSec, (2 * 2) / p.step)
  near(p.comm, 0.424 + 2 * 0.084)
  // One draft token, one accepted: the step without MTP.
  const off = predictStep(toy, gpu, plan(2, 1, 'back-to-back'), net, eff)
  const one = predictStep(
    toy,
    gpu,
    { ...plan(2, 1, 'back-to-back'), mtp: { accepted: 1, drafts: 1, from: 't' } },
    net,
    eff,
  )
  near(one.step, off.step)
  near(one.tokPerSec, off.tokPerSec)
})

test('PP2 back to back: stages in sequence, one boundary send', () => {
  const p = predictStep(toy, gpu, plan(1, 2, 'back-to-back'), net, eff)
  near(term(p, 'weights'), 2 * (2750 / 2 / 500)) // 5.5 s: each GPU reads half the model once per step, twice TP2's
  near(term(p, 'collectives'), 2 * 2 * (0.01 + 16 * 0.001))
  near(term(p, 'pipeline'), 0.2)
  near(p.step, 5.5 + 0.24 + 0.2 + 0.104 + 0.2)
})

test('PP2 pipelined: two micro-batches of half the batch, a send each', () => {
  const p = predictStep(toy, gpu, plan(1, 2, 'pipelined'), net, eff)
  near(term(p, 'weights'), 2 * ((1000 + 4000 * 0.25) / 2 / 500)) // fewer experts touched per micro-batch
  near(term(p, 'kv'), 2 * ((1 * 3 * 1 * 10) / 500))
  near(term(p, 'collectives'), 2 * 2 * (0.01 + 8 * 0.001))
  near(term(p, 'pipeline'), 0.4)
  near(p.step, 4.792)
})

test('DCP adds three gathers per layer', () => {
  const p = predictStep(toy, gpu, { ...plan(2, 1, 'back-to-back'), dcp: 2 }, net, eff)
  near(term(p, 'collectives'), 0.168 + 2 * 3 * 0.5)
  near(term(p, 'kv'), 0.12 / 2)
})

test('the engine’s custom all-reduce: one-shot, two-shot (vLLM’s REDUCE_CASE thresholds), NCCL above 8 MiB or when faster', () => {
  const nccl: Interconnect = { ...net, allReduce: () => ({ t: 1e-3, from: 'nccl' }) }
  const w = withCustomAllReduce(nccl, 55.2e9)
  const bw = ONE_SHOT.bwFraction * 55.2e9
  const one = (bytes: number, n: number) => ONE_SHOT.fixed + ((n - 1) * bytes) / bw
  const two = (bytes: number, n: number) => 2 * ONE_SHOT.fixed + (2 * (n - 1) * bytes) / n / bw
  const small = w.allReduce(1024, 4)
  near(small.t, one(1024, 4))
  assert.match(small.from, /one-shot/)
  const KiB = 1024
  // 4 GPUs: one-shot below 512 KiB; 8 GPUs: below 256 KiB; two-shot from there.
  near(w.allReduce(511 * KiB, 4).t, one(511 * KiB, 4))
  near(w.allReduce(512 * KiB, 4).t, two(512 * KiB, 4))
  near(w.allReduce(255 * KiB, 8).t, one(255 * KiB, 8))
  const big = w.allReduce(768 * KiB, 8) // GLM-5's payload at batch 64
  near(big.t, two(768 * KiB, 8))
  assert.match(big.from, /two-shot/)
  assert.ok(big.t < one(768 * KiB, 8) / 3, 'two-shot moves 2(n−1)/n of the bytes, not n−1')
  // 2 GPUs: one-shot at any size up to the buffer; NCCL above the 8 MiB buffer.
  near(w.allReduce(4 * KiB * KiB, 2).t, one(4 * KiB * KiB, 2))
  assert.equal(w.allReduce(8 * KiB * KiB + 1, 8).from, 'nccl')
  // NCCL faster: NCCL kept.
  const fast = withCustomAllReduce({ ...net, allReduce: () => ({ t: 1e-6, from: 'nccl' }) }, 55.2e9)
  assert.equal(fast.allReduce(1024, 4).from, 'nccl')
})

test('the model split of a published MoE: dense + routed = total, dense + routed·k/E = active', () => {
  const [d, r] = splitParams(744e9, 40e9, 256, 8)
  near((d + r) / 1e9, 744)
  near((d + (r * 8) / 256) / 1e9, 40)
})

test('calibration recovers the constants that made the rows', () => {
  const truth: Efficiency = { memory: 0.6, perLayer: 120e-6, from: 'truth' }
  const made = PUBLISHED_ROWS.filter((r) => r.model === 'glm-5' && r.net === 'p2p-ll' && !r.plan.mtp).map((r) => {
    const m = stepModelById(r.model) as StepModel
    const g = gpuById(r.gpu) as GpuSpec
    return { ...r, measured: predictStep(m, g, r.plan, rowNet(r), truth).tokPerSec }
  })
  assert.ok(made.length >= 3)
  const c = calibrate(made)
  near(c.memory, 0.6)
  near(c.perLayer, 120e-6)
  assert.match(c.from, /glm5-c1, glm5-c8/)
})
