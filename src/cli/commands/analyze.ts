import { defineCommand } from '../_types.ts'

/** `gpucomm analyze DIR`: α–β fits, floors placed among the expectation bands, verdicts. */
export const analyzeCommand = defineCommand({
  command: 'analyze <dir>',
  describe: 'Fit α–β per pair and group, place each floor among published bands, and say why',
  builder: (y) =>
    y
      .positional('dir', { type: 'string', describe: 'result-set directory' })
      .option('json', {
        type: 'boolean',
        default: false,
        describe: 'print the Analysis object as JSON (fits, cells, verdicts, …)',
      })
      .option('cells', {
        type: 'boolean',
        default: true,
        describe: 'include per-cell statistics in --json (--no-cells leaves them out)',
      })
      .option('all', {
        type: 'boolean',
        default: false,
        describe: 'after the answer and the grouped fits, print every fit with its CI and segments',
      })
      .option('seed', { type: 'number', default: 1, describe: 'seed of the bootstrap intervals' })
      .example('gpucomm analyze results/box1', 'floors, verdicts and link classes of a result set'),
  run: async (args, io) => {
    const { analyze, analysisAnswerText } = await import('../../analysis/index.ts')
    const a = await analyze(args.dir as string, { seed: args.seed as number, cells: args.cells as boolean })
    io.stdout(args.json ? `${JSON.stringify(a, null, 2)}\n` : analysisAnswerText(a, args.all as boolean))
    return 0
  },
})
