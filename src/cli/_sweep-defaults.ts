import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join, resolve } from 'node:path'
import type { GpuQuery } from '../run/index.ts'
import type { SpecInput } from '../sweep/index.ts'
import { checkSpecInput } from '../sweep/index.ts'

/** The presets that hold the default plans (schema-checked like any --spec file). */
const DEFAULT_PRESETS = {
  gpu: resolve(import.meta.dirname, '..', '..', 'bench', 'sweep-default.json'),
  sim: resolve(import.meta.dirname, '..', '..', 'bench', 'sweep-default-sim.json'),
}

/** Reads and checks a preset file. */
export function readPreset(path: string): SpecInput {
  return checkSpecInput(JSON.parse(readFileSync(path, 'utf8')) as unknown, path)
}

/**
 * The default plan of `gpucomm sweep` (and `npm start`). Without GPUs: bench/sweep-default-sim.json
 * (the seed-vm simulation of the 8-GPU VM, sized to finish in well under a minute on two cores).
 * With GPUs: bench/sweep-default.json on every GPU found, with TPn and TPn/2 groupings (one GPU:
 * its copies to itself only).
 */
export function defaultSpecInput(gpu: GpuQuery): SpecInput {
  if (!gpu.found) return readPreset(DEFAULT_PRESETS.sim)
  const n = gpu.gpus.length
  const groupings = n >= 4 && n % 2 === 0 ? `tp${n},tp${n / 2}` : n >= 2 ? `tp${n}` : ''
  const base = readPreset(DEFAULT_PRESETS.gpu)
  // One GPU: no pair and no group of two, but each GPU to itself still shows the local-copy and host-staged floors.
  return {
    ...base,
    gpus: gpu.gpus.map((g) => g.index).join(','),
    groupings,
    ...(n < 2 ? { pairs: 'self', collectives: '' } : {}),
  }
}

/**
 * A fresh result-set directory `results/<date>-<host>[-sim]`, with `-2`, `-3`, … when
 * that name is taken, under `root`.
 */
export function defaultOutDir(root: string, simulated: boolean, now = new Date()): string {
  const date = now.toISOString().slice(0, 10)
  const host =
    hostname()
      .split('.')[0]
      ?.replace(/[^\w.-]/g, '_') || 'host'
  const base = join(root, 'results', `${date}-${host}${simulated ? '-sim' : ''}`)
  let dir = base
  for (let k = 2; existsSync(dir) && readdirSync(dir).length > 0; k++) dir = `${base}-${k}`
  return dir
}
