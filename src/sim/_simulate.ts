/** `simulate`: options → one simulated tool output (pure; the CLI acts out hangs and crashes). */
import { badInput } from '../errors/index.ts'
import { SIM_MARKER } from '../model/index.ts'
import { renderNccl } from './_nccl.ts'
import { renderP2p } from './_p2p.ts'
import { presetByName } from './_physics.ts'
import { hash53, rngFor } from './_prng.ts'
import type { Rendered, Run } from './_run.ts'
import { simHeader } from './_run.ts'
import type { SimOptions } from './_types.ts'
import { COLLECTIVES, FAULTS, FORMATS } from './_types.ts'

/** Default sizes: 8 B … 64 MiB, ×2 (the sweep's default range). */
const DEFAULT_SIZES = Array.from({ length: 24 }, (_, i) => 8 * 2 ** i)

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
    throw badInput('--fault corrupt needs --format nccl-tests (p2pBandwidthLatencyTest checks no data)')
  const gpus = o.gpus ?? preset.pciBus.map((_, i) => i)
  if (gpus.length === 0) throw badInput('--gpus: no GPU given')
  const missing = gpus.find((g) => !Number.isInteger(g) || g < 0 || g >= preset.pciBus.length)
  if (missing !== undefined)
    throw badInput(`--gpus: GPU ${missing} does not exist in preset ${preset.name} (0-${preset.pciBus.length - 1})`)
  const sizes = o.sizes ?? DEFAULT_SIZES
  if (sizes.length === 0 || sizes.some((s) => !Number.isInteger(s) || s < 0))
    throw badInput('--sizes: expected byte counts ≥ 0')
  const processes = positiveInt(o.processes, 1, 'processes', 1)
  if (gpus.length % processes !== 0)
    throw badInput(`${gpus.length} GPUs cannot be spread evenly over ${processes} MPI/Slurm processes`)
  const seed = positiveInt(o.seed, 0, '--seed')
  const trial = positiveInt(o.trial, 0, '--trial')
  return {
    preset,
    format: o.format,
    collective,
    gpus,
    sizes,
    step: o.step ?? '2(factor)',
    iters: positiveInt(o.iters, 20, '--iters', 1),
    warmup: positiveInt(o.warmup, 1, '--warmup'),
    seed,
    trial,
    env: { ...(o.env ?? {}) },
    fault: o.fault,
    processes,
    pid: 1000 + (hash53(`pid|${trial}`, seed) % 90000),
  }
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
  return r.format === 'nccl-tests'
    ? `${r.preset.hostname}: Test NCCL failure common.cu:1279 'unhandled system error / simulated fault (gpucomm sim --fault exit)'`
    : `Cuda failure p2pBandwidthLatencyTest.cu:0: 'simulated fault (gpucomm sim --fault exit)'`
}

/** The text a fault leaves on stdout. */
function applyFault(r: Run, out: Rendered): string {
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
 * One simulated tool output: nccl-tests `*_perf` text or p2pBandwidthLatencyTest text, first
 * line SIM_MARKER. Same options → same bytes. With a fault, the text that fault leaves behind
 * (the process behaviour — hanging, aborting, the exit code — is the caller's to act out).
 */
export function simulate(opts: SimOptions): string {
  const r = resolve(opts)
  if (r.fault === 'garbage') return garbage(r)
  return applyFault(r, r.format === 'p2p' ? renderP2p(r) : renderNccl(r))
}
