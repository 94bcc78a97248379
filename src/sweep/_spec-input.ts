import { badInput } from '../errors/index.ts'

/**
 * The textual form of a sweep spec: what flags give and what a bench/*.json preset holds
 * (the same keys). Everything is optional; `resolveSpec` fills the defaults.
 */
export interface SpecInput {
  instrument?: string | string[]
  preset?: string
  gpus?: string | number[]
  pairs?: string
  groupings?: string | string[]
  collectives?: string | string[]
  sizes?: string | number[]
  env?: string[]
  hostAxis?: string[]
  sysfsRoot?: string
  trials?: number
  warmup?: number
  iters?: number
  order?: string
  seed?: number
  launcher?: string
  hosts?: string | string[]
  srunGpus?: string
  ncclDebug?: boolean
  timeoutS?: number
  hardTimeoutS?: number
  retries?: number
  retryBackoffS?: number
  ncclTestsDir?: string
  p2pBin?: string
  nvbandwidthBin?: string
  nativeDir?: string
  simFaults?: string[]
  targetCi?: number
  minTrials?: number
  maxTrials?: number
  /** Cluster: simulated node count (names node01…), or how many allocation nodes to use. */
  nodes?: number
  /** Cluster patterns: per-node, node-pairs, scaling. */
  pattern?: string | string[]
  /** node-pairs: only the first K rounds (a K-regular subset). */
  pairsPerNode?: number
  /** Simulated cluster faults KIND@NODE. */
  inject?: string | string[]
  /** Simulated inter-node network: ib, roce or socket. */
  fabric?: string
  /** The simulator's known shift: times × F, bandwidths ÷ F (sim only). */
  simScale?: number
}

type Kind = 'string' | 'list' | 'int' | 'number' | 'boolean' | 'strings'

/** The schema of a preset file: every key and its JSON type (lists may be strings or arrays). */
export const SPEC_SCHEMA: Readonly<Record<keyof SpecInput, Kind>> = {
  instrument: 'list',
  preset: 'string',
  gpus: 'list',
  pairs: 'string',
  groupings: 'list',
  collectives: 'list',
  sizes: 'list',
  env: 'strings',
  hostAxis: 'strings',
  sysfsRoot: 'string',
  trials: 'int',
  warmup: 'int',
  iters: 'int',
  order: 'string',
  seed: 'int',
  launcher: 'string',
  hosts: 'list',
  srunGpus: 'string',
  ncclDebug: 'boolean',
  timeoutS: 'number',
  hardTimeoutS: 'number',
  retries: 'int',
  retryBackoffS: 'number',
  ncclTestsDir: 'string',
  p2pBin: 'string',
  nvbandwidthBin: 'string',
  nativeDir: 'string',
  simFaults: 'strings',
  targetCi: 'number',
  minTrials: 'int',
  maxTrials: 'int',
  nodes: 'int',
  pattern: 'list',
  pairsPerNode: 'int',
  inject: 'list',
  fabric: 'string',
  simScale: 'number',
}

/** Keys a preset may carry for people only. */
const COMMENT_KEYS = new Set(['description', '$comment'])

/** Checks a parsed preset file against SPEC_SCHEMA; `file` names it in the one-line error. */
export function checkSpecInput(v: unknown, file: string): SpecInput {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw badInput(`${file}: a sweep preset must be a JSON object`)
  for (const [k, x] of Object.entries(v)) {
    if (COMMENT_KEYS.has(k)) continue
    const kind = SPEC_SCHEMA[k as keyof SpecInput]
    if (!kind) throw badInput(`${file}: unknown key "${k}" (known: ${Object.keys(SPEC_SCHEMA).join(', ')})`)
    if (!fits(kind, x)) throw badInput(`${file}: "${k}" must be ${describe(kind)}`)
  }
  return v as SpecInput
}

function fits(kind: Kind, x: unknown): boolean {
  switch (kind) {
    case 'string':
      return typeof x === 'string'
    case 'list':
      return (
        typeof x === 'string' || (Array.isArray(x) && x.every((e) => typeof e === 'string' || typeof e === 'number'))
      )
    case 'strings':
      return Array.isArray(x) && x.every((e) => typeof e === 'string')
    case 'int':
      return Number.isInteger(x)
    case 'number':
      return typeof x === 'number' && Number.isFinite(x)
    case 'boolean':
      return typeof x === 'boolean'
  }
}

const describe = (k: Kind): string =>
  ({
    string: 'a string',
    list: 'a string or an array',
    strings: 'an array of strings',
    int: 'an integer',
    number: 'a number',
    boolean: 'true or false',
  })[k]
