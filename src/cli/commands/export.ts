import { defineCommand } from '../_types.ts'

/** `gpucomm export DIR --format jsonl|csv`: rows for other tools. */
export const exportCommand = defineCommand({
  command: 'export <dir>',
  describe: 'Print the rows of a result set as JSON lines or CSV',
  builder: (y) =>
    y
      .positional('dir', { type: 'string', describe: 'result-set directory' })
      .option('format', { choices: ['jsonl', 'csv'] as const, default: 'jsonl' as const, describe: 'output format' })
      .example('gpucomm export results/box1 --format csv > box1.csv', 'CSV with time_us, busbw_GBps, … columns'),
  run: async (args, io) => {
    const { loadSet } = await import('../../resultset/index.ts')
    const { rowsToCsv, rowsToJsonl } = await import('../../present/index.ts')
    const set = await loadSet(args.dir as string)
    const sim = set.manifest.simulated === true
    io.stdout(args.format === 'csv' ? rowsToCsv(set.rows, sim) : rowsToJsonl(set.rows, sim))
    return 0 // corrupt lines: one warning per file from main (the rule of every command reading a set)
  },
})
