import { existsSync, statSync } from 'node:fs'
import { basename, delimiter, dirname, join } from 'node:path'
import { execa } from 'execa'

/** The environment variables nvcc reads that change what it compiles. */
export const NVCC_ENV_VARS = ['NVCC_CCBIN', 'NVCC_PREPEND_FLAGS', 'NVCC_APPEND_FLAGS'] as const

/** One host compiler executable nvcc will run. */
export interface HostTool {
  /** As nvcc names it: "gcc", "/usr/bin/g++", ... */
  name: string
  /** Where it resolves (PATH lookup for a bare name); null when it is not there. */
  path: string | null
  /** Its whole `--version` text (part of the build cache key); null when it is absent or fails. */
  versionText: string | null
}

/** The host side of an nvcc build: what compiles the host code, and the NVCC_* variables. */
export interface HostCompiler {
  /** The -ccbin nvcc gets: the last -ccbin in NVCC_PREPEND/APPEND_FLAGS, else NVCC_CCBIN; null: none. */
  ccbin: string | null
  tools: HostTool[]
  /** Each of NVCC_ENV_VARS as set ('' when unset). */
  nvccEnv: Record<string, string>
}

const isFile = (p: string): boolean => existsSync(p) && statSync(p).isFile()
const isDir = (p: string): boolean => existsSync(p) && statSync(p).isDirectory()

/** The -ccbin / --compiler-bindir value nvcc ends up with, from its flag variables, else NVCC_CCBIN. */
export function ccbinOf(env: NodeJS.ProcessEnv): string | null {
  const words = `${env.NVCC_PREPEND_FLAGS ?? ''} ${env.NVCC_APPEND_FLAGS ?? ''}`.split(/\s+/).filter(Boolean)
  let found: string | null = env.NVCC_CCBIN || null
  for (let i = 0; i < words.length; i++) {
    const eq = /^--?(?:ccbin|compiler-bindir)=(.+)$/.exec(words[i] as string)
    if (eq) found = eq[1] as string
    else if (/^--?(?:ccbin|compiler-bindir)$/.test(words[i] as string) && words[i + 1]) found = words[++i] as string
  }
  return found
}

/**
 * The executables nvcc runs for host code, as nvcc 13 does on Linux (seen with `nvcc --dryrun`):
 * no -ccbin: gcc to compile and g++ to link, from PATH; a folder: its gcc and g++; a gcc: it and
 * the g++ beside it; any other compiler (g++, c++, gcc-12, clang++): that one alone.
 */
export function hostToolNames(ccbin: string | null): string[] {
  if (ccbin === null) return ['gcc', 'g++']
  if (isDir(ccbin)) return [join(ccbin, 'gcc'), join(ccbin, 'g++')]
  if (basename(ccbin) !== 'gcc') return [ccbin]
  return [ccbin, ccbin.includes('/') ? join(dirname(ccbin), 'g++') : 'g++']
}

/** A name as a shell would run it: a path as is, a bare name looked up in PATH. */
function resolveTool(name: string, env: NodeJS.ProcessEnv): string | null {
  if (name.includes('/')) return isFile(name) ? name : null
  for (const dir of (env.PATH ?? '').split(delimiter)) if (dir && isFile(join(dir, name))) return join(dir, name)
  return null
}

/** The host compilers nvcc will use under `env`, each with its `--version` text, and the NVCC_* variables. */
export async function findHostCompiler(env: NodeJS.ProcessEnv = process.env): Promise<HostCompiler> {
  const ccbin = ccbinOf(env)
  const tools = await Promise.all(
    hostToolNames(ccbin).map(async (name): Promise<HostTool> => {
      const path = resolveTool(name, env)
      if (!path) return { name, path, versionText: null }
      const r = await execa(path, ['--version'], { reject: false, env, extendEnv: false, timeout: 30_000 })
      return { name, path, versionText: r.exitCode === 0 ? r.stdout.trim() : null }
    }),
  )
  return { ccbin, tools, nvccEnv: Object.fromEntries(NVCC_ENV_VARS.map((v) => [v, env[v] ?? ''])) }
}
