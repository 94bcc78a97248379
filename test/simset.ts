/**
 * Simulated result sets for tests: `simulate()` output (SIMULATED, seeded) imported with the
 * real importer and parsers. Deterministic for a given seed.
 */
import { join } from 'node:path'
import { importFiles } from '../src/importer/index.ts'
import type { SimOptions } from '../src/sim/index.ts'
import { simulate } from '../src/sim/index.ts'
import { tmp } from './helpers.ts'

/** What to simulate: a p2p matrix and all_reduce over the given groups. */
export interface SimSetSpec {
  preset: string
  seed: number
  groups?: number[][]
  sizes?: number[]
  p2p?: boolean
  trials?: number
  /** Pairs through the simulated p2p_bench (GPUs 0-3, CE copies, these latency sizes) instead of p2pBandwidthLatencyTest. */
  bench?: { sizes: number[]; iters: number; p2pModes?: readonly ('enabled' | 'disabled' | 'bounce')[] }
}

/** Builds a simulated result set in a new temp dir and returns its path. */
export async function simSet(spec: SimSetSpec): Promise<string> {
  const dir = tmp('gpucomm-simset-')
  const out = join(dir, 'set')
  const inputs = []
  for (let trial = 0; trial < (spec.trials ?? 1); trial++) {
    const base: Omit<SimOptions, 'format'> = { preset: spec.preset, seed: spec.seed, trial }
    const gpus = [0, 1, 2, 3]
    const b = spec.bench
    const p2p: SimOptions = b
      ? {
          ...base,
          format: 'p2p-bench',
          gpus,
          sizes: b.sizes,
          bwSizes: [],
          iters: b.iters,
          copies: ['ce'],
          p2pModes: b.p2pModes ?? ['enabled', 'disabled'],
        }
      : { ...base, format: 'p2p', gpus }
    if (spec.p2p !== false) inputs.push({ path: `p2p-t${trial}.txt`, data: Buffer.from(simulate(p2p)) })
    for (const g of spec.groups ?? [
      [0, 1, 2, 3, 4, 5, 6, 7],
      [0, 1, 2, 3],
    ]) {
      inputs.push({
        path: `ar-${g.length}-t${trial}.txt`,
        data: Buffer.from(
          simulate({
            ...base,
            format: 'nccl-tests',
            collective: 'all_reduce',
            gpus: g,
            sizes: spec.sizes ?? [8, 64, 512, 4096, 32768, 262144, 2097152, 16777216],
          }),
        ),
      })
    }
  }
  await importFiles(inputs, { out, command: ['test'] })
  return out
}
