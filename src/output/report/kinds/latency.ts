import type { ChartKind } from './_types.ts'

/** Latency vs size per bench, with the α–β fits and the bands they fall in. */
export const latencyKind: ChartKind = {
  id: 'latency',
  describe: 'latency vs size',
  async build(set, ctx) {
    const { analyze } = await import('../../../analysis/index.ts')
    const { latencyCharts } = await import('../../charts/index.ts')
    return latencyCharts(set.rows, await analyze(set), ctx)
  },
}
