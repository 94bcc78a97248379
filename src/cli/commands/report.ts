import { defineCommand } from '../_types.ts'

/** `gpucomm report DIR [--baseline DIR2] --out FILE.html`: one self-contained HTML report. */
export const reportCommand = defineCommand({
  command: 'report <dir>',
  describe: 'Write one self-contained HTML report: topology, floors vs bands, charts, groupings, diff, provenance',
  builder: (y) =>
    y
      .positional('dir', { type: 'string', describe: 'result-set directory' })
      .option('out', { alias: 'o', type: 'string', demandOption: true, describe: 'HTML file to write' })
      .option('baseline', { type: 'string', describe: 'result set to diff against' })
      .option('model', { type: 'string', default: 'glm-5', describe: 'decode-model preset for the grouping section' })
      .option('allow-sim', {
        type: 'boolean',
        default: false,
        describe: 'allow a diff between a simulated and a real set',
      })
      .example('gpucomm report results/box1 --out box1.html', 'open box1.html in any browser, offline'),
  run: async (args, io) => {
    const { resolveModel, MODEL_PRESETS } = await import('../../analysis/index.ts')
    if (!resolveModel(args.model as string)) {
      const { badInput } = await import('../../errors/index.ts')
      throw badInput(
        `--model ${args.model as string}: no such preset (known: ${Object.keys(MODEL_PRESETS).join(', ')})`,
      )
    }
    const { writeReport } = await import('../../output/index.ts')
    const { stagesFor } = await import('../_stages.ts')
    // Progress on stderr: on a terminal, or as plain lines for a large set.
    const progress = stagesFor('report', io, args.dir as string)
    let path: string
    try {
      path = await writeReport(args.dir as string, {
        out: args.out as string,
        model: args.model as string,
        allowSim: args.allowSim as boolean,
        ...(args.baseline ? { baseline: args.baseline as string } : {}),
        onStage: progress.stage,
      })
    } catch (e) {
      progress.stop()
      throw e
    }
    progress.done()
    io.stdout(`report written to ${path}\n`)
    return 0
  },
})
