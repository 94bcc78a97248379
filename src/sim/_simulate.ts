/** `simulate`: options → one simulated tool output (pure; the CLI acts out hangs and crashes). */
import { badInput } from '../errors/index.ts'
import { SIM_MARKER } from '../model/index.ts'
import { renderNccl } from './_nccl.ts'
import { renderP2p } from './_p2p.ts'
import { renderP2pBench } from './_p2p-bench.ts'
import { presetByName } from './_physics.ts'
import { hash53, rngFor } from './_prng.ts'
import type { Rendered, Run } from './_run.ts'
import { simHeader } from './_run.ts'
import type { P2pPairs, SimOptions } from './_types.ts'
import { COLLECTIVES, FAULTS, FORMATS } from './_types.ts'

/** Default sizes: 8 B … 64 MiB, ×2 (the sweep's default range). */
const DEFAULT_SIZES = Array.from({ length: 24 }, (_, i) => 8 * 2 ** i)
/** p2p_bench's defaults: latency 4 B … 1 MiB ×2, bandwidth 64 KiB … 256 MiB ×4. */
const P2P_BENCH_SIZES = Array.from({ length: 19 }, (_, i) => 4 * 2 ** i)
const P2P_BENCH_BW_SIZES = Array.from({ length: 7 }, (_, i) => (64 << 10) * 4 ** i)

/** p2p-bench's pairs, checked against the GPU count (device indices). */
function resolvePairs(o: SimOptions, n: number): P2pPairs {
  const pairs = o.pairs ?? 'all'
  if (typeof pairs === 'string') return pairs
  const bad = pairs.find(([a, b]) => ![a, b].every((x) => Number.isInteger(x) && x >= 0 && x < n))
  if (bad) throw badInput(`--pairs: ${bad[0]}:${bad[1]} uses a GPU outside --gpus (0-${n - 1})`)
  return pairs
}

function positiveInt(v: number | undefined, dflt: number, flag: string, min = 0): number {
  const x = v ?? dflt
  if (!Number.isInteger(x) || x < min) throw badInput(`${flag} ${x}: expected an integer ≥ ${min}`)
  return x
}

/** Checks the options and fills in defaults. */
export function resolve(o: SimOptions): Run {
  const preset = presetByName(o.preset)
  if (!FORMATS.includes(o.format)) throw badInput(`--format ${o.format}: expected ${FORMATS.join(' or ')}`)
  const collective = o.collective ?? 'all_reduce'
  if (!COLLECTIVES.includes(collective))
    throw badInput(`--collective ${collective}: expected one of ${COLLECTIVES.join(', ')}`)
  if (o.fault !== undefined && !FAULTS.includes(o.fault))
    throw badInput(`--fault ${o.fault}: expected one of ${FAULTS.join(', ')}`)
  if (o.fault === 'corrupt' && o.format === 'p2p')
    throw badInput('--fault corrupt needs --format nccl-tests or p2p-bench (p2pBandwidthLatencyTest checks no data)')
  const gpus = o.gpus ?? preset.pciBus.map((_, i) => i)
  if (gpus.length === 0) throw badInput('--gpus: no GPU given')
  const missing = gpus.find((g) => !Number.isInteger(g) || g < 0 || g >= preset.pciBus.length)
  if (missing !== undefined)
    throw badInput(`--gpus: GPU ${missing} does not exist in preset ${preset.name} (0-${preset.pciBus.length - 1})`)
  const bench = o.format === 'p2p-bench'
  const sizes = o.sizes ?? (bench ? P2P_BENCH_SIZES : DEFAULT_SIZES)
  const bwSizes = bench ? (o.bwSizes ?? P2P_BENCH_BW_SIZES) : []
  if ((sizes.length === 0 && bwSizes.length === 0) || [...sizes, ...bwSizes].some((s) => !Number.isInteger(s) || s < 0))
    throw badInput('--sizes: expected byte counts ≥ 0')
  const processes = positiveInt(o.processes, 1, 'processes', 1)
  if (gpus.length % processes !== 0)
    throw badInput(`${gpus.length} GPUs cannot be spread evenly over ${processes} MPI/Slurm processes`)
  const seed = positiveInt(o.seed, 0, '--seed')
  const trial = positiveInt(o.trial, 0, '--trial')
  const scale = checkScale(o.scale)
  return {
    preset,
    format: o.format,
    collective,
    gpus,
    sizes,
    bwSizes,
    pairs: resolvePairs(o, gpus.length),
    copies: o.copies?.length ? o.copies : ['ce', 'sm'],
    p2pModes: o.p2pModes?.length ? o.p2pModes : ['enabled', 'disabled', 'bounce'],
    step: o.step ?? '2(factor)',
    iters: positiveInt(o.iters, 20, '--iters', 1),
    warmup: positiveInt(o.warmup, 1, '--warmup'),
    seed,
    trial,
    env: { ...(o.env ?? {}) },
    host: { ...(o.host ?? {}) },
    fault: o.fault,
    processes,
    pid: 1000 + (hash53(`pid|${trial}`, seed) % 90000),
    ...(scale !== 1 ? { scale } : {}),
  }
}

/** `--sim-scale F`: a finite factor > 0 (default 1). */
export function checkScale(f: number | undefined): number {
  if (f === undefined) return 1
  if (!(Number.isFinite(f) && f > 0)) throw badInput(`--sim-scale ${f}: expected a number > 0 (e.g. 1.03)`)
  return f
}

const lines = (ls: readonly string[]): string => ls.map((l) => `${l}\n`).join('')

function garbage(r: Run): string {
  const rng = rngFor(r.seed, `garbage|${r.trial}`)
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,;:!?@$%&*()[]{}<>~^'
  const junk = Array.from({ length: 12 + rng.int(0, 12) }, () =>
    Array.from({ length: 20 + rng.int(0, 60) }, () => alphabet[rng.int(0, alphabet.length - 1)]).join(''),
  )
  return lines([...simHeader(SIM_MARKER, r), ...junk])
}

function failureLine(r: Run): string {
  if (r.format === 'p2p-bench')
    return (
      'p2p_bench: error: cudaMemcpyPeerAsync(...): cudaErrorLaunchFailure (simulated fault ' +
      '(gpucomm sim --fault exit)) at native/p2p_bench.cu:0'
    )
  return r.format === 'nccl-tests'
    ? `${r.preset.hostname}: Test NCCL failure common.cu:1279 'unhandled system error / simulated fault (gpucomm sim ` +
        `--fault exit)'`
    : `Cuda failure p2pBandwidthLatencyTest.cu:0: 'simulated fault (gpucomm sim --fault exit)'`
}

/** The text a fault leaves on stdout (the whole text without one). */
export function applyFault(r: Run, out: Rendered): string {
  const mid = out.dataStart + Math.floor((out.dataEnd - out.dataStart) / 2)
  switch (r.fault) {
    case 'hang':
      return lines(out.lines.slice(0, out.bannerEnd))
    case 'crash':
      return lines(out.lines.slice(0, mid))
    case 'exit':
      return lines([
        ...out.lines.slice(0, out.dataStart + Math.floor((out.dataEnd - out.dataStart) / 3)),
        failureLine(r),
      ])
    case 'truncated': {
      const next = out.lines[mid] ?? ''
      return lines(out.lines.slice(0, mid)) + next.slice(0, Math.max(1, Math.floor(next.length / 2)))
    }
    case 'garbage':
      return garbage(r)
    default:
      return lines(out.lines)
  }
}

/**
 * One simulated tool output: nccl-tests `*_perf` text, p2pBandwidthLatencyTest text or p2p_bench output, first
 * line SIM_MARKER. Same options → same bytes. With a fault, the text that fault leaves behind
 * (the process behaviour — hanging, aborting, the exit code — is the caller's to act out).
 */
export function simulate(opts: SimOptions): string {
  const r = resolve(opts)
  if (r.fault === 'garbage') return garbage(r)
  const render = r.format === 'p2p' ? renderP2p : r.format === 'p2p-bench' ? renderP2pBench : renderNccl
  return applyFault(r, render(r))
}
