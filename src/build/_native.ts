import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { execa } from 'execa'
import { badInput, failed } from '../errors/index.ts'
import { buildKey, cacheRoot, NATIVE_DIR, nativeSources, readJson, writeAtomic } from './_cache.ts'
import type { HostCompiler } from './_host.ts'
import { findHostCompiler } from './_host.ts'
import type { Nvcc } from './_nvcc.ts'
import { detectArch, FATBIN_ARCHS, findNvcc, gencodeFlags } from './_nvcc.ts'
import type { RegisteredInstrument } from './_registry.ts'
import { readRegistry, registerInstrument } from './_registry.ts'

/** Options of buildNative. */
export interface BuildNativeOptions {
  /** Target arches (e.g. ["sm_90"]); default: what nvidia-smi reports, else the fatbin list. */
  arch?: readonly string[]
  /** Rebuild even when the cache has this key. */
  force?: boolean
  /** Cache root (default $GPUCOMM_CACHE, else .cache/gpucomm in the repository). */
  cacheDir?: string
  /** Environment for finding nvcc and nvidia-smi and for compiling (default process.env). */
  env?: NodeJS.ProcessEnv
  /** Folder of the native sources (default native/ of this repository). */
  sourceDir?: string
}

/** What buildNative made (or found in the cache). */
export interface NativeBuild {
  /** Absolute path of p2p_bench. */
  p2pBench: string
  /** Absolute path of coll_bench. */
  collBench: string
  /** Cache key: sources, nvcc version, arches, flags and the host side (`host`). */
  hash: string
  arch: string[]
  /** True when both binaries came from the cache. */
  cached: boolean
  /** Whether a PTX fallback was embedded (fatbin builds). */
  ptx: boolean
  nvcc: { path: string; version: string }
  /** The host compilers nvcc runs (with their `--version` texts) and the NVCC_* variables. */
  host: HostCompiler
  /** Seconds spent compiling (0 on a cache hit). */
  compileS: number
}

const COMMON_FLAGS = ['-O3', '-std=c++17', '--threads', '0']
const BENCHES = [
  { name: 'p2p_bench', src: 'p2p_bench.cu', libs: [] as string[] },
  { name: 'coll_bench', src: 'coll_bench.cu', libs: ['-ldl'] },
]
const ARCH = /^sm_\d{2,3}[af]?$/

async function chooseArch(opts: BuildNativeOptions, env: NodeJS.ProcessEnv): Promise<{ arch: string[]; ptx: boolean }> {
  if (opts.arch && opts.arch.length > 0) {
    for (const a of opts.arch) if (!ARCH.test(a)) throw badInput(`--arch: "${a}" is not an arch like sm_90`)
    return { arch: [...new Set(opts.arch)].sort(), ptx: false }
  }
  const found = await detectArch(env)
  return found.length > 0 ? { arch: found, ptx: false } : { arch: [...FATBIN_ARCHS], ptx: true }
}

async function compile(
  nvcc: Nvcc,
  src: string,
  out: string,
  flags: readonly string[],
  libs: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const tmp = `${out}.tmp-${process.pid}`
  // Exactly `env`, the environment the cache key's host compiler and NVCC_* variables came from.
  const r = await execa(nvcc.path, [...flags, '-o', tmp, src, ...libs], {
    reject: false,
    env,
    extendEnv: false,
    all: true,
  })
  if (r.exitCode !== 0) {
    rmSync(tmp, { force: true })
    const tail = (r.all ?? '').trim().split('\n').slice(-8).join(' | ')
    throw failed(`nvcc failed on ${src} (exit ${String(r.exitCode)}): ${tail}`)
  }
  renameSync(tmp, out)
}

/**
 * Builds native/p2p_bench and native/coll_bench with nvcc into the cache
 * (`<cache>/native/<key>/`), or returns the cached binaries when the key is already built.
 */
export async function buildNative(opts: BuildNativeOptions = {}): Promise<NativeBuild> {
  const env = opts.env ?? process.env
  const nvcc = await findNvcc(env)
  const host = await findHostCompiler(env)
  const { arch, ptx } = await chooseArch(opts, env)
  const flags = [...COMMON_FLAGS, ...gencodeFlags(arch, ptx)]
  const srcDir = opts.sourceDir ?? NATIVE_DIR
  const hash = buildKey(nativeSources(srcDir), nvcc.versionText, arch, flags, host)
  const root = cacheRoot(opts.cacheDir, env)
  const dir = join(root, 'native', hash)
  const [p2pBench, collBench] = BENCHES.map((b) => join(dir, b.name)) as [string, string]
  const base = { p2pBench, collBench, hash, arch, ptx, nvcc: { path: nvcc.path, version: nvcc.version }, host }
  const info = join(dir, 'build.json')
  const entry = (built: string): RegisteredInstrument => ({
    name: 'native',
    kind: 'native',
    dir,
    commit: null,
    dirty: null,
    binaries: { p2p_bench: p2pBench, coll_bench: collBench },
    hash,
    built,
  })
  const stored = readJson<{ built?: string }>(info)
  if (!opts.force && existsSync(p2pBench) && existsSync(collBench) && stored) {
    // A hit the registry does not list (removed, or lost to another writer) is listed again, so a
    // sweep finds the binaries of exactly these sources.
    if (!readRegistry(root).instruments.some((i) => i.name === 'native' && i.dir === dir))
      registerInstrument(root, entry(stored.built ?? new Date().toISOString()))
    return { ...base, cached: true, compileS: 0 }
  }
  mkdirSync(dir, { recursive: true })
  const t0 = performance.now()
  await Promise.all(BENCHES.map((b) => compile(nvcc, join(srcDir, b.src), join(dir, b.name), flags, b.libs, env)))
  const compileS = (performance.now() - t0) / 1000
  const build: NativeBuild = { ...base, cached: false, compileS }
  writeAtomic(info, `${JSON.stringify({ ...build, flags, built: new Date().toISOString() }, null, 2)}\n`)
  registerInstrument(root, entry(new Date().toISOString()))
  return build
}
