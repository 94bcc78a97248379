import { badInput } from '../../../errors/index.ts'
import type { ChartKind } from './_types.ts'

/** The set against a baseline set, cell by cell. */
export const diffKind: ChartKind = {
  id: 'diff',
  describe: 'diff against --baseline',
  async build(set, ctx, opts) {
    if (!opts.baseline) throw badInput('plot --kind diff needs --baseline DIR (the set to compare against)')
    const { diffSets } = await import('../../../diff/index.ts')
    const { loadSamples } = await import('../../../resultset/index.ts')
    const { diffCharts } = await import('../../charts/index.ts')
    const base = await loadSamples(opts.baseline)
    const d = diffSets(base, set, { allowSim: opts.allowSim })
    const { linkClassesOf } = await import('../_plot.ts')
    return diffCharts(
      d,
      { ...ctx, simulated: ctx.simulated || base.manifest.simulated },
      await linkClassesOf(base, set),
    )
  },
}
