/**
 * Cells: rows grouped by what they measure (bench × pair/group/ranks × size × env ×
 * placement × metric × p2p/copy/dtype/…), each with its `Summary`. The cell key is the
 * join key of `diff` and of the analysis.
 */
export { cellKey, cellConfig, keyOf, keyLabel, lowerIsBetter } from './_key.ts'
export type { CellConfig } from './_key.ts'
export { cells, groupRows, compareCells } from './_cells.ts'
export type { Cell, CellVariance, CellsOptions, RowGroup } from './_cells.ts'
