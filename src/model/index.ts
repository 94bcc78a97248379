/** The result-set model: types, schema version and row validation (pure, no IO). */
export type {
  Unit,
  Metric,
  SourceRef,
  Row,
  Diagnostic,
  HostFacts,
  SourceFile,
  PointOutcome,
  Manifest,
} from './types.ts'
export { SCHEMA_VERSION, SIM_MARKER } from './types.ts'
export { rowProblem, isRow, makeRow } from './_validate.ts'
