/** The result-set model: types, schema version and row validation (pure, no IO). */

export { rowArm } from './_arm.ts'
export type { IndexedRows } from './_indexed.ts'
export { eachRow, indexedRows, isIndexed } from './_indexed.ts'
export { rowMemo } from './_memo.ts'
export type { NcclAccount } from './_nccl-account.ts'
export { simLabel, simPrefix, simScaleIn, simScaleWords } from './_sim-scale.ts'
export { makeRow, rowProblem } from './_validate.ts'
export type {
  Diagnostic,
  HostFacts,
  Manifest,
  Metric,
  PartRecord,
  PointOutcome,
  Row,
  SourceFile,
  SourceRef,
  Unit,
} from './types.ts'
export { SCHEMA_VERSION, SIM_MARKER } from './types.ts'
