import { defineCommand } from '../_types.ts'

/** `gpucomm show DIR`: a compact table of a result set. */
export const showCommand = defineCommand({
  command: 'show <dir>',
  describe: 'Show a result set as a compact table (medians per bench, size, pair or ranks)',
  builder: (y) =>
    y
      .positional('dir', { type: 'string', describe: 'result-set directory' })
      .option('json', { type: 'boolean', default: false, describe: 'print the table lines as JSON' })
      .example('gpucomm show results/box1', 'summarize a result set'),
  run: async (args, io) => {
    const { loadSamples } = await import('../../resultset/index.ts')
    const { showLines, showTable } = await import('../../present/index.ts')
    // Rows replayed from 12 bytes each (loadSamples): memory holds the values, not row objects.
    const set = await loadSamples(args.dir as string)
    if (args.json) {
      io.stdout(
        JSON.stringify({ manifest: set.manifest, lines: showLines(set.rows), diagnostics: set.diagnostics }, null, 2) +
          '\n',
      )
    } else {
      const m = set.manifest
      io.stdout(`${m.simulated ? 'SIMULATED ' : ''}result set ${m.id} (${m.origin}, ${m.created}), ${set.count} rows\n`)
      io.stdout(showTable(set.rows))
    }
    return 0 // corrupt lines: one warning per file from main (the rule of every command reading a set)
  },
})
