import type { ChartKind } from './_types.ts'

/** Bus bandwidth vs size per collective and grouping (nccl-tests' main figure). */
export const busbwKind: ChartKind = {
  id: 'busbw',
  describe: 'bus bandwidth vs size (collectives)',
  async build(set, ctx) {
    const { busbwChartsOf } = await import('../_plot.ts')
    return busbwChartsOf(set, ctx)
  },
}
