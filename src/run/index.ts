/**
 * The sweep driver: plan → launch (watchdog, retries, process groups) → raw/ → parse →
 * rows appended after every point → outcomes and provenance in the manifest; resume,
 * lock, SIGINT, NCCL's own account of each point, and the `gpucomm sweep` flow.
 */

export type { AttemptStatus } from './_classify.ts'
export { classifyLaunch, enrichRow } from './_classify.ts'
export type { SweepIo, SweepOutcome, SweepRequest } from './_command.ts'
export { sweepCommand } from './_command.ts'
export { DEFAULT_PRESETS, defaultOutDir, defaultSpecInput, readPreset } from './_defaults.ts'
export { describePlan, pointCommands, shellQuote } from './_describe.ts'
export type { ProgressEvent, SweepOptions, SweepResult } from './_driver.ts'
export { runSweep } from './_driver.ts'
export type { ExecRequest, ExecResult } from './_exec.ts'
export { execWatched } from './_exec.ts'
export type { SweepExtra } from './_extra.ts'
export { SWEEP_EXTRA, storedSpec, sweepExtra } from './_extra.ts'
export { acquireLock, LOCK_FILE, lockHolder } from './_lock.ts'
export type { NcclAccount } from './_nccl_info.ts'
export { mergeAccounts, NcclInfoCollector } from './_nccl_info.ts'
export type { NoEffectFlag, PointEvidence } from './_noeffect.ts'
export { findNoEffect, TIMING_MAX_SPREAD, TIMING_TOLERANCE } from './_noeffect.ts'
export type { LaunchRecord } from './_point.ts'
export { clock, progressLine } from './_progress.ts'
export type { GpuQuery } from './_provenance.ts'
export { hostFacts, instrumentHash, ncclCudaEnv, queryGpus } from './_provenance.ts'
export type { Prepared, SweepDeps } from './_setup.ts'
export { defaultDeps, prepare } from './_setup.ts'
export { outcomeCounts, summarizeSweep } from './_summary.ts'
