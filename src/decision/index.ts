/**
 * The decision: a per-token decode step model (weights and KV read at the GPU's memory
 * bandwidth, a fixed cost per layer, the collectives measured or published) that turns a
 * result set into predicted tokens per second for each option of the case (TP8 as measured,
 * TP4×PP2 back to back or pipelined, the engine's all-reduce over P2P, NCCL and host settings),
 * validated against published serving measurements (docs/serving-validation.md).
 */

export { EFFICIENCY } from './_calibrate.ts'
export type { DecideOptions, Decision, Observed } from './_decide.ts'
export { decide } from './_decide.ts'
export type { GpuSpec } from './_gpus.ts'
export { GPUS, gpuById, gpuSpecFor } from './_gpus.ts'
export type { StepModel } from './_models.ts'
export { STEP_MODELS, stepModelById } from './_models.ts'
export type { OptionRow } from './_options.ts'
export type { PublishedRow } from './_published.ts'
export { PUBLISHED_ROWS } from './_published.ts'
export type { Plan, StepPrediction, Term } from './_step.ts'
export { predictStep, touched } from './_step.ts'
export { renderDecision } from './_text.ts'
export type { Validated } from './_validate.ts'
export { TOLERANCE, validateRow, validation } from './_validate.ts'
export { validationMarkdown } from './_validation-doc.ts'
