/**
 * Model presets of the decode-step communication model (`compare --model`). Each number
 * carries its source (docs/REFERENCE.md, decode-step model); every field can be overridden on the
 * command line (--layers --hidden --dtype-bytes --batch --allreduces-per-layer).
 */
import type { ModelPreset } from '../_types.ts'

/** Every model preset, by id. */
export const MODEL_PRESETS: Readonly<Record<string, ModelPreset>> = {
  'glm-5': {
    id: 'glm-5',
    name: 'GLM-5',
    layers: 78,
    hidden: 6144,
    dtypeBytes: 2,
    batch: 64,
    allreducesPerLayer: 2,
    source:
      'layers 78 (3 dense + 75 MoE) and hidden 6144: NVIDIA Megatron-Bridge GLM-5 docs; bf16 activations (2 B); ' +
      '2 all-reduces per layer per forward pass: Megatron-style TP (Shoeybi et al., arXiv:1909.08053); ' +
      'batch 64: the 64 concurrent requests of the bare-metal SGLang TP8 run (rtx6kpro models/glm5.md)',
  },
  'kimi-k2.5': {
    id: 'kimi-k2.5',
    name: 'Kimi K2.5',
    layers: 61,
    hidden: 7168,
    dtypeBytes: 2,
    batch: 1,
    allreducesPerLayer: 2,
    source:
      'layers 61 and hidden 7168: Kimi K2 report (arXiv:2507.20534); bf16 activations; 2 all-reduces per layer ' +
      '(Megatron-style TP); batch 1: the single-batch decode runs of rtx6kpro models/kimi-k25.md',
  },
}

/** Overrides of a preset's fields. */
export type ModelOverrides = Partial<
  Pick<ModelPreset, 'layers' | 'hidden' | 'dtypeBytes' | 'batch' | 'allreducesPerLayer'>
>

/** The preset `id` with `overrides` applied; undefined when there is no such preset. */
export function resolveModel(id: string, overrides: ModelOverrides = {}): ModelPreset | undefined {
  const p = MODEL_PRESETS[id.toLowerCase()]
  if (!p) return undefined
  const set = Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined))
  return { ...p, ...set }
}
