import { defineCommand } from '../_types.ts'

/** `gpucomm diff A B`: benchstat-style comparison of two result sets. */
export const diffCommand = defineCommand({
  command: 'diff <a> <b>',
  describe: 'Compare result set B against A cell by cell: medians ± CI, delta, Mann-Whitney p (~ = not significant)',
  builder: (y) =>
    y
      .positional('a', { type: 'string', describe: 'base result-set directory' })
      .positional('b', { type: 'string', describe: 'result-set directory to compare against A' })
      .option('format', {
        choices: ['text', 'md', 'csv', 'json'] as const,
        default: 'text' as const,
        describe: 'output format',
      })
      .option('alpha', { type: 'number', default: 0.05, describe: 'significance level of the U test' })
      .option('fail-on-regression', {
        type: 'number',
        describe: 'exit 1 when a significant regression (slower, or lower bandwidth) exceeds this many percent',
      })
      .option('allow-sim', {
        type: 'boolean',
        default: false,
        describe: 'allow comparing a SIMULATED set with a real one',
      })
      .example('gpucomm diff results/before results/after', 'what changed, and is it significant')
      .example('gpucomm diff base head --fail-on-regression 5', 'a CI gate: exit 1 on a significant slowdown over 5%'),
  run: async (args, io) => {
    const { loadSet } = await import('../../resultset/index.ts')
    const { diffSets, formatDiff, regressions, signedPct } = await import('../../diff/index.ts')
    const { badInput } = await import('../../errors/index.ts')
    const pct = args['fail-on-regression'] as number | undefined
    if (pct !== undefined && !(pct >= 0))
      throw badInput(`diff: --fail-on-regression needs a percentage ≥ 0, got ${String(pct)}`)
    const a = await loadSet(args.a as string)
    const b = await loadSet(args.b as string)
    const result = diffSets(a, b, { alpha: args.alpha as number, allowSim: args['allow-sim'] as boolean })
    io.stdout(formatDiff(result, args.format as 'text' | 'md' | 'csv' | 'json'))
    if (pct === undefined) return 0
    const bad = regressions(result, pct)
    for (const c of bad) io.stderr(`regression: ${c.key}: ${signedPct(c.delta)} (p=${c.p.toPrecision(3)})\n`)
    if (bad.length > 0)
      io.stderr(`gpucomm diff: ${bad.length} significant regression${bad.length === 1 ? '' : 's'} over ${pct}%\n`)
    return bad.length > 0 ? 1 : 0
  },
})
