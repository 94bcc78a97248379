/**
 * Sweep specs and plans: a SweepSpec (from flags or a bench/*.json preset) expands into
 * Points with stable ids. Pure: no IO, no processes.
 */

export { allPairs, formatGpuList, parseGpuList, parsePairs } from '../lists/index.ts'
export { mulberry32, shuffle } from '../random/index.ts'
export type { BestGroups, Grouping, GroupingSkip } from './_groupings.ts'
export { resolveGroupings, splitGroupingTokens } from './_groupings.ts'
export { parseEnvAxis, parseSizes, sizesArg } from './_lists.ts'
export type { BenchDef, PlanContext } from './_plan.ts'
export { envCombos, plan, pointDefinition } from './_plan.ts'
export type { ProgressEvent } from './_progress.ts'
export { resolveSpec, SPEC_DEFAULTS } from './_spec.ts'
export type { SpecInput } from './_spec-input.ts'
export { checkSpecInput, SPEC_SCHEMA } from './_spec-input.ts'
export type {
  AdaptiveSpec,
  BenchKind,
  ClusterInput,
  InstrumentPaths,
  LauncherId,
  Order,
  Plan,
  Point,
  SimFault,
  SkippedPoint,
  SrunGpus,
  SweepSpec,
} from './_types.ts'
