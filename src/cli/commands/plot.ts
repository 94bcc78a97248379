import { CHART_KINDS } from '../../output/index.ts'
import { defineCommand } from '../_types.ts'

/** `gpucomm plot DIR --kind … --out OUTDIR`: charts as .vl.json, .svg and .png. */
export const plotCommand = defineCommand({
  command: 'plot <dir>',
  describe: 'Draw charts of a result set (vega-lite spec, SVG and PNG per chart)',
  builder: (y) =>
    y
      .positional('dir', { type: 'string', describe: 'result-set directory' })
      .option('kind', {
        choices: CHART_KINDS.map((k) => k.id),
        demandOption: true,
        describe: CHART_KINDS.map((k) => k.describe).join(', '),
      })
      .option('out', { alias: 'o', type: 'string', demandOption: true, describe: 'directory for the chart files' })
      .option('baseline', { type: 'string', describe: 'result set to compare against (--kind diff)' })
      .option('allow-sim', {
        type: 'boolean',
        default: false,
        describe: 'allow a diff between a simulated and a real set',
      })
      .example('gpucomm plot results/box1 --kind heatmap --out charts/', 'pair heatmaps of the floors'),
  run: async (args, io) => {
    const { plotSet } = await import('../../output/index.ts')
    const { stagesFor } = await import('../_stages.ts')
    // Progress on stderr: on a terminal, or as plain lines for a large set.
    const progress = stagesFor('plot', io, args.dir as string)
    let files: string[]
    try {
      files = await plotSet(args.dir as string, {
        kind: args.kind as string,
        out: args.out as string,
        ...(args.baseline ? { baseline: args.baseline as string } : {}),
        allowSim: args.allowSim as boolean,
        onStage: progress.stage,
      })
    } catch (e) {
      progress.stop()
      throw e
    }
    progress.done()
    for (const f of files) io.stdout(`${f}\n`)
    return 0
  },
})
