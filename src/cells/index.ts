/**
 * Cells: rows grouped by what they measure (bench × pair/group/ranks × size × env ×
 * placement × metric × p2p/copy/dtype/…), each with its `Summary`. The cell key is the
 * join key of `diff` and of the analysis.
 */

export type { Cell, CellsOptions, CellVariance, RowGroup } from './_cells.ts'
export { cells, compareCells, groupRows } from './_cells.ts'
export type { CellConfig, ObservedField } from './_key.ts'
export {
  cellConfig,
  cellKey,
  keyLabel,
  keyOf,
  keySize,
  lowerIsBetter,
  OBSERVED,
  requestedConfig,
  requestedKey,
} from './_key.ts'
export type { CellStats } from './_parallel.ts'
export { CellsWorker } from './_parallel.ts'
