import { join } from 'node:path'
import { readJson, writeAtomic } from './_cache.ts'

/** One registered build of an instrument's binaries. */
export interface RegisteredInstrument {
  /** `native`, `nccl-tests` or `cuda-samples`. */
  name: string
  kind: 'native' | 'upstream'
  /** The folder built (the checkout, or the native cache folder). */
  dir: string
  /** git commit of the checkout (null when not a git repository or native). */
  commit: string | null
  /** True when the checkout had uncommitted changes; null when unknown. */
  dirty: boolean | null
  /** Binary name → absolute path. */
  binaries: Record<string, string>
  hash?: string
  /** ISO time of the build. */
  built: string
  /** make variables used (CUDA_HOME, NCCL_HOME, MPI …). */
  make?: Record<string, string>
}

/** The instrument registry file: `<cache>/instruments.json`. */
export interface InstrumentRegistry {
  schema: 1
  instruments: RegisteredInstrument[]
}

/** Path of the registry file under a cache root. */
export const registryPath = (root: string): string => join(root, 'instruments.json')

/** Reads the registry (an empty one when the file is absent or unreadable). */
export function readRegistry(root: string): InstrumentRegistry {
  const r = readJson<InstrumentRegistry>(registryPath(root))
  return r && Array.isArray(r.instruments) ? r : { schema: 1, instruments: [] }
}

/** Adds or replaces (same name and folder) one instrument in the registry, atomically. */
export function registerInstrument(root: string, entry: RegisteredInstrument): InstrumentRegistry {
  const reg = readRegistry(root)
  reg.instruments = reg.instruments.filter((i) => !(i.name === entry.name && i.dir === entry.dir))
  reg.instruments.push(entry)
  writeAtomic(registryPath(root), `${JSON.stringify(reg, null, 2)}\n`)
  return reg
}
