/**
 * Topology doctor: what the machine's GPUs, PCIe paths, IOMMU groups and hypervisor say,
 * whether P2P can work, what a small peer copy should cost, and which TP groupings fit.
 */
import type { TopologyReport } from './_types.ts'

export type {
  TopologyReport,
  TopoGpu,
  TopoPair,
  TopoBridge,
  TopoSource,
  Finding,
  Grouping,
  HypervisorInfo,
  LatencyBand,
  P2PStatus,
  P2PCapability,
  CollectOptions,
} from './_types.ts'
export type { CaptureIndex } from './_collect.ts'
export type { Rule, RuleContext } from './_rules.ts'
export { collectTopology, CAPTURE_INDEX } from './_collect.ts'
export { captureTopology } from './_capture.ts'
export { rankGroupings, adviseGroupings } from './_grouping.ts'
export { RULES, runRules } from './_rules.ts'
export { BANDS, expectedBand, pairCost, deriveLink } from './_pairs.ts'
export { judgeHypervisor } from './_hypervisor.ts'
export { renderTopology, noGpuLine } from './_render.ts'

/** The link class nvidia-smi prints for GPUs a and b (e.g. NODE, SYS, PIX, NV18), if known. */
export function pairLinkClass(report: TopologyReport, a: number, b: number): string | undefined {
  return report.pairs.find((p) => (p.a === a && p.b === b) || (p.a === b && p.b === a))?.link
}
