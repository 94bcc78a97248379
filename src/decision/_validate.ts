/** The step model against every published row: prediction, ratio, and whether it holds. */
import { EFFICIENCY, rowNet } from './_calibrate.ts'
import { gpuById } from './_gpus.ts'
import { stepModelById } from './_models.ts'
import type { PublishedRow } from './_published.ts'
import { PUBLISHED_ROWS } from './_published.ts'
import type { StepPrediction } from './_step.ts'
import { predictStep } from './_step.ts'

/** The tolerance the model is held to (issue: within ±35 % of each published measurement). */
export const TOLERANCE = 0.35

/** A row with its prediction. */
export interface Validated {
  row: PublishedRow
  prediction: StepPrediction
  /** predicted / measured. */
  ratio: number
  within: boolean
}

/** Predicts one published row. */
export function validateRow(r: PublishedRow): Validated {
  const m = stepModelById(r.model)
  const g = gpuById(r.gpu)
  if (!m || !g) throw new Error(`published row ${r.id}: unknown model or GPU`)
  const prediction = predictStep(m, g, r.plan, rowNet(r), EFFICIENCY)
  const ratio = prediction.tokPerSec / r.measured
  return { row: r, prediction, ratio, within: Math.abs(ratio - 1) <= TOLERANCE }
}

/** Every published row, predicted. */
export const validation = (): Validated[] => PUBLISHED_ROWS.map(validateRow)
