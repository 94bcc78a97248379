/**
 * Model presets of the decode step model: the shapes that set how many bytes a decode step
 * reads and how many collectives it runs. Parameter counts are the publishers'; the split into
 * always-read (dense) and routed-expert bytes is derived from the published total and active
 * counts (docs/REFERENCE.md, decode-step model): with E routed experts of which k are active,
 * dense + routed = total and dense + routed·k/E = active.
 */

/** A model as the step model sees it. */
export interface StepModel {
  id: string
  name: string
  layers: number
  hidden: number
  /** Activation bytes per element (bf16: 2). */
  actBytes: number
  /** Weight bytes every step reads whatever the routing (attention, dense and shared MLPs, head), whole model. */
  denseBytes: number
  /** Weight bytes of all routed experts, whole model. */
  routedBytes: number
  /** Routed experts per MoE layer and how many a token activates (1 and 1 for a dense model). */
  experts: number
  topK: number
  /** KV-cache bytes per token per layer. */
  kvBytesPerTokenLayer: number
  /** MLA keeps one latent per token, copied on every tensor-parallel rank; GQA splits heads. */
  kvReplicatedOverTp: boolean
  /** Tensor-parallel all-reduces per layer per forward pass. */
  allreducesPerLayer: number
  source: string
}

const GB = 1e9
const B = 1e9

/** dense and routed parameter counts from total, active, experts and top-k. */
export function splitParams(total: number, active: number, experts: number, topK: number): [number, number] {
  const routed = (total - active) / (1 - topK / experts)
  return [total - routed, routed]
}

const [GLM5_DENSE, GLM5_ROUTED] = splitParams(744 * B, 40 * B, 256, 8)
const [KIMI_DENSE, KIMI_ROUTED] = splitParams(1040 * B, 32 * B, 384, 8)
/** NVFP4 and INT4 (group 32 with 16-bit scales): 4.5 bits a weight. */
const FOUR_BIT = 4.5 / 8
/** MLA latent per token and layer: kv_lora_rank 512 + rope 64 values. */
const MLA_VALUES = 512 + 64

/** Every step-model preset, by id. */
export const STEP_MODELS: Readonly<Record<string, StepModel>> = {
  'glm-5': {
    id: 'glm-5',
    name: 'GLM-5 (NVFP4)',
    layers: 78,
    hidden: 6144,
    actBytes: 2,
    denseBytes: GLM5_DENSE * 2,
    routedBytes: GLM5_ROUTED * FOUR_BIT,
    experts: 256,
    topK: 8,
    kvBytesPerTokenLayer: MLA_VALUES * 2,
    kvReplicatedOverTp: true,
    allreducesPerLayer: 2,
    source:
      '744B total, 40B active, 256 routed experts top-8, 78 layers, hidden 6144, MLA (NVIDIA Megatron-Bridge GLM-5 docs; ' +
      'rtx6kpro models/glm5.md); routed experts in NVFP4 (4.5 bits), the rest bf16: 443 GB, the published ~440 GB; bf16 KV',
  },
  'kimi-k2.5': {
    id: 'kimi-k2.5',
    name: 'Kimi K2.5 (INT4)',
    layers: 61,
    hidden: 7168,
    actBytes: 2,
    denseBytes: KIMI_DENSE * 2,
    routedBytes: KIMI_ROUTED * FOUR_BIT,
    experts: 384,
    topK: 8,
    kvBytesPerTokenLayer: MLA_VALUES,
    kvReplicatedOverTp: true,
    allreducesPerLayer: 2,
    source:
      '1.04T total, 32B active, 384 routed experts top-8, 61 layers, hidden 7168, MLA (Kimi K2 report, arXiv:2507.20534); ' +
      'native INT4 experts (rtx6kpro models/kimi-k25.md), the rest bf16; fp8 KV',
  },
}

/** The preset `id`, or undefined. */
export function stepModelById(id: string): StepModel | undefined {
  return STEP_MODELS[id.toLowerCase()]
}

export { GB }
