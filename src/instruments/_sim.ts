import { join } from 'node:path'
import { SIMULATED_COLLECTIVES } from '../collectives/index.ts'
import { PRESETS, presetNames, simLinks } from '../sim/index.ts'
import type { BenchDef, Point, SweepSpec } from '../sweep/index.ts'
import { formatGpuList, sizesArg } from '../sweep/index.ts'
import { p2pPairsArg, p2pSizeSplit } from './_sizes.ts'
import type { Instrument, InstrumentContext, Invocation, LaunchShape } from './_types.ts'

const DEFAULT_PRESET = 'seed-vm'

/**
 * The simulator as an instrument: runs this repository's `bin/gpucomm.js sim` with the
 * node that runs gpucomm, so it prints nccl-tests text and, for pairs, the output of gpucomm's own
 * p2p_bench (every size and iteration), which the real parsers read. Its result sets are marked simulated.
 */
export const simInstrument: Instrument = {
  id: 'sim',
  description: 'the built-in simulator (gpucomm sim): nccl-tests and p2p_bench output, SIMULATED',
  simulated: true,
  deviceIds: 'visible',
  benches(spec: SweepSpec): BenchDef[] {
    const out: BenchDef[] = []
    if (spec.pairs !== 'none') out.push({ instrument: 'sim', bench: 'p2p', kind: 'pairs', pairMode: 'matrix' })
    for (const c of spec.collectives)
      out.push({ instrument: 'sim', bench: `nccl.${c}`, kind: 'collective', collective: c })
    return out
  },
  unavailable(ctx, exists) {
    const preset = ctx.spec.preset ?? DEFAULT_PRESET
    if (!presetNames().includes(preset))
      return `unknown simulator preset "${preset}" (known: ${presetNames().join(', ')})`
    // Checked here, before the set is created, not by each launch of `gpucomm sim`.
    const count = PRESETS.find((p) => p.name === preset)?.pciBus.length ?? 0
    const gone = ctx.spec.gpus.find((g) => g >= count)
    if (gone !== undefined) return `--gpus: GPU ${gone} does not exist in preset ${preset} (0-${count - 1})`
    const coll = ctx.spec.collectives.find((c) => !SIMULATED_COLLECTIVES.includes(c))
    if (coll !== undefined)
      return `--collectives: the simulator does not model ${coll} (it models ${SIMULATED_COLLECTIVES.join(', ')})`
    const bin = join(ctx.repoRoot, 'bin', 'gpucomm.js')
    return exists(bin) ? undefined : `${bin} is missing`
  },
  command(point: Point, shape: LaunchShape, ctx: InstrumentContext, attempt: number): Invocation {
    const s = ctx.spec
    const argv = [ctx.nodePath, join(ctx.repoRoot, 'bin', 'gpucomm.js'), 'sim', '--preset', s.preset ?? DEFAULT_PRESET]
    if (point.kind === 'pairs') {
      // What the main job runs on a GPU machine: p2p_bench output, every size and iteration.
      const { latency, bandwidth } = p2pSizeSplit(point.sizes)
      // CE copies only: the simulator costs SM copies the same, so they would only double the rows.
      argv.push(
        '--format',
        'p2p-bench',
        '--copy',
        'ce',
        '--p2p',
        'enabled,disabled',
        '--pairs',
        p2pPairsArg(point, shape),
      )
      argv.push(
        '--sizes',
        latency.length ? sizesArg(latency) : 'none',
        '--bw-sizes',
        bandwidth.length ? sizesArg(bandwidth) : 'none',
      )
    } else
      argv.push(
        '--format',
        'nccl-tests',
        '--collective',
        point.collective ?? 'all_reduce',
        '--sizes',
        sizesArg(point.sizes),
      )
    argv.push('--gpus', formatGpuList(shape.gpus), '--iters', String(s.iters), '--warmup', String(s.warmup))
    argv.push('--seed', String(s.seed), '--trial', String(point.trial))
    if (s.simScale !== undefined && s.simScale !== 1) argv.push('--sim-scale', String(s.simScale))
    for (const [k, v] of Object.entries(point.env)) argv.push('--env', `${k}=${v}`)
    for (const [k, v] of Object.entries(point.host ?? {})) argv.push('--host', `${k}=${v}`)
    const fault = s.faults.find(
      (f) => point.id.includes(f.match) && (f.attempts === undefined || attempt <= f.attempts),
    )
    if (fault) argv.push('--fault', fault.fault)
    return { argv, env: {} }
  },
  parser: (point) => (point.kind === 'pairs' ? 'native' : 'nccl-tests-text'),
  linkUnderLoad: (ctx, gpus) => simLinks(ctx.spec.preset ?? DEFAULT_PRESET, gpus),
  identity: (ctx) => ({
    name: 'sim',
    paths: [join(ctx.repoRoot, 'src', 'sim')],
    extra:
      `preset=${ctx.spec.preset ?? DEFAULT_PRESET} seed=${ctx.spec.seed}` +
      `${ctx.spec.simScale !== undefined && ctx.spec.simScale !== 1 ? ` scale=${ctx.spec.simScale}` : ''}`,
  }),
}
