import type { PointOutcome } from '../model/index.ts'

/** Progress of a sweep, for the CLI to show (the library never prints). */
export type ProgressEvent =
  | { type: 'plan'; total: number; todo: number; done: number; skipped: number; out: string }
  | { type: 'point-start'; index: number; todo: number; id: string }
  | { type: 'retry'; id: string; attempt: number; status: string; reason: string; delayS: number }
  | {
      type: 'point'
      index: number
      todo: number
      id: string
      outcome: PointOutcome
      elapsedS: number
      etaS: number
      partial?: { rows: number; files: string[] }
    }
