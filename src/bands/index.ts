/**
 * Published expectation bands: measured numbers from public sources (and NCCL's own cost
 * model) with their conditions, the network fabric figures, and the tolerance a value is
 * judged with. Pure data; the simulator and the analysis both read it (docs/REFERENCE.md is
 * the same table for people).
 */

export type { Band, BandKind, BandMetric, NcclTransport } from './_types.ts'
export type { NcclModelKey } from './bands.ts'
export {
  BAND_TOLERANCE,
  BANDS,
  BANDWIDTH_BANDS,
  COLLECTIVE_BANDS,
  inBand,
  LATENCY_BANDS,
  NCCL_MODEL,
  ncclModelBand,
  POINT_TOLERANCE,
} from './bands.ts'
export type { Fabric } from './bands-network.ts'
export {
  FABRICS,
  FAULT_FACTORS,
  NCCL_TREE,
  NET_HOP,
  NICS_PER_NODE,
  ncclNetModelBands,
  networkReferenceRows,
} from './bands-network.ts'
