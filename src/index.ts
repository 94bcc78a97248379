/**
 * gpucomm's public library API: named re-exports only (each folder adds its own lines).
 */
export { collectTopology, captureTopology, rankGroupings, adviseGroupings, pairLinkClass, renderTopology } from './topology/index.ts'
export type { TopologyReport, TopoGpu, TopoPair, TopoBridge, TopoSource, Finding, Grouping, HypervisorInfo, LatencyBand, P2PStatus, P2PCapability, CollectOptions } from './topology/index.ts'
