import type { ChartKind } from './_types.ts'

/** The node × node heatmap of a cluster sweep's pairwise bandwidth. */
export const nodeHeatmapKind: ChartKind = {
  id: 'node-heatmap',
  describe: 'node × node pairwise bandwidth of a cluster sweep',
  async build(set, ctx) {
    const { analyze } = await import('../../../analysis/index.ts')
    const { NODE_HEATMAP_CAPTION, nodeHeatmapChart } = await import('../../charts/index.ts')
    const fleet = (await analyze(set, { cells: false })).fleet
    if (!fleet || fleet.pairs.length === 0) return []
    return [
      {
        name: 'node-heatmap',
        kind: 'node-heatmap',
        title: 'Node pairs: network bandwidth',
        caption: NODE_HEATMAP_CAPTION,
        spec: nodeHeatmapChart(fleet.pairs, 'sendrecv between nodes', ctx),
      },
    ]
  },
}
