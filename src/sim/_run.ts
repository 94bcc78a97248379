/** A simulated run with every option resolved to its value (defaults filled in, checked). */
import { simScaleWords } from '../model/index.ts'
import type { Collective, CollectiveModel, Fault, P2pMode, P2pPairs, Preset, SimFormat } from './_types.ts'

/** Everything a renderer needs. */
export interface Run {
  preset: Preset
  format: SimFormat
  collective: Collective
  /** Physical GPU indices in rank / CUDA-ordinal order. */
  gpus: readonly number[]
  sizes: readonly number[]
  /** p2p-bench's bandwidth sizes (empty: no bandwidth tests). */
  bwSizes: readonly number[]
  pairs: P2pPairs
  /** p2p-bench's copy kinds (its --copy). */
  copies: readonly ('ce' | 'sm')[]
  /** p2p-bench's P2P modes (its --p2p). */
  p2pModes: readonly P2pMode[]
  step: string
  iters: number
  warmup: number
  seed: number
  trial: number
  env: Readonly<Record<string, string>>
  /** Host knob values modelled (sim/_host.ts). */
  host: Readonly<Record<string, string>>
  fault: Fault | undefined
  processes: number
  /** Pid of the first process (the others count up from it). */
  pid: number
  /** `--sim-scale`: every time × scale, bandwidth ÷ scale (absent: 1). */
  scale?: number
  /** A run across nodes: one process per host, each driving `gpus`, under this model. */
  /** A job across nodes; `flap`: the model a share of the cells take (a flapping NIC). */
  cluster?: { hosts: readonly string[]; model: CollectiveModel; flap?: { model: CollectiveModel; share: number } }
}

/** What a renderer produced: the lines, and where its parts are (faults cut there). */
export interface Rendered {
  lines: string[]
  /** Lines before this index are the banner and device list (a hang prints only those). */
  bannerEnd: number
  /** The measurement lines (table rows or matrix lines) are [dataStart, dataEnd). */
  dataStart: number
  dataEnd: number
}

/** The two comment lines every simulated output starts with. */
export const simHeader = (marker: string, r: Run): string[] => [
  marker,
  `# preset ${r.preset.name} seed ${r.seed} trial ${r.trial} gpus ${r.gpus.join(',')}` +
    `${r.cluster ? ` nodes ${r.cluster.hosts.join(',')}` : ''}` +
    `${
      Object.keys(r.env).length
        ? ` env ${Object.entries(r.env)
            .map(([k, v]) => `${k}=${v}`)
            .join(' ')}`
        : ''
    }` +
    `${
      Object.keys(r.host).length
        ? ` host ${Object.entries(r.host)
            .map(([k, v]) => `${k}=${v}`)
            .join(' ')} (modelled)`
        : ''
    }` +
    `${r.fault ? ` fault ${r.fault}` : ''}` +
    `${r.scale !== undefined && r.scale !== 1 ? ` ${simScaleWords(r.scale)}` : ''} (simulated data, not a measurement)`,
]
