import { defineCommand } from '../_types.ts'

/** `gpucomm compare DIR --by grouping [--model glm-5]`: TP8 vs TP4 per size, and the decode model. */
export const compareCommand = defineCommand({
  command: 'compare <dir>',
  describe: 'Compare groupings (or any axis) per size: median ± CI, ratio, winner; --model adds the decode-step model',
  builder: (y) =>
    y
      .positional('dir', { type: 'string', describe: 'result-set directory' })
      .option('by', {
        type: 'string',
        default: 'grouping',
        describe:
          'axis to compare: grouping, p2p, placement, env.NAME, host-axis (or host-axis.NAME), … (any row field)',
      })
      .option('model', { type: 'string', describe: 'decode model preset (glm-5)' })
      .option('layers', { type: 'number', describe: 'override the preset: transformer layers' })
      .option('hidden', { type: 'number', describe: 'override the preset: hidden size' })
      .option('dtype-bytes', { type: 'number', describe: 'override the preset: bytes per activation element' })
      .option('batch', { type: 'number', describe: 'override the preset: concurrent sequences (tokens per step)' })
      .option('allreduces-per-layer', { type: 'number', describe: 'override the preset: all-reduces per layer' })
      .option('pool', {
        type: 'boolean',
        default: false,
        describe:
          'pool the values of concurrent groups (TP4: two groups) instead of taking the slowest group per trial',
      })
      .option('format', {
        choices: ['text', 'md', 'csv', 'json'] as const,
        default: 'text' as const,
        describe: 'output format',
      })
      .option('json', {
        type: 'boolean',
        default: false,
        describe: 'print the Comparison object as JSON (= --format json)',
      })
      .example('gpucomm compare results/box1 --by grouping --model glm-5', 'TP8 vs TP4 and the GLM-5 decode step'),
  run: async (args, io) => {
    const { compare, comparisonCsv, comparisonMarkdown, renderComparison, resolveModel, MODEL_PRESETS } = await import(
      '../../analysis/index.ts'
    )
    const { badInput } = await import('../../errors/index.ts')
    const overrides = {
      layers: args.layers,
      hidden: args.hidden,
      dtypeBytes: args.dtypeBytes,
      batch: args.batch,
      allreducesPerLayer: args.allreducesPerLayer,
    } as Record<string, number | undefined>
    for (const [k, v] of Object.entries(overrides))
      if (v !== undefined && !(Number.isFinite(v) && v > 0))
        throw badInput(`--${k}: expected a positive number, got ${String(v)}`)
    const wantModel = args.model !== undefined || Object.values(overrides).some((v) => v !== undefined)
    const id = (args.model as string | undefined) ?? 'glm-5'
    const model = wantModel ? resolveModel(id, overrides) : undefined
    if (wantModel && !model)
      throw badInput(`--model ${id}: no such preset (known: ${Object.keys(MODEL_PRESETS).join(', ')})`)
    const c = await compare(args.dir as string, { by: args.by as string, model, pool: args.pool as boolean })
    const format = args.json ? 'json' : (args.format as 'text' | 'md' | 'csv' | 'json')
    if (format === 'json') io.stdout(`${JSON.stringify(c, null, 2)}\n`)
    else if (format === 'md') io.stdout(comparisonMarkdown(c))
    else if (format === 'csv') io.stdout(comparisonCsv(c))
    else io.stdout(renderComparison(c))
    return 0
  },
})
