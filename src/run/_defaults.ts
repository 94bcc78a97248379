import { existsSync, readdirSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import type { SpecInput } from '../sweep/index.ts'
import type { GpuQuery } from './_provenance.ts'

/**
 * The default plan of `gpucomm sweep` (and `npm start`). With GPUs: the native benches on
 * every GPU, all pairs, TPn and TPn/2 groupings, 8 B–128 MiB, 3 trials. Without: the
 * seed-vm simulation of the 8-GPU VM sized to finish in well under a minute on two cores
 * (all 56 pairs, all_reduce under TP8 and 2×TP4, 8 B–64 MiB, 3 trials), with a fixed seed.
 */
export function defaultSpecInput(gpu: GpuQuery): SpecInput {
  if (!gpu.found) {
    return { instrument: 'sim', preset: 'seed-vm', gpus: '0-7', pairs: 'all', groupings: 'tp8,tp4', collectives: 'all_reduce', sizes: '8:64M:x2', trials: 3, seed: 1 }
  }
  const n = gpu.gpus.length
  const groupings = n >= 4 && n % 2 === 0 ? `tp${n},tp${n / 2}` : n >= 2 ? `tp${n}` : ''
  return {
    instrument: 'native', gpus: gpu.gpus.map((g) => g.index).join(','), pairs: n >= 2 ? 'all' : 'none', groupings,
    collectives: n >= 2 ? 'all_reduce' : '', sizes: '8:128M:x2', trials: 3,
  }
}

/**
 * A fresh result-set directory `results/<date>-<host>[-sim]`, with `-2`, `-3`, … when
 * that name is taken, under `root`.
 */
export function defaultOutDir(root: string, simulated: boolean, now = new Date()): string {
  const date = now.toISOString().slice(0, 10)
  const host = hostname().split('.')[0]?.replace(/[^\w.-]/g, '_') || 'host'
  const base = join(root, 'results', `${date}-${host}${simulated ? '-sim' : ''}`)
  let dir = base
  for (let k = 2; existsSync(dir) && readdirSync(dir).length > 0; k++) dir = `${base}-${k}`
  return dir
}
