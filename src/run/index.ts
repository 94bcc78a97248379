/**
 * The sweep driver: plan → launch each point (through an injectable Executor) → raw/ →
 * parse → rows appended after every point → outcomes and provenance in the manifest;
 * resume of an interrupted set. Process control lives in exec/, NCCL's own account in
 * nccl-log/, adaptive repetition in adaptive/, the sweep's text in output/text/, and the
 * `gpucomm sweep` flow in cli/.
 */

export type { ProgressEvent } from '../sweep/index.ts'
export type { AttemptStatus } from './_classify.ts'
export { classifyLaunch, enrichRow } from './_classify.ts'
export { describePlan, pointCommands, shellQuote } from './_describe.ts'
export type { SweepOptions, SweepResult } from './_driver.ts'
export { runSweep } from './_driver.ts'
export type { LaunchRecord } from './_point.ts'
export type { Prepared, SweepDeps } from './_prepare.ts'
export { defaultDeps, prepare } from './_prepare.ts'
export type { GpuQuery } from './_provenance.ts'
export { hostFacts, instrumentHash, ncclCudaEnv, queryGpus } from './_provenance.ts'
export type { SweepExtra } from './_record.ts'
export { SWEEP_EXTRA, storedSpec, sweepExtra } from './_record.ts'
export type { ResumeState } from './_resume.ts'
export { prepareResume } from './_resume.ts'
