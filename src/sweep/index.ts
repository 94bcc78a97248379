/**
 * Sweep specs and plans: a SweepSpec (from flags or a bench/*.json preset) expands into
 * Points with stable ids. Pure: no IO, no processes.
 */
export type { Order, LauncherId, SrunGpus, SimFault, InstrumentPaths, SweepSpec, AdaptiveSpec, BenchKind, Point, SkippedPoint, Plan } from './_types.ts'
export type { SpecInput } from './_spec.ts'
export { SPEC_SCHEMA, SPEC_DEFAULTS, checkSpecInput, resolveSpec } from './_spec.ts'
export type { Grouping, BestGroups, GroupingSkip } from './_groupings.ts'
export { splitGroupingTokens, resolveGroupings } from './_groupings.ts'
export type { BenchDef, PlanContext } from './_plan.ts'
export { plan, envCombos, pointDefinition } from './_plan.ts'
export { parseGpuList, formatGpuList, parseSizes, sizesArg, parseEnvAxis, parsePairs, allPairs } from './_lists.ts'
export { mulberry32, shuffle } from '../random/index.ts'
