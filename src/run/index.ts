/**
 * The sweep driver: plan → launch (watchdog, retries, process groups) → raw/ → parse →
 * rows appended after every point → outcomes and provenance in the manifest; resume,
 * lock, SIGINT, NCCL's own account of each point, and the `gpucomm sweep` flow.
 */
export { runSweep } from './_driver.ts'
export type { SweepOptions, SweepResult, ProgressEvent } from './_driver.ts'
export { sweepCommand } from './_command.ts'
export type { SweepRequest, SweepIo, SweepOutcome } from './_command.ts'
export { defaultDeps, prepare } from './_setup.ts'
export type { SweepDeps, Prepared } from './_setup.ts'
export { describePlan, pointCommands, shellQuote } from './_describe.ts'
export { defaultSpecInput, defaultOutDir, readPreset, DEFAULT_PRESETS } from './_defaults.ts'
export { summarizeSweep, outcomeCounts } from './_summary.ts'
export { progressLine, clock } from './_progress.ts'
export { NcclInfoCollector, mergeAccounts } from './_nccl_info.ts'
export type { NcclAccount } from './_nccl_info.ts'
export { findNoEffect, TIMING_TOLERANCE, TIMING_MAX_SPREAD } from './_noeffect.ts'
export type { NoEffectFlag, PointEvidence } from './_noeffect.ts'
export { enrichRow, classifyLaunch } from './_classify.ts'
export type { AttemptStatus } from './_classify.ts'
export { execWatched } from './_exec.ts'
export type { ExecRequest, ExecResult } from './_exec.ts'
export { acquireLock, lockHolder, LOCK_FILE } from './_lock.ts'
export { queryGpus, hostFacts, instrumentHash, ncclCudaEnv } from './_provenance.ts'
export type { GpuQuery } from './_provenance.ts'
export { SWEEP_EXTRA, sweepExtra, storedSpec } from './_extra.ts'
export type { SweepExtra } from './_extra.ts'
export type { LaunchRecord } from './_point.ts'
