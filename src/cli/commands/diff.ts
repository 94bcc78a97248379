import type { Options } from 'yargs'
import { defineCommand } from '../_types.ts'

const METRICS = ['time', 'latency', 'bandwidth', 'algbw', 'busbw'] as const

// The flags in groups, in the order --help lists them.
/** The test: output format, significance level, metrics, and the regression gate. */
const TEST_OPTIONS: Record<string, Options> = {
  format: {
    choices: ['text', 'md', 'csv', 'json'] as const,
    default: 'text' as const,
    describe: 'output format',
  },
  alpha: { type: 'number', default: 0.05, describe: 'significance level of the U test' },
  metric: {
    type: 'string',
    describe:
      'metrics to test, comma-separated (time, latency, bandwidth, algbw, busbw); default the ' +
      'primary one of each bench: time, latency, bandwidth',
  },
  'fail-on-regression': {
    type: 'number',
    describe:
      'exit 1 when the data show a regression (slower, or lower bandwidth) larger than this many ' +
      'percent: a cell fails when the one-sided confidence bound of its change over launches lies ' +
      'beyond PCT after the Benjamini–Hochberg false-discovery-rate control at --alpha; or when B has data errors',
  },
  fdr: {
    type: 'boolean',
    default: true,
    describe:
      'gate with the Benjamini–Hochberg control over all tested cells (--no-fdr: each cell at its own one-sided 1 − alpha)',
  },
}

/** Projections (benchstat's -filter, -row, -col, -ignore): which cells, and how they are laid out. */
const PROJECTION_OPTIONS: Record<string, Options> = {
  filter: {
    type: 'string',
    array: true,
    describe:
      'keep only cells matching KEY:VALUE terms, all of them (size:<=1KiB, bench:p2p.*, ' +
      '-p2p:disabled, pair:0-1, copy:ce,sm)',
  },
  row: { type: 'string', array: true, describe: 'keys that form the rows, in order (e.g. pair,size)' },
  col: {
    type: 'string',
    array: true,
    describe: 'keys that form the columns (e.g. size): A → B delta per value',
  },
  ignore: {
    type: 'string',
    array: true,
    describe: 'pool cells that differ only in these keys (e.g. pair: one cell per size over all pairs)',
  },
  all: {
    type: 'boolean',
    default: false,
    describe: 'after the answer and the grouped cells, print every cell (text and md)',
  },
  'allow-sim': {
    type: 'boolean',
    default: false,
    describe: 'allow comparing a SIMULATED set with a real one',
  },
}

/** `--metric a,b` as a list of metrics, or the first unknown name. */
function parseMetrics(v: string): { list: (typeof METRICS)[number][] } | { bad: string } {
  const list = v.split(',').map((x) => x.trim())
  const bad = list.find((m) => !(METRICS as readonly string[]).includes(m))
  return bad !== undefined ? { bad } : { list: list as (typeof METRICS)[number][] }
}

/** `gpucomm diff A B`: benchstat-style comparison of two result sets. */
export const diffCommand = defineCommand({
  command: 'diff <a> <b>',
  describe: 'Compare result set B against A cell by cell: medians ± CI, delta, Mann-Whitney p (~ = not significant)',
  builder: (y) =>
    y
      .positional('a', { type: 'string', describe: 'base result-set directory' })
      .positional('b', { type: 'string', describe: 'result-set directory to compare against A' })
      .options({ ...TEST_OPTIONS, ...PROJECTION_OPTIONS })
      .example('gpucomm diff results/before results/after', 'what changed, and is it significant')
      .example(
        'gpucomm diff vm bare --filter "bench:p2p.latency size:<=1KiB" --col size',
        'small-copy latency per pair, sizes across',
      )
      .example(
        'gpucomm diff base head --fail-on-regression 5',
        'a CI gate: exit 1 when a slowdown over 5% is shown at 95% confidence',
      ),
  run: async (args, io) => {
    const { loadSamples } = await import('../../resultset/index.ts')
    const { diffAnswerText, diffSets, failureText, formatDiff, gate, parseFields, parseFilter, projectSet } =
      await import('../../diff/index.ts')
    const { badInput } = await import('../../errors/index.ts')
    const pct = args['fail-on-regression'] as number | undefined
    if (pct !== undefined && !(pct >= 0))
      throw badInput(`diff: --fail-on-regression needs a percentage ≥ 0, got ${String(pct)}`)
    const chosen = args.metric === undefined ? undefined : parseMetrics(args.metric as string)
    if (chosen && 'bad' in chosen)
      throw badInput(`diff: --metric ${chosen.bad}: unknown metric (known: ${METRICS.join(', ')})`)
    const metrics = chosen?.list
    const list = (name: string): string[] => (args[name] as string[] | undefined) ?? []
    const filters = list('filter')
    const set = {
      ignore: parseFields('--ignore', list('ignore')),
      ...(filters.length ? { filter: parseFilter(filters.join(' ')) } : {}),
    }
    const table = { row: parseFields('--row', list('row')), col: parseFields('--col', list('col')) }
    // Rows replayed from 12 bytes each (loadSamples): memory holds the cells' values, not the rows.
    const rawA = await loadSamples(args.a as string)
    const rawB = await loadSamples(args.b as string)
    const a = projectSet(rawA, set)
    const b = projectSet(rawB, set)
    const opts = { alpha: args.alpha as number, allowSim: args['allow-sim'] as boolean, metrics }
    const result = diffSets(a, b, opts)
    if (args.format === 'text') {
      // Pairs grouped by link class where each set's topology capture names it.
      const { loadTopology } = await import('../../analysis/index.ts')
      const viewA = (await loadTopology(args.a as string, rawA.manifest)).view
      const viewB = (await loadTopology(args.b as string, rawB.manifest)).view
      const classes = { a: viewA?.linkClass, b: viewB?.linkClass }
      io.stdout(diffAnswerText(result, table, { classes, all: args.all as boolean }))
    } else io.stdout(formatDiff(result, args.format as 'text' | 'md' | 'csv' | 'json', table))
    if (pct === undefined) return 0
    const correction = args.fdr === false ? 'none' : 'bh'
    const verdict = gate(result, pct, correction)
    const bad = verdict.failures
    const how =
      correction === 'bh'
        ? `Benjamini–Hochberg q ≤ ${result.alpha} over ${verdict.cells} tested cells`
        : `one-sided ${(1 - result.alpha) * 100} % per cell, ${verdict.cells} cells tested`
    for (const f of bad) io.stderr(`regression: ${f.cell.key}: ${failureText(f, verdict.threshold)}\n`)
    const dataErrors = result.errors.filter((e) => /: B: /.test(e))
    for (const e of dataErrors) io.stderr(`data error: ${e}\n`)
    if (bad.length > 0)
      io.stderr(`gpucomm diff: ${bad.length} cell${bad.length === 1 ? '' : 's'} shown worse by over ${pct}% (${how})\n`)
    else io.stderr(`gpucomm diff: no cell shown worse by over ${pct}% (${how})\n`)
    return bad.length > 0 || dataErrors.length > 0 ? 1 : 0
  },
})
