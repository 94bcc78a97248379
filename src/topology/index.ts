/**
 * Topology doctor: what the machine's GPUs, PCIe paths, IOMMU groups and hypervisor say,
 * whether P2P can work, what a small peer copy should cost, and which TP groupings fit.
 */
import type { TopologyReport } from './_types.ts'

export { captureTopology } from './_capture.ts'
export type { CaptureIndex } from './_collect.ts'
export { CAPTURE_INDEX, collectTopology } from './_collect.ts'
export { adviseGroupings, rankGroupings } from './_grouping.ts'
export { judgeHypervisor } from './_hypervisor.ts'
export { BANDS, deriveLink, expectedBand, pairCost } from './_pairs.ts'
export { noGpuLine, renderTopology } from './_render.ts'
export type {
  CollectOptions,
  Finding,
  Grouping,
  HypervisorInfo,
  LatencyBand,
  P2PCapability,
  P2PStatus,
  TopoBridge,
  TopoGpu,
  TopologyReport,
  TopoPair,
  TopoSource,
} from './_types.ts'
export type { Rule, RuleContext } from './rules/_rule.ts'
export { RULES, runRules } from './rules/_rules.ts'

/** The link class nvidia-smi prints for GPUs a and b (e.g. NODE, SYS, PIX, NV18), if known. */
export function pairLinkClass(report: TopologyReport, a: number, b: number): string | undefined {
  return report.pairs.find((p) => (p.a === a && p.b === b) || (p.a === b && p.b === a))?.link
}
