/**
 * Expectation bands: published, measured numbers (and NCCL's own cost model) that gpucomm
 * sets beside its measurements, each with its original public source and the conditions it
 * was measured under (docs/REFERENCE.md is the same table for people, kept in step by a
 * test). Values are in base units (seconds, bytes/second); a single published value has
 * low = high, and "~x" values are marked `approximate` with low/high at ±10 %. The structured
 * conditions (`vm`, `gpuFamily`, `links`, `attach`, `transports`, `ranks`, `launch`, `env`)
 * decide which bands may be cited for a machine (see `_cite.ts`).
 */

import type { Band } from './_types.ts'
import { BANDWIDTH_BANDS } from './bands-bandwidth.ts'
import { COLLECTIVE_BANDS } from './bands-collective.ts'
import { LATENCY_BANDS } from './bands-latency.ts'

export { BANDWIDTH_BANDS } from './bands-bandwidth.ts'
export { COLLECTIVE_BANDS, NCCL_MODEL, type NcclModelKey, ncclModelBand } from './bands-collective.ts'
export { LATENCY_BANDS } from './bands-latency.ts'

/** Every static band (NCCL model bands are made per group size by `ncclModelBand`). */
export const BANDS: readonly Band[] = [...LATENCY_BANDS, ...COLLECTIVE_BANDS, ...BANDWIDTH_BANDS]

/**
 * How far past a band's edges a value still counts as inside it: 10 % of the edge. Why 10 %:
 * a published range is the min–max of a handful of runs on one machine, not a physical
 * limit; within one published p2pBandwidthLatencyTest run the small-copy latencies of one
 * link class already spread that much (8 × A100-SXM4 fixture: P2P-on pairs 2.72–3.33 µs, ±10 %
 * about their middle; the 2 × RTX 2080 Ti CANNOT pair 13.63–14.99 µs over its four cells), and
 * a "~x" source value is itself only good to about that. A band of one published value (low = high)
 * gets the same ±10 %. The measurement's own CI is used as well (see `bandDistance`).
 */
export const BAND_TOLERANCE = 0.1

/** Kept for callers of the earlier name: point bands admit the same ±BAND_TOLERANCE. */
export const POINT_TOLERANCE = BAND_TOLERANCE

/** True when `value` lies in the band widened by BAND_TOLERANCE at both edges. */
export function inBand(band: Band, value: number): boolean {
  return value >= band.low * (1 - BAND_TOLERANCE) && value <= band.high * (1 + BAND_TOLERANCE)
}
