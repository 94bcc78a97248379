/**
 * The per-token decode step, term by term. A decode step runs every layer once for a batch of
 * sequences; on GPUs that hold a large model it is memory-bound: each GPU reads its share of the
 * weights (the dense part always, the routed experts the batch touches) and of the KV cache,
 * pays a fixed cost per layer (kernel launches and the small-batch work that is not a memory
 * stream), and waits for the collectives that join tensor-parallel ranks and pipeline stages.
 *
 * Pipeline parallelism, two schedules: back to back (the whole batch through stage 1, then
 * stage 2: every GPU idles while the other stage runs) and pipelined (the batch split into one
 * micro-batch per stage, every stage busy; each micro-batch re-reads the stage's weights). In a
 * memory-bound step both read the weights of a stage once per pass, which is why TP4×PP2 reads
 * twice the bytes per GPU per step that TP8 does.
 */
import type { GpuSpec } from './_gpus.ts'
import type { StepModel } from './_models.ts'

/** A parallel plan and the load it runs. */
export interface Plan {
  tp: number
  pp: number
  schedule: 'back-to-back' | 'pipelined'
  /** Sequences decoded together (concurrent requests). */
  batch: number
  /** Tokens of context each sequence attends to. */
  context: number
  /** Decode context parallelism: the KV cache split over this many ranks (3 collectives per layer). */
  dcp: number
  /** MTP / speculative decoding, when on. */
  mtp?: Mtp
}

/**
 * MTP (NEXTN) speculative decoding: `drafts − 1` passes of the one-layer draft head propose
 * tokens, one verify pass runs `drafts` tokens per sequence through the model, and `accepted`
 * tokens per sequence come out of each step on average (the engine's "accept length", which
 * counts the verified bonus token).
 */
export interface Mtp {
  accepted: number
  drafts: number
  from: string
}

/** A collective's time and where it came from. */
export interface Timed {
  t: number
  from: string
}

/** What the step needs of the interconnect, at a payload in bytes over n GPUs. */
export interface Interconnect {
  allReduce(bytes: number, n: number): Timed
  /** all_gather / reduce_scatter (decode context parallelism). */
  gather(bytes: number, n: number): Timed
  /** One pipeline-boundary send/recv. */
  sendRecv(bytes: number): Timed
}

/** The two constants that are not read off a datasheet or a measurement (see _calibrate.ts). */
export interface Efficiency {
  /** Fraction of the datasheet memory bandwidth a decode step's reads reach. */
  memory: number
  /** Fixed seconds per layer per pass (launches, routing, small-batch compute). */
  perLayer: number
  from: string
}

/** One term of the step (seconds per step) and its provenance. */
export interface Term {
  name: 'weights' | 'kv' | 'per-layer' | 'collectives' | 'pipeline' | 'mtp draft'
  seconds: number
  from: string
}

/** A predicted step. */
export interface StepPrediction {
  terms: Term[]
  step: number
  /** Tokens per second over the whole batch. */
  tokPerSec: number
  /** The collectives' part of the step (the part the interconnect options can change). */
  comm: number
}

/** Expected fraction of a layer's routed experts that a batch touches (uniform routing). */
export function touched(m: StepModel, batch: number): number {
  if (m.experts <= m.topK) return 1
  return 1 - (1 - m.topK / m.experts) ** batch
}

/** One stage's pass of `batch` sequences: its terms in seconds. */
function stagePass(
  m: StepModel,
  gpu: GpuSpec,
  p: Plan,
  batch: number,
  net: Interconnect,
  eff: Efficiency,
  perSeq = 1,
  layers = m.layers / p.pp,
): Term[] {
  const tokens = batch * perSeq
  const bw = gpu.memBandwidth * eff.memory
  const weights = ((m.denseBytes + m.routedBytes * touched(m, tokens)) * layers) / (m.layers * p.tp)
  const kvShard = (m.kvReplicatedOverTp ? 1 : p.tp) * p.dcp
  const kv = (batch * p.context * layers * m.kvBytesPerTokenLayer) / kvShard
  const payload = tokens * m.hidden * m.actBytes
  const ar = net.allReduce(payload, p.tp)
  const g = p.dcp > 1 ? net.gather(payload, p.dcp) : null
  const perLayerComm = m.allreducesPerLayer * ar.t + (g ? 3 * g.t : 0)
  const commFrom = `${m.allreducesPerLayer} all-reduces/layer of ${payload} B: ${ar.from}${g ? `; 3 DCP collectives/layer: ${g.from}` : ''}`
  return [
    {
      name: 'weights',
      seconds: weights / bw,
      from: `${gpu.name} ${gpu.memBandwidth / 1e9} GB/s × ${eff.memory.toFixed(2)}`,
    },
    { name: 'kv', seconds: kv / bw, from: `${p.context} tokens of context, ${m.kvBytesPerTokenLayer} B/token/layer` },
    { name: 'per-layer', seconds: layers * eff.perLayer, from: eff.from },
    { name: 'collectives', seconds: layers * perLayerComm, from: commFrom },
  ]
}

/** Sums terms of the same name. */
function merge(passes: Term[][], extra: Term[]): Term[] {
  const out = new Map<Term['name'], Term>()
  for (const t of [...passes.flat(), ...extra]) {
    const prev = out.get(t.name)
    out.set(t.name, prev ? { ...prev, seconds: prev.seconds + t.seconds } : { ...t })
  }
  return [...out.values()]
}

/** The draft head's passes: `drafts − 1` passes of one average layer at one token per sequence. */
function draftTerm(
  m: StepModel,
  gpu: GpuSpec,
  p: Plan,
  net: Interconnect,
  eff: Efficiency,
): { terms: Term[]; comm: number } {
  const mtp = p.mtp
  if (!mtp || mtp.drafts <= 1) return { terms: [], comm: 0 }
  const one = stagePass(m, gpu, p, p.batch, net, eff, 1, 1)
  const passes = mtp.drafts - 1
  const comm = passes * (one.find((t) => t.name === 'collectives')?.seconds ?? 0)
  const terms: Term[] = [
    {
      name: 'mtp draft',
      seconds: passes * one.reduce((s, t) => s + t.seconds, 0),
      from: `${passes} draft passes of one layer (an average layer of the model: weights, KV, fixed cost and its collectives as above)`,
    },
  ]
  return { terms, comm }
}

/** The decode step of `m` on `gpu` under plan `p`. */
export function predictStep(m: StepModel, gpu: GpuSpec, p: Plan, net: Interconnect, eff: Efficiency): StepPrediction {
  const micro = p.pp > 1 && p.schedule === 'pipelined' ? p.pp : 1
  const batch = p.batch / micro
  const perSeq = p.mtp?.drafts ?? 1
  // Back to back: pp passes in sequence (one per stage); pipelined: the busiest stage's pp micro-batch passes.
  const passes = Array.from({ length: p.pp }, () => stagePass(m, gpu, p, batch, net, eff, perSeq))
  const sends = p.pp > 1 ? (micro > 1 ? p.pp : p.pp - 1) : 0
  const sr = net.sendRecv(batch * perSeq * m.hidden * m.actBytes)
  const extra: Term[] = sends
    ? [{ name: 'pipeline', seconds: sends * sr.t, from: `${sends} send/recv: ${sr.from}` }]
    : []
  const draft = draftTerm(m, gpu, p, net, eff)
  const terms = [...merge(passes, extra), ...draft.terms]
  const step = terms.reduce((s, t) => s + t.seconds, 0)
  const comm =
    terms.filter((t) => t.name === 'collectives' || t.name === 'pipeline').reduce((s, t) => s + t.seconds, 0) +
    draft.comm
  // Each step yields `accepted` tokens per sequence with MTP on, one without.
  return { terms, step, tokPerSec: (p.batch * (p.mtp?.accepted ?? 1)) / step, comm }
}
