/** The decision for a set: the step as measured, term by term, and the options ranked. */
import type { TopologyView } from '../analysis/index.ts'
import { machineContext } from '../analysis/index.ts'
import type { ReadSet } from '../resultset/index.ts'
import { EFFICIENCY } from './_calibrate.ts'
import type { GpuSpec } from './_gpus.ts'
import { gpuById, gpuSpecFor } from './_gpus.ts'
import { measure } from './_measured.ts'
import type { StepModel } from './_models.ts'
import type { OptionRow } from './_options.ts'
import { options } from './_options.ts'
import { GLM5_MTP } from './_published.ts'
import type { Mtp } from './_step.ts'

/** What `decide` is asked. */
export interface DecideOptions {
  model: StepModel
  batch: number
  /** Tokens of context per sequence (default 1000). */
  context?: number
  dcp?: number
  /** A GPU id of the table, when the set does not name its GPUs. */
  gpu?: string
  /** MTP / speculative decoding: accepted tokens per step per sequence, draft tokens per step (default 4). */
  mtp?: { accepted: number; drafts?: number }
  /** Tokens per second observed in serving, for the Amdahl bound. */
  observedTps?: number
  /** The set's topology capture (it names the GPUs when the rows do not). */
  topology?: TopologyView | null
}

/** The observed step split by the model: how much is communication, and what each option can gain. */
export interface Observed {
  tokPerSec: number
  step: number
  /** The modelled communication's share of the observed step. */
  commShare: number
  /** tok/s with communication free: the most any interconnect option can give. */
  commFree: number
  /** Each option's tok/s scaled to the observation (observed × modelled step ratio). */
  scaled: { name: string; tokPerSec: number }[]
}

/** The decision. */
export interface Decision {
  model: StepModel
  gpu: GpuSpec
  gpuFrom: string
  batch: number
  context: number
  dcp: number
  mtp: Mtp | null
  simulated: boolean
  options: OptionRow[]
  observed: Observed | null
  notes: string[]
}

/** The MTP the user gave (--mtp, --mtp-drafts), with where its numbers came from. */
function mtpOf(g: DecideOptions['mtp']): Mtp | null {
  if (!g) return null
  const drafts = g.drafts ?? GLM5_MTP.drafts
  const dFrom =
    g.drafts === undefined
      ? `${drafts} draft tokens (the published GLM-5 NEXTN setting)`
      : `${drafts} draft tokens (given)`
  return { accepted: g.accepted, drafts, from: `${g.accepted} accepted tokens per step (given), ${dFrom}` }
}

/** Decides for a loaded set; throws when the GPU is unknown (the caller names it with --gpu). */
export function decide(set: ReadSet, o: DecideOptions): Decision {
  const named = o.gpu ? gpuById(o.gpu) : undefined
  const ctxName = o.gpu ? undefined : machineContext(set, o.topology ?? null).gpuName
  const gpu = named ?? gpuSpecFor(ctxName?.value)
  if (!gpu) throw new Error(`no GPU memory bandwidth known for ${ctxName?.value ?? 'this set (no GPU name)'}`)
  const gpuFrom = named ? '--gpu' : `the set's GPU name (${ctxName?.value})`
  const context = o.context ?? 1000
  const dcp = o.dcp ?? 1
  const mtp = mtpOf(o.mtp)
  const m = measure(set.rows)
  const opts = options(m, {
    model: o.model,
    gpu,
    batch: o.batch,
    context,
    dcp,
    ...(mtp ? { mtp } : {}),
    efficiency: EFFICIENCY,
  })
  const base = opts.find((r) => r.name.startsWith('as measured'))?.prediction ?? null
  let observed: Observed | null = null
  if (o.observedTps && base) {
    const step = (o.batch * (mtp?.accepted ?? 1)) / o.observedTps
    const commShare = Math.min(1, base.comm / step)
    observed = {
      tokPerSec: o.observedTps,
      step,
      commShare,
      commFree: o.observedTps / (1 - commShare),
      scaled: opts
        .filter((r) => r.prediction)
        .map((r) => ({
          name: r.name,
          tokPerSec: (o.observedTps as number) * (base.step / (r.prediction as { step: number }).step),
        })),
    }
  }
  const notes = [
    `constants: memory at ${(EFFICIENCY.memory * 100).toFixed(0)} % of the datasheet bandwidth and ${(EFFICIENCY.perLayer * 1e6).toFixed(0)} µs per layer, ${EFFICIENCY.from}`,
    mtp
      ? `MTP: ${mtp.from}; the verify pass runs ${mtp.drafts} tokens per sequence, each step yields ${mtp.accepted}`
      : `MTP off (--mtp N: accepted tokens per step; ${GLM5_MTP.from})`,
    'not modelled: prefill, expert-parallel all-to-all, compute-bound batches',
  ]
  return {
    model: o.model,
    gpu,
    gpuFrom,
    batch: o.batch,
    context,
    dcp,
    mtp,
    simulated: set.manifest.simulated,
    options: opts,
    observed,
    notes,
  }
}
