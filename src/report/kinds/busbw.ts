import type { ChartKind } from './_types.ts'

/** Bus bandwidth vs size per collective and grouping (nccl-tests' main figure). */
export const busbwKind: ChartKind = {
  id: 'busbw',
  describe: 'bus bandwidth vs size (collectives)',
  async build(set, ctx) {
    const { busbwCharts } = await import('../../plot/index.ts')
    return busbwCharts(set.rows, ctx)
  },
}
