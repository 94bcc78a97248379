import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import type { HostCompiler } from './_host.ts'

/** The repository root (src/build/../..). */
const REPO_ROOT = resolve(import.meta.dirname, '..', '..')

/** The native sources folder of this repository. */
export const NATIVE_DIR = join(REPO_ROOT, 'native')

/** The cache root: an explicit folder, else $GPUCOMM_CACHE, else .cache/gpucomm in the repository. */
export function cacheRoot(explicit?: string, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(explicit ?? env.GPUCOMM_CACHE ?? join(REPO_ROOT, '.cache', 'gpucomm'))
}

/** The source files of the native benches (every .cu, .cuh and .h in `dir`), sorted. */
export function nativeSources(dir = NATIVE_DIR): string[] {
  return readdirSync(dir)
    .filter((f) => /\.(cu|cuh|h)$/.test(f))
    .sort()
    .map((f) => join(dir, f))
}

/**
 * The cache key of a build: sha256 over every source (name and bytes), the nvcc version text,
 * the arch list, the compiler flags, and the host side (each host compiler's path and version
 * text, and the NVCC_* variables); 16 hex digits.
 */
export function buildKey(
  sources: readonly string[],
  nvccVersionText: string,
  archs: readonly string[],
  flags: readonly string[],
  host: HostCompiler,
): string {
  const h = createHash('sha256')
  for (const s of sources) {
    h.update(`file ${s.split('/').pop() ?? s}\n`)
    h.update(readFileSync(s))
    h.update('\n')
  }
  h.update(`nvcc ${nvccVersionText}\narch ${archs.join(',')}\nflags ${flags.join(' ')}\n`)
  for (const t of host.tools) h.update(`host ${t.name} ${t.path ?? 'absent'}\n${t.versionText ?? 'no version'}\n`)
  for (const [k, v] of Object.entries(host.nvccEnv).sort()) h.update(`env ${k}=${v}\n`)
  return h.digest('hex').slice(0, 16)
}

/** Writes a file atomically (temp file, then rename), creating its folder. */
export function writeAtomic(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true })
  const tmp = `${path}.tmp-${process.pid}`
  writeFileSync(tmp, text)
  renameSync(tmp, path)
}

/** Reads a JSON file, or undefined when it is absent or unreadable. */
export function readJson<T>(path: string): T | undefined {
  if (!existsSync(path)) return undefined
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T
  } catch {
    return undefined
  }
}
