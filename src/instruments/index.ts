/**
 * Instrument plug-ins: pure point → command-line functions plus the parser id that reads
 * the output (the simulator, native benches, upstream nccl-tests, p2pBandwidthLatencyTest,
 * nvbandwidth).
 */
import { badInput } from '../errors/index.ts'
import { INSTRUMENTS } from './registry.ts'
import type { Instrument } from './_types.ts'

export type { Invocation, LaunchShape, InstrumentContext, InstrumentIdentity, Instrument } from './_types.ts'
export { INSTRUMENTS } from './registry.ts'
export { SIM_PRESETS } from './_sim.ts'
export { NATIVE_PLACEHOLDER, NATIVE_COLLECTIVES } from './_native.ts'
export { NVBANDWIDTH_TESTCASES } from './_upstream.ts'
export { ncclSizeFlags, geometricFlags, p2pSizeFlags } from './_sizes.ts'

/** The instrument with this id; unknown ids are bad input naming the known ones. */
export function instrumentById(id: string): Instrument {
  const i = INSTRUMENTS.find((x) => x.id === id)
  if (!i) throw badInput(`--instrument: unknown instrument "${id}" (known: ${INSTRUMENTS.map((x) => x.id).join(', ')})`)
  return i
}
