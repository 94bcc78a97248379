import { nativeInstrument } from './_native.ts'
import { simInstrument } from './_sim.ts'
import type { Instrument } from './_types.ts'
import { ncclTestsInstrument, nvbandwidthInstrument, p2pInstrument } from './_upstream.ts'

/**
 * Every instrument a sweep can use, in one explicit list (no discovery). Add one by
 * adding its file and one line here.
 */
export const INSTRUMENTS: readonly Instrument[] = [
  nativeInstrument,
  simInstrument,
  ncclTestsInstrument,
  p2pInstrument,
  nvbandwidthInstrument,
]
