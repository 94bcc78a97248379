import type { Options } from 'yargs'
import { kebab } from '../_argv.ts'
import { defineCommand } from '../_types.ts'

// The flags in groups, in the order --help lists them.
/** What is compared, and the decode-step model: a preset and its overrides. */
const MODEL_OPTIONS: Record<string, Options> = {
  by: {
    type: 'string',
    default: 'grouping',
    describe: 'axis to compare: grouping, p2p, placement, env.NAME, host-axis (or host-axis.NAME), … (any row field)',
  },
  model: { type: 'string', describe: 'decode model preset (glm-5)' },
  layers: { type: 'number', describe: 'override the preset: transformer layers' },
  hidden: { type: 'number', describe: 'override the preset: hidden size' },
  'dtype-bytes': { type: 'number', describe: 'override the preset: bytes per activation element' },
  batch: { type: 'number', describe: 'override the preset: concurrent sequences (tokens per step)' },
  'allreduces-per-layer': { type: 'number', describe: 'override the preset: all-reduces per layer' },
  'observed-tps': {
    type: 'number',
    describe:
      'tokens/s observed in serving at --batch: how much of the step is communication, what each option can gain',
  },
}

/** The decision model's inputs. */
const DECISION_OPTIONS: Record<string, Options> = {
  context: { type: 'number', describe: 'decision model: tokens of context per sequence (default 1000)' },
  dcp: { type: 'number', describe: 'decision model: decode context parallel size (default 1)' },
  mtp: {
    type: 'number',
    describe:
      'decision model: MTP/speculative decoding on, N accepted tokens per step per sequence (GLM-5 published: 2.19–2.80)',
  },
  'mtp-drafts': {
    type: 'number',
    describe: 'decision model: draft tokens the verify pass runs per sequence with --mtp (default 4)',
  },
  gpu: {
    type: 'string',
    describe: 'decision model: GPU when the set does not name it (rtx-pro-6000, h100-sxm, …)',
  },
}

/** How groups are pooled, and how the comparison is printed. */
const OUTPUT_OPTIONS: Record<string, Options> = {
  pool: {
    type: 'boolean',
    default: false,
    describe:
      'per trial, the median of the pooled values of concurrent groups (TP4: two groups) instead of the slowest group',
  },
  format: {
    choices: ['text', 'md', 'csv', 'json'] as const,
    default: 'text' as const,
    describe: 'output format',
  },
  all: {
    type: 'boolean',
    default: false,
    describe: 'text: every size after the answer (median, 95 % CI, n, ratio, winner, p)',
  },
  json: {
    type: 'boolean',
    default: false,
    describe: 'print the Comparison object as JSON (= --format json)',
  },
}

/** `gpucomm compare DIR --by grouping [--model glm-5]`: TP8 vs TP4 per size, and the decode model. */
export const compareCommand = defineCommand({
  command: 'compare <dir>',
  describe: 'Compare groupings (or any axis) per size: median ± CI, ratio, winner; --model adds the decode-step model',
  builder: (y) =>
    y
      .positional('dir', { type: 'string', describe: 'result-set directory' })
      .options({ ...MODEL_OPTIONS, ...DECISION_OPTIONS, ...OUTPUT_OPTIONS })
      .example('gpucomm compare results/box1 --by grouping --model glm-5', 'TP8 vs TP4 and the GLM-5 decode step')
      .example(
        'gpucomm compare results/vm --model glm-5 --batch 64 --observed-tps 485',
        'the options ranked, and how much of the observed step is communication',
      ),
  run: async (args, io) => {
    const { compare, comparisonAnswerText, comparisonCsv, comparisonMarkdown, resolveModel, MODEL_PRESETS } =
      await import('../../analysis/index.ts')
    const { badInput } = await import('../../errors/index.ts')
    const overrides = {
      layers: args.layers,
      hidden: args.hidden,
      dtypeBytes: args.dtypeBytes,
      batch: args.batch,
      allreducesPerLayer: args.allreducesPerLayer,
    } as Record<string, number | undefined>
    // Layers, widths, bytes per element, batch and all-reduces are counts: whole numbers.
    for (const [k, v] of Object.entries(overrides))
      if (v !== undefined && !(Number.isInteger(v) && v > 0))
        throw badInput(`--${kebab(k)}: expected a whole number ≥ 1, got ${String(v)}`)
    const wantModel = args.model !== undefined || Object.values(overrides).some((v) => v !== undefined)
    const id = (args.model as string | undefined) ?? 'glm-5'
    const model = wantModel ? resolveModel(id, overrides) : undefined
    if (wantModel && !model)
      throw badInput(`--model ${id}: no such preset (known: ${Object.keys(MODEL_PRESETS).join(', ')})`)
    for (const k of ['observedTps', 'context', 'dcp'] as const) {
      const v = args[k] as number | undefined
      if (v !== undefined && !(Number.isFinite(v) && v > 0))
        throw badInput(`--${k === 'observedTps' ? 'observed-tps' : k}: expected a positive number, got ${String(v)}`)
    }
    const mtp = mtpArgs(args.mtp as number | undefined, args.mtpDrafts as number | undefined)
    if (typeof mtp === 'string') throw badInput(mtp)
    const { loadSamples } = await import('../../resultset/index.ts')
    const set = await loadSamples(args.dir as string)
    const c = await compare(set, { by: args.by as string, model, pool: args.pool as boolean })
    const d = model ? await decisionFor(set, model.id, model.batch, args) : undefined
    const format = args.json ? 'json' : (args.format as 'text' | 'md' | 'csv' | 'json')
    if (format === 'json') io.stdout(`${JSON.stringify(d ? { ...c, ...d } : c, null, 2)}\n`)
    else if (format === 'md') io.stdout(comparisonMarkdown(c))
    else if (format === 'csv') io.stdout(comparisonCsv(c))
    else {
      const { renderDecision } = await import('../../decision/index.ts')
      const tail = d?.decision
        ? `\n${renderDecision(d.decision)}`
        : d?.decisionNote
          ? `\nDecision: ${d.decisionNote}\n`
          : ''
      // The answer first; every size with --all.
      io.stdout(comparisonAnswerText(c, args.all as boolean) + tail)
    }
    return 0
  },
})

/**
 * The decision model for a set, when the model has a step preset (undefined otherwise); a note
 * instead of it when the set names no GPU the table knows and --gpu is absent.
 */
async function decisionFor(
  set: import('../../resultset/index.ts').ReadSet,
  id: string,
  batch: number,
  args: Record<string, unknown>,
): Promise<{ decision?: import('../../decision/index.ts').Decision; decisionNote?: string } | undefined> {
  const { decide, gpuById, GPUS, stepModelById } = await import('../../decision/index.ts')
  const { loadTopology } = await import('../../analysis/index.ts')
  const { badInput } = await import('../../errors/index.ts')
  const m = stepModelById(id)
  if (!m) return undefined
  const gpu = args.gpu as string | undefined
  if (gpu !== undefined && !gpuById(gpu))
    throw badInput(`--gpu ${gpu}: not in the table (known: ${GPUS.map((g) => g.id).join(', ')})`)
  try {
    const decision = decide(set, {
      model: m,
      batch,
      context: args.context as number | undefined,
      dcp: args.dcp as number | undefined,
      gpu,
      observedTps: args.observedTps as number | undefined,
      ...(args.mtp !== undefined
        ? { mtp: { accepted: args.mtp as number, drafts: args.mtpDrafts as number | undefined } }
        : {}),
      topology: (await loadTopology(set.dir, set.manifest)).view,
    })
    return { decision }
  } catch (e) {
    return { decisionNote: `${(e as Error).message}; name the GPU with --gpu (${GPUS.map((g) => g.id).join(', ')})` }
  }
}

/** --mtp and --mtp-drafts checked: a one-line problem, or nothing wrong. */
function mtpArgs(accepted: number | undefined, drafts: number | undefined): string | null {
  if (drafts !== undefined && accepted === undefined) return '--mtp-drafts: needs --mtp (accepted tokens per step)'
  if (accepted === undefined) return null
  if (!(Number.isFinite(accepted) && accepted >= 1))
    return `--mtp: expected accepted tokens per step ≥ 1, got ${String(accepted)}`
  const d = drafts ?? 4
  if (!(Number.isInteger(d) && d >= 2)) return `--mtp-drafts: expected a whole number ≥ 2, got ${String(drafts)}`
  if (accepted > d) return `--mtp ${accepted}: more accepted tokens than the ${d} draft tokens a step verifies`
  return null
}
