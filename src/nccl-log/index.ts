/**
 * NCCL's own account of a run, read from its NCCL_DEBUG=INFO lines (transports, channels,
 * algorithm and protocol, acknowledged env settings, version), and the check that an env
 * setting a sweep varied had any effect.
 */

export type { NcclAccount } from './_account.ts'
export { mergeAccounts, NcclInfoCollector } from './_account.ts'
export type { NoEffectFlag, PointEvidence } from './_noeffect.ts'
export { findNoEffect, TIMING_MAX_SPREAD, TIMING_TOLERANCE } from './_noeffect.ts'
