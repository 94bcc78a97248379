/**
 * Published serving measurements the step model is checked against, with the collective
 * numbers each rests on (all from docs/REFERENCE.md, each with its source there). Two rows
 * calibrate the model's two free constants (_calibrate.ts); the others validate it.
 */
import type { LineNet } from './_interconnect.ts'
import type { Mtp, Plan } from './_step.ts'

const US = 1e-6
const GBS = 1e9

/** Published collective numbers for 8 × RTX PRO 6000 on dual EPYC, by transport. */
export const PUBLISHED_NETS: Readonly<Record<string, LineNet>> = {
  'p2p-ll': {
    alpha: 25.15 * US,
    busbw: 37.6 * GBS,
    p2pAlpha: 0.44 * US,
    p2pBw: 55 * GBS,
    from: 'NCCL over P2P, LL: 24.1–26.2 µs small (ar-rtxpro6000-p2p-ll-8gpu), 37.6 GB/s busbw with 8 channels (busbw-ar-rtxpro6000-8gpu-8ch)',
  },
  shm: {
    alpha: 48 * US,
    busbw: 22.2 * GBS,
    p2pAlpha: 14 * US,
    p2pBw: 22.2 * GBS,
    from: 'NCCL over SHM, default protocol: ~48 µs at 32–64 KB (ar-rtxpro6000-default-8gpu), 22.2 GB/s busbw (busbw-ar-rtxpro6000-8gpu-default)',
  },
  'vm-staged': {
    alpha: 14 * 13.7 * US,
    busbw: 22.2 * GBS,
    p2pAlpha: 13.7 * US,
    p2pBw: 22.2 * GBS,
    from: 'ESTIMATE, not a measurement: a ring of 2(n−1) = 14 host-staged steps at the VM’s 13.7 µs copy floor; 22.2 GB/s busbw as on bare metal',
  },
}

/** One published serving measurement. */
export interface PublishedRow {
  id: string
  model: string
  gpu: string
  machine: string
  engine: string
  /** The all-reduce the engine ran: NCCL, or its custom one-shot kernel over P2P. */
  allReduce: 'nccl' | 'one-shot'
  net: keyof typeof PUBLISHED_NETS
  plan: Plan
  measured: number
  role: 'calibration' | 'validation'
  source: string
  /** Why the model is not expected to match within ±35 %, where it is not. */
  caveat?: string
}

const tp8 = (batch: number, dcp = 1): Plan => ({ tp: 8, pp: 1, schedule: 'back-to-back', batch, context: 1000, dcp })
const GLM = 'rtx6kpro models/glm5.md, "Decode throughput — MTP OFF", cutlass, ctx 0'
const KIMI = 'rtx6kpro models/kimi-k25.md, "Single-batch decode speed", 0K context'
const BARE = '8 × RTX PRO 6000, bare metal, dual EPYC (PCIe Gen5, P2P on)'

/** A GLM-5 row of the bare-metal SGLang TP8 table (MTP off, cutlass) at one concurrency. */
const glm5 = (batch: number, measured: number, role: PublishedRow['role']): PublishedRow => ({
  id: `glm5-c${batch}`,
  model: 'glm-5',
  gpu: 'rtx-pro-6000',
  machine: BARE,
  engine: 'SGLang TP8, NCCL_P2P_LEVEL=SYS, custom all-reduce off',
  allReduce: 'nccl',
  net: 'p2p-ll',
  plan: tp8(batch),
  measured,
  role,
  source: `${GLM}, concurrency ${batch}`,
})

/**
 * GLM-5's MTP as published: SGLang NEXTN, 3 draft steps, 4 draft tokens, accept length
 * 2.19–2.80 tokens (varies by context); the model takes the middle of that range.
 */
export const GLM5_MTP: Mtp = {
  accepted: 2.5,
  drafts: 4,
  from: 'rtx6kpro models/glm5.md, "MTP / Speculative Decoding": NEXTN, 4 draft tokens, accept length 2.19–2.80 (the middle, 2.5)',
}
const MTP_ON = 'rtx6kpro models/glm5.md, "Decode throughput — MTP ON", cutlass run 2, ctx 0'

/** A GLM-5 row of the bare-metal SGLang TP8 table with MTP on at one concurrency. */
const glm5Mtp = (batch: number, measured: number): PublishedRow => ({
  ...glm5(batch, measured, 'validation'),
  id: `glm5-mtp-c${batch}`,
  engine: 'SGLang TP8, NEXTN MTP (4 draft tokens), custom all-reduce off',
  plan: { ...tp8(batch), mtp: GLM5_MTP },
  source: `${MTP_ON}, concurrency ${batch}; accept length: ${GLM5_MTP.from}`,
})

/** The published rows, in table order. */
export const PUBLISHED_ROWS: readonly PublishedRow[] = [
  glm5(1, 50.4, 'calibration'),
  glm5(8, 276.9, 'validation'),
  glm5(32, 659.7, 'validation'),
  glm5(64, 1010.6, 'calibration'),
  glm5Mtp(1, 93.7),
  glm5Mtp(64, 1424.6),
  {
    id: 'kimi-p2p',
    model: 'kimi-k2.5',
    gpu: 'rtx-pro-6000',
    machine: BARE,
    engine: 'vLLM TP8 DCP8, fp8 KV, NCCL graph file (LL)',
    allReduce: 'nccl',
    net: 'p2p-ll',
    plan: tp8(1, 8),
    measured: 65,
    role: 'validation',
    source: `${KIMI}, Festr Turin, P2P`,
  },
  {
    id: 'kimi-nop2p',
    model: 'kimi-k2.5',
    gpu: 'rtx-pro-6000',
    machine: '8 × RTX PRO 6000, bare metal, dual EPYC Turin, NCCL_P2P_DISABLE=1',
    engine: 'vLLM TP8 DCP8, fp8 KV, P2P disabled + channels',
    allReduce: 'nccl',
    net: 'shm',
    plan: tp8(1, 8),
    measured: 44,
    role: 'validation',
    source: `${KIMI}, Festr Turin, no P2P`,
  },
  {
    id: 'kimi-fa2',
    model: 'kimi-k2.5',
    gpu: 'rtx-pro-6000',
    machine: BARE,
    engine: 'vLLM TP8, bf16 KV, FlashInfer FA2, DCP 1',
    allReduce: 'nccl',
    net: 'p2p-ll',
    plan: tp8(1),
    measured: 90,
    role: 'validation',
    source: `${KIMI}, Festr Turin, BF16 KV FA2 DCP=1 (bf16 KV: the model's fp8 KV bytes understate it; small at this context)`,
  },
  {
    id: 'glm5-vm-c64',
    model: 'glm-5',
    gpu: 'rtx-pro-6000',
    machine: '8 × RTX PRO 6000 in a Proxmox VM, P2P off (the case behind gpucomm)',
    engine: 'SGLang TP8',
    allReduce: 'nccl',
    net: 'vm-staged',
    plan: tp8(64),
    measured: 485,
    role: 'validation',
    source:
      'the case behind gpucomm: SGLang TP8 in the VM, ~485 tok/s (docs/REFERENCE.md, decode-step model); batch 64 assumed',
    caveat:
      'the VM’s all-reduce at this payload is not published: the row rests on an estimate (a ring of host-staged copies), and the VM may lose memory or launch speed too',
  },
]
