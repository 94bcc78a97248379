/**
 * Instrument plug-ins: pure point → command-line functions plus the parser id that reads
 * the output (the simulator, native benches, upstream nccl-tests, p2pBandwidthLatencyTest,
 * nvbandwidth).
 */
import { badInput } from '../errors/index.ts'
import type { Instrument } from './_types.ts'
import { INSTRUMENTS } from './registry.ts'

export { NATIVE_PLACEHOLDER } from './_native.ts'
export { geometricFlags, ncclSizeFlags, p2pSizeFlags } from './_sizes.ts'
export type { Instrument, InstrumentContext, InstrumentIdentity, Invocation, LaunchShape } from './_types.ts'
export { NVBANDWIDTH_TESTCASES } from './_upstream.ts'
export { INSTRUMENTS } from './registry.ts'

/** The instrument with this id; unknown ids are bad input naming the known ones. */
export function instrumentById(id: string): Instrument {
  const i = INSTRUMENTS.find((x) => x.id === id)
  if (!i) throw badInput(`--instrument: unknown instrument "${id}" (known: ${INSTRUMENTS.map((x) => x.id).join(', ')})`)
  return i
}
