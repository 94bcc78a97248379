import type { ChartKind } from './_types.ts'

/** Medians per grouping and size, with their CIs. */
export const groupsKind: ChartKind = {
  id: 'groups',
  describe: 'grouping comparison',
  async build(set, ctx) {
    const { compare } = await import('../../../analysis/index.ts')
    const { groupsCharts } = await import('../../charts/index.ts')
    return groupsCharts(await compare(set, { by: 'grouping' }), ctx)
  },
}
