import { defineCommand } from '../_types.ts'

/** `gpucomm show DIR`: a compact table of a result set. */
export const showCommand = defineCommand({
  command: 'show <dir>',
  describe: 'Show what a result set holds: the answer first, medians grouped by series (--all: every line)',
  builder: (y) =>
    y
      .positional('dir', { type: 'string', describe: 'result-set directory' })
      .option('json', { type: 'boolean', default: false, describe: 'print the table lines as JSON' })
      .option('all', {
        type: 'boolean',
        default: false,
        describe: 'after the answer and the grouped medians, print every line (bench, pair or group, size)',
      })
      .example('gpucomm show results/box1', 'summarize a result set'),
  run: async (args, io) => {
    const { loadSamples } = await import('../../resultset/index.ts')
    const { simPrefix } = await import('../../model/index.ts')
    const { showAnswerText, showLines } = await import('../../output/index.ts')
    // Rows replayed from 12 bytes each (loadSamples): memory holds the values, not row objects.
    const set = await loadSamples(args.dir as string)
    if (args.json) {
      io.stdout(
        JSON.stringify({ manifest: set.manifest, lines: showLines(set.rows), diagnostics: set.diagnostics }, null, 2) +
          '\n',
      )
    } else {
      const m = set.manifest
      io.stdout(`${simPrefix(m)}result set ${m.id} (${m.origin}, ${m.created}), ${set.count} rows\n`)
      io.stdout(showAnswerText(set.rows, set.count, args.all as boolean))
    }
    return 0 // corrupt lines: one warning per file from main (the rule of every command reading a set)
  },
})
