/**
 * The report's fleet section for a cluster sweep: the outliers named with how much and the
 * likely mechanism, the node × node heatmap of pairwise network bandwidth, and the scaling
 * pattern against NCCL's model (the same lines and table as `analyze`'s text).
 */
import type { Fleet } from '../../analysis/index.ts'
import { fleetHeading, launchLines, outlierLines, scalingTable } from '../../analysis/index.ts'
import type { ChartContext } from '../charts/index.ts'
import { NODE_HEATMAP_CAPTION, nodeHeatmapChart } from '../charts/index.ts'
import type { Section } from './_html.ts'
import { html, list, paragraphs, table } from './_html.ts'

/** The section (heading, outliers, scaling table, notes) and its heatmap. */
export function fleetSection(f: Fleet, ctx: ChartContext): Section {
  const t = scalingTable(f)
  const launches = launchLines(f)
  const body = html`${paragraphs([fleetHeading(f)])}${launches.length ? list(launches) : ''}<h3>Outliers</h3>${list(outlierLines(f))}${
    t.rows.length
      ? html`<h3>Scaling: all_reduce against NCCL's model</h3>${paragraphs([
          'gap = measured / model − 1; busbw at the largest size against the Ring (Simple) model, ' +
            'the smallest-size time against the Ring and Tree LL models (NCCL picks the faster).',
        ])}${table(t.header, t.rows)}`
      : ''
  }${f.notes.length ? list(f.notes) : ''}`
  const charts = f.pairs.length
    ? [
        {
          id: 'node-heatmap',
          title: 'Node pairs: network bandwidth',
          caption: NODE_HEATMAP_CAPTION,
          spec: nodeHeatmapChart(
            f.pairs,
            f.launches ? 'busbw of imported two-host runs' : 'sendrecv between nodes',
            ctx,
          ),
        },
      ]
    : []
  return { id: 'fleet', title: 'Fleet: nodes and links against their peers', body, charts }
}
