/**
 * The decision on SIMULATED sets: the options table for the seed VM (its P2P option rests on
 * published numbers, said so), GLM-5 at batch 64 on bare metal within ±35 % of the published
 * 1,010 tok/s, TP4×PP2 reading twice the weights, and the Amdahl split of an observed rate.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { loadTopology } from '../../src/analysis/index.ts'
import type { StepModel } from '../../src/decision/index.ts'
import { decide, renderDecision, stepModelById } from '../../src/decision/index.ts'
import { loadSamples } from '../../src/resultset/index.ts'
import { sweepIn } from '../e2e/_sweep.ts'
import { cli, tmp } from '../helpers.ts'
import { simSet } from '../simset.ts'

const GLM5 = stepModelById('glm-5') as StepModel
const groups = [
  [0, 1, 2, 3, 4, 5, 6, 7],
  [0, 1, 2, 3],
]
const load = async (preset: string) => {
  const set = await loadSamples(await simSet({ preset, seed: 7, groups, trials: 3 }))
  return { set, topology: (await loadTopology(set.dir, set.manifest)).view }
}
/** The seed-VM set, built once for the tests that read it. */
const vm = load('seed-vm')

test('bare metal: GLM-5 at batch 64 within ±35 % of the published 1,010.6 tok/s; TP4×PP2 below TP8', async () => {
  const { set, topology } = await load('baremetal-turin')
  const d = decide(set, { model: GLM5, batch: 64, topology })
  assert.equal(d.gpu.id, 'rtx-pro-6000')
  const asMeasured = d.options.find((o) => o.name.startsWith('as measured'))?.prediction
  assert.ok(asMeasured)
  const r = asMeasured.tokPerSec / 1010.6
  assert.ok(Math.abs(r - 1) <= 0.35, `ratio ${r}`)
  const btb = d.options.find((o) => o.name.endsWith('back to back'))?.prediction
  assert.ok(btb)
  const w = (p: typeof btb) => p.terms.find((t) => t.name === 'weights')?.seconds as number
  assert.ok(Math.abs(w(btb) / w(asMeasured) - 2) < 1e-9, 'TP4×PP2 reads twice the weights per GPU per step')
  assert.ok(btb.tokPerSec < asMeasured.tokPerSec)
  // P2P works here: the P2P option rests on this set's pairs.
  const p2p = d.options.find((o) => o.name.startsWith('P2P'))
  assert.match(p2p?.restsOn ?? '', /P2P pairs of this set/)
})

test('seed VM: the options table, the P2P option from published numbers, and the Amdahl split', async () => {
  const { set, topology } = await vm
  const d = decide(set, { model: GLM5, batch: 64, topology, observedTps: 485 })
  const text = renderDecision(d)
  assert.match(text, /^SIMULATED set: the step as measured:/m)
  for (const name of ['as measured (TP8, NCCL)', 'TP4×PP2, back to back', 'TP4×PP2, pipelined', 'P2P for the engine'])
    assert.ok(text.includes(name), `options table lacks ${name}`)
  const p2p = d.options.find((o) => o.name.startsWith('P2P'))
  assert.match(p2p?.restsOn ?? '', /^published numbers, not this set/)
  assert.equal(p2p?.interval, null)
  const base = d.options.find((o) => o.name.startsWith('as measured'))?.prediction
  assert.ok(base && d.observed)
  const step = 64 / 485
  assert.ok(Math.abs(d.observed.step - step) < 1e-12)
  assert.ok(Math.abs(d.observed.commShare - base.comm / step) < 1e-12)
  assert.ok(Math.abs(d.observed.commFree - 485 / (1 - base.comm / step)) < 1e-9)
  // Options are ranked best first.
  const tps = d.options.map((o) => o.prediction?.tokPerSec ?? -1)
  assert.deepEqual(
    tps,
    [...tps].sort((a, b) => b - a),
  )
  // In the VM (host-staged collectives) P2P is the option with the most to gain.
  assert.equal(d.options[0]?.name.startsWith('P2P'), true)
  // No peer access and no sendrecv: TP4×PP2's stage boundary is the set's host-staged copy, and it says so.
  for (const o of d.options.filter((x) => x.name.startsWith('TP4×PP2'))) {
    assert.ok(o.prediction && Number.isFinite(o.prediction.tokPerSec), `${o.name}: ${o.restsOn}`)
    assert.match(o.restsOn, /; \d send\/recv: host-staged p2p α \+ bytes\/β of \d+ pairs, this set$/)
  }
})

test('--gpu names the GPU whose memory the step reads', async () => {
  const { set, topology } = await vm
  const d = decide(set, { model: GLM5, batch: 1, gpu: 'h100-sxm', topology })
  assert.equal(d.gpu.id, 'h100-sxm')
  assert.equal(d.gpuFrom, '--gpu')
})

test('CLI: compare --model prints the decision after the comparison; bad decision flags are exit 2, one line', async () => {
  const { set } = await vm
  const r = await cli(['compare', set.dir, '--model', 'glm-5', '--observed-tps', '485'])
  assert.equal(r.code, 0, r.stderr)
  const at = r.stdout.indexOf('Decision: GLM-5 (NVFP4) on RTX PRO 6000 Blackwell')
  assert.ok(at > r.stdout.indexOf('Decode model: GLM-5'), 'the decision follows the comparison')
  assert.match(r.stdout, /^Observed 485 tok\/s at batch 64: a 132\.0 ms step/m)
  const j = JSON.parse((await cli(['compare', set.dir, '--model', 'glm-5', '--json'])).stdout)
  assert.equal(j.decision.options.length, 4)
  // --mtp: the verify pass of 4 draft tokens (the default) yields 2.5 tokens per sequence per step.
  const mtp = JSON.parse((await cli(['compare', set.dir, '--model', 'glm-5', '--mtp', '2.5', '--json'])).stdout)
  assert.deepEqual([mtp.decision.mtp.accepted, mtp.decision.mtp.drafts], [2.5, 4])
  const asMeasured = (x: typeof j) =>
    x.decision.options.find((o: { name: string }) => o.name.startsWith('as measured')).prediction
  const [off, on] = [asMeasured(j), asMeasured(mtp)]
  assert.ok(Math.abs(on.tokPerSec - (64 * 2.5) / on.step) < 1e-9 && on.step > off.step && on.tokPerSec > off.tokPerSec)
  for (const args of [
    ['--gpu', 'tpu-v9'],
    ['--observed-tps', '0'],
    ['--dcp', '-1'],
    ['--context', 'x'],
    ['--mtp', '0.5'],
    ['--mtp', '5'],
    ['--mtp', '2', '--mtp-drafts', '2.5'],
    ['--mtp-drafts', '3'],
  ]) {
    const bad = await cli(['compare', set.dir, '--model', 'glm-5', ...args])
    assert.equal(bad.code, 2, `${args.join(' ')}: ${bad.stderr}`)
    assert.equal(bad.stderr.trim().split('\n').length, 1, bad.stderr)
  }
})

/** Kimi K2.5 at batch 1, DCP 8 on a SIMULATED bare-metal sweep (with `env` arms when given): each option's communication. */
async function kimiComm(env: string[]) {
  const out = join(tmp('gpucomm-decision-p2p-'), 'set')
  // `gpucomm sweep` in-process, its sim points answered in-process too (no process per point).
  const made = await sweepIn(
    {
      instrument: 'sim',
      preset: 'baremetal-turin',
      pairs: '0>1,0>4',
      groupings: 'tp8',
      collectives: 'all_reduce,all_gather',
      sizes: '8:1M:x4',
      trials: 2,
      seed: 3,
      ...(env.length ? { env } : {}),
    },
    { out },
  )
  assert.equal(made.code, 0, made.stderr)
  const set = await loadSamples(out)
  const kimi = stepModelById('kimi-k2.5') as StepModel
  const d = decide(set, { model: kimi, batch: 1, dcp: 8, topology: (await loadTopology(set.dir, set.manifest)).view })
  const option = (name: string) => {
    const o = d.options.find((x) => x.name.startsWith(name))
    assert.ok(o?.prediction, `${name}: ${d.options.map((x) => x.name).join(' | ')}`)
    return { comm: o.prediction.comm, restsOn: o.restsOn, terms: o.prediction.terms }
  }
  return option
}

// Published: 65 vs 44 tok/s, +7.3 ms per token. The acceptance is ±40 %; both arms hold ±20 %.
const near = (diff: number) => assert.ok(Math.abs(diff / 7.3e-3 - 1) <= 0.2, `${(diff * 1e3).toFixed(2)} ms`)

test('bare metal, Kimi K2.5 at batch 1, DCP 8: NCCL_P2P_DISABLE=1 minus P2P costs +7.3 ms ± 20 % of communication per token (published 65 vs 44 tok/s); SHM across the sockets runs Simple', async () => {
  const option = await kimiComm(['NCCL_P2P_DISABLE=0,1', 'NCCL_P2P_LEVEL=SYS'])
  // P2P on: the engine's one-shot all-reduce, NCCL over P2P for the DCP collectives (the P2P arm, here the base).
  const on = option('P2P for the engine')
  assert.match(on.restsOn, /NCCL_P2P_DISABLE=0 NCCL_P2P_LEVEL=SYS\), a P2P arm of this set/)
  const off = option('NCCL setting: NCCL_P2P_DISABLE=1').comm
  near(off - on.comm)
  // NCCL over P2P for every collective (LL below 32 KiB) against SHM across the sockets (Simple from 8 B).
  const nccl = off - option('as measured').comm
  assert.ok(nccl > 0 && nccl < off - on.comm, `${(nccl * 1e3).toFixed(2)} ms`)
})

test('a plain bare-metal sweep (no env arms): the P2P option runs its DCP all_gathers on NCCL over P2P modelled from the measured P2P α/β, not on the default arm’s SHM', async () => {
  const option = await kimiComm([])
  const on = option('P2P for the engine')
  assert.match(on.restsOn, /NCCL over P2P modelled from the measured P2P α\/β where faster \(no P2P arm in this set\)/)
  const coll = on.terms.find((t) => t.name === 'collectives')
  assert.match(coll?.from ?? '', /3 DCP collectives\/layer: NCCL over P2P modelled from the measured P2P α 0\.\d+ µs/)
  // The default arm is SHM (NCCL's default across Turin's sockets): P2P off is the step as measured.
  near(option('as measured').comm - on.comm)
})
