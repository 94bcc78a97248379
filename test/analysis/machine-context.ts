import type { MachineContext } from '../../src/analysis/index.ts'

/** A machine context with only what a test gives (no topology, no NCCL account). */
export function context(over: Partial<MachineContext> = {}): MachineContext {
  return {
    linkClass: () => undefined,
    p2pStatus: () => undefined,
    peerAccess: () => undefined,
    nccl: () => undefined,
    gpusPerProcess: () => undefined,
    ...over,
  }
}
