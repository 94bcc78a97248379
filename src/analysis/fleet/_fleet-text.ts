/**
 * The fleet analysis in words and tables, for `analyze`'s text and the report: one line per
 * outlier (kind, node or link, metric, by how much, mechanism), the scaling points against
 * NCCL's model, and the notes. Pure.
 */
import { formatRate, formatSeconds } from '../../units/index.ts'
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
export function fleetHeading(f: Fleet): string {
  const span = `${f.nodes[0]}…${f.nodes[f.nodes.length - 1]}`
  if (!f.launches) return `Fleet: ${f.nodes.length} nodes (${span}), ${f.pairs.length} node pairs measured`
  const hosts = Math.max(f.nodes.length, ...f.launches.map((l) => l.hosts))
  const named = hosts > f.nodes.length ? `${f.nodes.length} named: ${span}` : span
  return (
    `Fleet (imported runs): ${hosts} hosts (${f.nodes.length ? named : 'none named'}), ` +
    `${f.launches.length} multi-host launch(es), ${f.pairs.length} node pairs measured`
  )
}

/** One line per imported launch: where it ran and its figures. */
export const launchLines = (f: Fleet): string[] =>
  (f.launches ?? []).map(
    (l) =>
      `${l.bench}, ${l.ranks ?? '?'} ranks over ${l.hosts} hosts: ` +
      `${l.busbwBps !== undefined ? `busbw ${formatRate(l.busbwBps)} at the largest sizes` : 'no busbw'}, ` +
      `${l.latencyS !== undefined ? `time ${formatSeconds(l.latencyS)} at the smallest` : 'no time'}`,
  )

/** The outlier lines, or the one line that says there are none (and why, when nothing could be compared). */
export function outlierLines(f: Fleet): string[] {
  if (f.outliers.length) return f.outliers.map(outlierLine)
  if (f.launches && f.pairs.length < 3)
    return [
      'none found: nothing to compare with (no single-host runs, fewer than 3 two-host runs); the notes say ' +
        'what the file cannot tell apart',
    ]
  return ['no node or link is an outlier: every one within the fleet (median, MAD, Mann-Whitney as diff)']
}
