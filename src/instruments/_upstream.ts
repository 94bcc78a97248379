import { join } from 'node:path'
import type { BenchDef, Point, SweepSpec } from '../sweep/index.ts'
import { ncclSizeFlags } from './_sizes.ts'
import type { Instrument, InstrumentContext, Invocation, LaunchShape } from './_types.ts'

/**
 * Upstream NVIDIA/nccl-tests binaries (`<coll>_perf` in --nccl-tests-dir). One process
 * with -g N under the local launcher; one GPU per rank under mpirun/srun (needs a build
 * with MPI=1). Data checking stays on (-c 1) so corrupt results are caught.
 */
export const ncclTestsInstrument: Instrument = {
  id: 'nccl-tests',
  description: 'NVIDIA nccl-tests binaries (<coll>_perf) from --nccl-tests-dir',
  simulated: false,
  deviceIds: 'visible',
  benches: (spec: SweepSpec): BenchDef[] =>
    spec.collectives.map((c) => ({ instrument: 'nccl-tests', bench: `nccl.${c}`, kind: 'collective', collective: c })),
  unavailable(ctx, exists) {
    const dir = ctx.spec.paths.ncclTestsDir
    if (!dir) return 'nccl-tests: give --nccl-tests-dir (the build/ directory holding all_reduce_perf, …)'
    const missing = ctx.spec.collectives.map((c) => join(dir, `${c}_perf`)).filter((p) => !exists(p))
    return missing.length ? `nccl-tests: ${missing.join(', ')} not found` : undefined
  },
  command(point: Point, shape: LaunchShape, ctx: InstrumentContext): Invocation {
    const s = ctx.spec
    const bin = join(s.paths.ncclTestsDir ?? '.', `${point.collective ?? 'all_reduce'}_perf`)
    const perProc = Math.max(1, Math.round(shape.gpus.length / shape.procs))
    const argv = [
      bin,
      ...ncclSizeFlags(point.sizes),
      '-g',
      String(perProc),
      '-w',
      String(s.warmup),
      '-n',
      String(s.iters),
      '-c',
      '1',
    ]
    return { argv, env: { ...point.env } }
  },
  parser: () => 'nccl-tests-text',
  identity: (ctx) => ({
    name: 'nccl-tests',
    paths: ctx.spec.collectives.map((c) => join(ctx.spec.paths.ncclTestsDir ?? '.', `${c}_perf`)),
  }),
}

/** cuda-samples p2pBandwidthLatencyTest (--p2p-bin): one run measures every pair of the visible GPUs. */
export const p2pInstrument: Instrument = {
  id: 'p2p',
  description: 'cuda-samples p2pBandwidthLatencyTest from --p2p-bin (every pair in one run)',
  simulated: false,
  deviceIds: 'visible',
  benches: (spec) =>
    spec.pairs === 'none' ? [] : [{ instrument: 'p2p', bench: 'p2p', kind: 'pairs', pairMode: 'matrix' }],
  unavailable(ctx, exists) {
    const bin = ctx.spec.paths.p2pBin
    if (!bin) return 'p2p: give --p2p-bin (the p2pBandwidthLatencyTest binary)'
    return exists(bin) ? undefined : `p2p: ${bin} not found`
  },
  command: (_point, _shape, ctx) => ({ argv: [ctx.spec.paths.p2pBin ?? 'p2pBandwidthLatencyTest'], env: {} }),
  parser: () => 'p2pBandwidthLatencyTest',
  identity: (ctx) => ({ name: 'p2pBandwidthLatencyTest', paths: [ctx.spec.paths.p2pBin ?? ''] }),
}

/** The nvbandwidth testcases a sweep runs by default: device-to-device copy-engine reads, writes, bidirectional reads, and SM pointer-chase latency. */
export const NVBANDWIDTH_TESTCASES = [
  'device_to_device_memcpy_read_ce',
  'device_to_device_memcpy_write_ce',
  'device_to_device_bidirectional_memcpy_read_ce',
  'device_to_device_latency_sm',
] as const

/** NVIDIA nvbandwidth (--nvbandwidth-bin): each testcase is one matrix run over the visible GPUs. */
export const nvbandwidthInstrument: Instrument = {
  id: 'nvbandwidth',
  description: 'NVIDIA nvbandwidth from --nvbandwidth-bin (device-to-device testcases)',
  simulated: false,
  deviceIds: 'visible',
  benches: (spec) =>
    spec.pairs === 'none'
      ? []
      : NVBANDWIDTH_TESTCASES.map((t) => ({
          instrument: 'nvbandwidth',
          bench: `nvbw.${t}`,
          kind: 'pairs' as const,
          pairMode: 'matrix' as const,
        })),
  unavailable(ctx, exists) {
    const bin = ctx.spec.paths.nvbandwidthBin
    if (!bin) return 'nvbandwidth: give --nvbandwidth-bin'
    return exists(bin) ? undefined : `nvbandwidth: ${bin} not found`
  },
  command(point, _shape, ctx) {
    const testcase = point.bench.replace(/^nvbw\./, '')
    return {
      argv: [ctx.spec.paths.nvbandwidthBin ?? 'nvbandwidth', '-t', testcase, '-i', String(ctx.spec.iters)],
      env: {},
    }
  },
  parser: () => 'nvbandwidth',
  identity: (ctx) => ({ name: 'nvbandwidth', paths: [ctx.spec.paths.nvbandwidthBin ?? ''] }),
}
