import type { ChartKind } from './_types.ts'

/** The pair heatmaps of the floors. */
export const heatmapKind: ChartKind = {
  id: 'heatmap',
  describe: 'pair heatmap',
  async build(set, ctx) {
    const { analyze } = await import('../../../analysis/index.ts')
    const { heatmapCharts } = await import('../../charts/index.ts')
    return heatmapCharts(await analyze(set), ctx)
  },
}
