/**
 * The fleet analysis in words and tables, for `analyze`'s text and the report: one line per
 * outlier (kind, node or link, metric, by how much, mechanism), the scaling points against
 * NCCL's model, and the notes. Pure.
 */
import { formatRate, formatSeconds } from '../units/index.ts'
import type { Fleet, FleetOutlier } from './_fleet.ts'

const pct = (x: number): string => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %`

/** One outlier as a sentence. */
export function outlierLine(o: FleetOutlier): string {
  const what = o.kind === 'node' ? `node ${o.hosts[0]}` : `link ${o.hosts.join('–')}`
  const v = o.metric.includes('latency') ? formatSeconds : formatRate
  return `${what}: ${o.metric} ${v(o.value)} against the fleet's ${v(o.fleetMedian)} (${pct(o.delta)}); ${o.mechanism}`
}

/** The header and rows of the scaling table (empty without a scaling pattern). */
export function scalingTable(f: Fleet): { header: string[]; rows: string[][] } {
  return {
    header: [
      'nodes',
      'busbw',
      'model busbw',
      'gap',
      'time (small)',
      'Ring model',
      'gap',
      'Tree model',
      'gap',
      'NCCL picks',
    ],
    rows: f.scaling.map((s) => [
      `${s.nodes} × ${s.gpusPerNode} GPUs`,
      formatRate(s.busbwBps),
      formatRate(s.model.busbwBps),
      pct(s.gap.busbw),
      formatSeconds(s.latencyS),
      formatSeconds(s.model.ringS),
      pct(s.gap.ring),
      formatSeconds(s.model.treeS),
      pct(s.gap.tree),
      s.model.algorithm,
    ]),
  }
}

/** The heading line of the fleet part. */
export const fleetHeading = (f: Fleet): string =>
  `Fleet: ${f.nodes.length} nodes (${f.nodes[0]}…${f.nodes[f.nodes.length - 1]}), ${f.pairs.length} node pairs measured`

/** The outlier lines, or the one line that says there are none. */
export const outlierLines = (f: Fleet): string[] =>
  f.outliers.length
    ? f.outliers.map(outlierLine)
    : ['no node or link is an outlier: every one within the fleet (median, MAD, Mann-Whitney as diff)']
