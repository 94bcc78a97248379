import { join } from 'node:path'
import { NATIVE_COLLECTIVES } from '../collectives/index.ts'
import type { BenchDef, Point, SweepSpec } from '../sweep/index.ts'
import { geometricFlags, p2pPairsArg, p2pSizeFlags } from './_sizes.ts'
import type { Instrument, InstrumentContext, Invocation, LaunchShape } from './_types.ts'

/** Where a dry run shows the native binaries when they are not built yet. */
export const NATIVE_PLACEHOLDER = '<native-build>'

const dirOf = (ctx: InstrumentContext): string => ctx.spec.paths.nativeDir ?? NATIVE_PLACEHOLDER
const safe = (s: string): string => s.replace(/[^\w.=~,+-]/g, '_')

/**
 * gpucomm's own CUDA benches (native/README.md): p2p_bench measures every requested pair
 * (latency up to 1 MiB, uni- and bidirectional bandwidth from 64 KiB, over the sweep's sizes;
 * CE and SM copies, P2P on and off) in one run over the visible GPUs; coll_bench runs NCCL collectives, one process per group
 * under the local launcher (-g N) or one rank per GPU under mpirun/srun (with a
 * --bootstrap directory inside the result set, fresh per launch).
 */
export const nativeInstrument: Instrument = {
  id: 'native',
  description: "gpucomm's native CUDA benches (p2p_bench, coll_bench; built by gpucomm build)",
  simulated: false,
  deviceIds: 'visible',
  benches(spec: SweepSpec): BenchDef[] {
    const out: BenchDef[] = []
    if (spec.pairs !== 'none')
      out.push({ instrument: 'native', bench: 'native.p2p', kind: 'pairs', pairMode: 'matrix' })
    for (const c of spec.collectives)
      out.push({ instrument: 'native', bench: `nccl.${c}`, kind: 'collective', collective: c })
    return out
  },
  unavailable(ctx, exists) {
    const bad = ctx.spec.collectives.find((c) => !NATIVE_COLLECTIVES.includes(c))
    if (bad) return `native: coll_bench has no collective "${bad}" (it runs ${NATIVE_COLLECTIVES.join(', ')})`
    const dir = ctx.spec.paths.nativeDir
    if (!dir) return undefined // built on demand (or shown as a placeholder in a dry run)
    const missing = ['p2p_bench', 'coll_bench'].map((b) => join(dir, b)).filter((p) => !exists(p))
    return missing.length ? `native: ${missing.join(', ')} not found (run gpucomm build)` : undefined
  },
  command(point: Point, shape: LaunchShape, ctx: InstrumentContext, attempt: number): Invocation {
    const s = ctx.spec
    const common = ['-n', String(s.iters), '-w', String(s.warmup), '-c', '1']
    if (point.kind === 'pairs') {
      return {
        argv: [
          join(dirOf(ctx), 'p2p_bench'),
          '--pairs',
          p2pPairsArg(point, shape),
          ...p2pSizeFlags(point.sizes),
          ...common,
        ],
        env: {},
      }
    }
    const argv = [
      join(dirOf(ctx), 'coll_bench'),
      '--coll',
      point.collective ?? 'all_reduce',
      ...geometricFlags(point.sizes),
      ...common,
    ]
    const perProc = Math.max(1, Math.round(shape.gpus.length / shape.procs))
    argv.push('-g', String(perProc))
    if (shape.procs > 1) {
      const dir = join(
        ctx.scratchDir ?? '.',
        'raw',
        safe(point.id),
        `a${attempt}-g${safe(shape.gpus.join(','))}.bootstrap`,
      )
      argv.push('--bootstrap', dir)
    }
    return { argv, env: { ...point.env } }
  },
  parser: () => 'native',
  identity: (ctx) => ({ name: 'native', paths: [join(dirOf(ctx), 'p2p_bench'), join(dirOf(ctx), 'coll_bench')] }),
}
