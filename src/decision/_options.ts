/**
 * The case's options, ranked: each a change to the decode step (the plan, the all-reduce the
 * engine runs, NCCL's settings, the host's), predicted from what the set measured where it
 * measured it, from published numbers where it did not (and said so).
 */
import { medianCI, sortSample } from '../stats/index.ts'
import type { GpuSpec } from './_gpus.ts'
import { fasterOf, lineNet, p2pNcclNet, withCustomAllReduce } from './_interconnect.ts'
import type { Arm, Measured } from './_measured.ts'
import { armKey, ranksOf } from './_measured.ts'
import type { StepModel } from './_models.ts'
import { PUBLISHED_NETS } from './_published.ts'
import { setNet } from './_set-net.ts'
import type { Efficiency, Interconnect, Mtp, Plan, StepPrediction } from './_step.ts'
import { predictStep } from './_step.ts'

/** One option with its prediction. */
export interface OptionRow {
  name: string
  plan: Plan
  /** What the option changes in the step. */
  change: string
  /** The measurement (or published number) it rests on. */
  restsOn: string
  prediction: StepPrediction | null
  /** Interval of tok/s over the set's launches, with how it was formed; null when not from the set. */
  interval: { lo: number; hi: number; how: string } | null
}

/** What the options need besides the set. */
export interface OptionsInput {
  model: StepModel
  gpu: GpuSpec
  batch: number
  context: number
  dcp: number
  /** MTP / speculative decoding, when on. */
  mtp?: Mtp
  efficiency: Efficiency
}

const isDefault = (a: Arm): boolean => Object.keys(a.env).length === 0 && Object.keys(a.host).length === 0
const describe = (a: Arm): string =>
  [...Object.entries(a.env), ...Object.entries(a.host)].map(([k, v]) => `${k}=${v}`).join(' ') || 'defaults'

/** What a step lacks: the sources of its terms that have no number. */
const missing = (pr: StepPrediction): string =>
  [...new Set(pr.terms.filter((t) => !Number.isFinite(t.seconds)).map((t) => `${t.name} (${t.from})`))].join('; ')

/** Where a pipelined plan's stage boundary (send/recv) came from, when it has one. */
const boundary = (pr: StepPrediction): string => {
  const t = pr.terms.find((x) => x.name === 'pipeline')
  return t ? `; ${t.from}` : ''
}

/** tok/s over each launch: a median CI from ≥ 6 launches, else their range. */
function launchInterval(
  m: Measured,
  predict: (net: Interconnect) => StepPrediction,
  netOf: (trial: number) => Interconnect,
): OptionRow['interval'] {
  const v = m.trials.map((t) => predict(netOf(t)).tokPerSec).filter(Number.isFinite)
  if (v.length < 2) return null
  const s = sortSample(v)
  if (v.length >= 6) {
    const [lo, hi] = medianCI(s, 0.95)
    return { lo, hi, how: `95 % CI of the median over ${v.length} launches` }
  }
  return { lo: s[0] as number, hi: s[s.length - 1] as number, how: `range over ${v.length} launches` }
}

/** The options for a set, best first (unpredictable ones last). */
export function options(m: Measured, inp: OptionsInput): OptionRow[] {
  const ranks = ranksOf(m, 'nccl.all_reduce')
  const tp = ranks.includes(8) ? 8 : (ranks[0] ?? 8)
  const arms = [...m.arms.entries()]
  const base = arms.find(([, a]) => isDefault(a))?.[0] ?? arms[0]?.[0] ?? armKey({ env: {}, host: {} })
  const plan = planOf(inp)
  const fromSet = setRow(m, inp)
  const rows: OptionRow[] = [
    fromSet(
      `as measured (TP${tp}, NCCL)`,
      plan(tp, 1, 'back-to-back'),
      base,
      'nothing: the step as the set measured it',
    ),
    ...pipelineOptions(tp, inp, base, plan, fromSet),
    p2pOption(m, inp, plan(tp, 1, 'back-to-back'), base, fromSet),
  ]
  for (const [key, a] of arms) {
    if (key === base) continue
    const kind = Object.keys(a.host).length ? 'host setting' : 'NCCL setting'
    rows.push(
      fromSet(
        `${kind}: ${describe(a)}`,
        plan(tp, 1, 'back-to-back'),
        key,
        `NCCL's collectives as measured under ${describe(a)}`,
      ),
    )
  }
  return rows.sort((x, y) => (y.prediction?.tokPerSec ?? -1) - (x.prediction?.tokPerSec ?? -1))
}

type PlanOf = (tp: number, pp: number, schedule: Plan['schedule']) => Plan

/** A plan of `tp` × `pp` GPUs with the case's batch, context, DCP and MTP. */
const planOf =
  (inp: OptionsInput): PlanOf =>
  (tp, pp, schedule) => ({
    tp,
    pp,
    schedule,
    batch: inp.batch,
    context: inp.context,
    dcp: inp.dcp,
    ...(inp.mtp ? { mtp: inp.mtp } : {}),
  })

/** An option predicted from the set's arm (its interconnect, optionally changed by `wrap`). */
function setRow(m: Measured, inp: OptionsInput): FromSet {
  const run = (p: Plan) => (net: Interconnect) => predictStep(inp.model, inp.gpu, p, net, inp.efficiency)
  return (name, p, arm, change, wrap = (n) => n) => {
    const pr = run(p)(wrap(setNet(m, arm)))
    const ok = Number.isFinite(pr.step)
    return {
      name,
      plan: p,
      change,
      restsOn: ok
        ? `this set: nccl all_reduce on ${p.tp} GPUs (${describe(m.arms.get(arm) ?? { env: {}, host: {} })})${boundary(pr)}`
        : `not predictable: ${missing(pr) || `nccl all_reduce on ${p.tp} GPUs not measured`}`,
      prediction: ok ? pr : null,
      interval: ok ? launchInterval(m, run(p), (t) => wrap(setNet(m, arm, t))) : null,
    }
  }
}

/** Half the tensor parallelism over two pipeline stages, back to back and pipelined (even layer counts only). */
function pipelineOptions(tp: number, inp: OptionsInput, base: string, plan: PlanOf, fromSet: FromSet): OptionRow[] {
  const half = tp / 2
  if (!(half >= 1 && inp.model.layers % 2 === 0)) return []
  return [
    fromSet(
      `TP${half}×PP2, back to back`,
      plan(half, 2, 'back-to-back'),
      base,
      'half the ring steps per all-reduce; each GPU reads twice the weights per step; stages run one after the other',
    ),
    fromSet(
      `TP${half}×PP2, pipelined`,
      plan(half, 2, 'pipelined'),
      base,
      'as back to back, with two micro-batches of half the batch keeping both stages busy',
    ),
  ]
}

/** An arm where NCCL itself runs over P2P across the sockets: NCCL_P2P_LEVEL=SYS, P2P not disabled, no host knobs. */
const isP2pArm = (a: Arm): boolean =>
  a.env.NCCL_P2P_LEVEL === 'SYS' && a.env.NCCL_P2P_DISABLE !== '1' && Object.keys(a.host).length === 0

type FromSet = (
  name: string,
  p: Plan,
  arm: string,
  change: string,
  wrap?: (n: Interconnect) => Interconnect,
) => OptionRow

/**
 * P2P for the engine: its custom all-reduce (one-shot, two-shot) over the set's P2P pairs, with NCCL's other
 * collectives over P2P too (a P2P arm of the set when there is one, else NCCL over P2P modelled
 * from the measured P2P α/β); over published P2P numbers when the set has no working P2P.
 */
function p2pOption(m: Measured, inp: OptionsInput, p: Plan, base: string, fromSet: FromSet): OptionRow {
  const name = 'P2P for the engine (bare metal, or a VM GPUDirect clique)'
  const change =
    'the engine’s custom all-reduce over P2P (one-shot for small messages, two-shot up to 8 MiB); NCCL over P2P for the other collectives'
  const p2p = m.p2p
  const bw = p2p?.bw
  if (p2p && bw) {
    const pairs = `P2P pairs of this set (${(bw / 1e9).toFixed(1)} GB/s)`
    const armed = [base, ...m.arms.keys()].find((k) => isP2pArm(m.arms.get(k) ?? { env: {}, host: {} }))
    if (armed) {
      const row = fromSet(name, p, armed, change, (n) => withCustomAllReduce(n, bw))
      return { ...row, restsOn: `${row.restsOn}, a P2P arm of this set; ${pairs}` }
    }
    const line = p2pNcclNet({ alpha: p2p.alpha, bw, pairs: p2p.pairs })
    const row = fromSet(name, p, base, change, (n) => withCustomAllReduce(fasterOf(n, line), bw))
    return {
      ...row,
      restsOn: `${row.restsOn}, or NCCL over P2P modelled from the measured P2P α/β where faster (no P2P arm in this set); ${pairs}`,
    }
  }
  const pub = PUBLISHED_NETS['p2p-ll']
  if (!pub || inp.gpu.id !== 'rtx-pro-6000')
    return {
      name,
      plan: p,
      change,
      restsOn: 'no working P2P in this set and no published P2P numbers for this GPU',
      prediction: null,
      interval: null,
    }
  const prediction = predictStep(inp.model, inp.gpu, p, withCustomAllReduce(lineNet(pub), pub.p2pBw), inp.efficiency)
  return {
    name,
    plan: p,
    change,
    restsOn: `published numbers, not this set (no working P2P here): ${pub.from}`,
    prediction,
    interval: null,
  }
}
