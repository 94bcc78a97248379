/**
 * The native tests' build cache: a per-checkout folder under node_modules/.cache (never committed;
 * `npm ci` starts it empty, so CI always compiles cold). Every entry is keyed by all it is built
 * from (compiler version text, flags, source bytes), so a cached binary proves what a fresh
 * compile of the same inputs proves. Entries are written to a temporary name and renamed into
 * place, so processes building into it at once never see half a file.
 */
import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { execa } from 'execa'

/** The root of the native tests' cache: node_modules/.cache/gpucomm-tests of this checkout. */
export const TEST_CACHE = resolve(import.meta.dirname, '..', '..', 'node_modules', '.cache', 'gpucomm-tests')

/** How to start cold: what the tests print beside a cache hit. */
export const COLD_HINT = `rm -rf ${TEST_CACHE} to compile cold`

const versions = new Map<string, Promise<string | undefined>>()
/** `tool --version` as printed, undefined where it fails (memoized per tool): part of every key of that tool. */
export const versionOf = (tool: string): Promise<string | undefined> => {
  let v = versions.get(tool)
  if (!v) {
    v = execa(tool, ['--version'], { reject: false }).then((r) => (r.exitCode === 0 ? r.stdout.trim() : undefined))
    versions.set(tool, v)
  }
  return v
}

/** sha256 over `parts` (strings, or files as name and bytes), 16 hex digits. */
export function keyOf(parts: readonly (string | { file: string })[]): string {
  const h = createHash('sha256')
  for (const p of parts) {
    if (typeof p === 'string') h.update(`text ${p}\n`)
    else h.update(`file ${basename(p.file)}\n`).update(readFileSync(p.file))
    h.update('\n')
  }
  return h.digest('hex').slice(0, 16)
}

/** What `compiled` made or found. */
export interface Compiled {
  path: string
  /** True when the cache already held this build (no compiler ran). */
  cached: boolean
}

/**
 * `tool ...flags -o OUT source` into `<TEST_CACHE>/<tool>/<key>/<name>` (c++: cxx/), unless that entry exists.
 * The key covers `tool --version`, the flags, the source and `inputs` (the files it includes).
 */
export async function compiled(
  tool: string,
  flags: readonly string[],
  source: string,
  name: string,
  inputs: readonly string[] = [],
): Promise<Compiled> {
  const version = await versionOf(tool)
  if (version === undefined) throw new Error(`${tool} --version failed: is ${tool} installed?`)
  const key = keyOf([version, flags.join(' '), { file: source }, ...inputs.map((file) => ({ file }))])
  const path = join(TEST_CACHE, tool === 'c++' ? 'cxx' : tool, key, name)
  if (existsSync(path)) return { path, cached: true }
  mkdirSync(dirname(path), { recursive: true })
  const tmp = `${path}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`
  try {
    await execa(tool, [...flags, '-o', tmp, source])
    renameSync(tmp, path)
  } finally {
    rmSync(tmp, { force: true })
  }
  return { path, cached: false }
}

/** Builds `text` as a shared library with cc (cached by content), copied to `dir/<name>`. */
export async function sharedLib(dir: string, name: string, text: string): Promise<string> {
  mkdirSync(dir, { recursive: true })
  const src = join(dir, `${name}.c`)
  writeFileSync(src, text)
  const lib = join(dir, name)
  copyFileSync((await compiled('cc', ['-shared', '-fPIC'], src, name)).path, lib)
  return lib
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** A lock left by a process that is gone (or, unreadable, older than 10 minutes). */
function stale(lock: string): boolean {
  try {
    const pid = Number(readFileSync(lock, 'utf8'))
    return pid > 0 ? !alive(pid) : Date.now() - statSync(lock).mtimeMs > 600_000
  } catch {
    return false // gone meanwhile: the next try takes it
  }
}

/**
 * Runs `fn` holding `<dir>/.lock` (a file created exclusively, holding the pid), so test files
 * running at once compile a build once: the others wait, then find it cached. The lock saves
 * CPU; correctness does not rest on it (builds are renamed into place). Waits at most 15 min.
 */
export async function withLock<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  mkdirSync(dir, { recursive: true })
  const lock = join(dir, '.lock')
  const until = Date.now() + 900_000
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' })
      break
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
    }
    if (stale(lock)) rmSync(lock, { force: true })
    else if (Date.now() > until)
      throw new Error(`${lock}: still held after 15 min by pid ${readFileSync(lock, 'utf8')}`)
    else await sleep(200)
  }
  try {
    return await fn()
  } finally {
    rmSync(lock, { force: true })
  }
}
