import { existsSync, statSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { execa } from 'execa'
import { failed } from '../errors/index.ts'

/** An nvcc found on this machine. */
export interface Nvcc {
  /** Absolute path of the nvcc binary. */
  path: string
  /** Release as `nvcc --version` prints it, e.g. "13.0.88" (or the release line when unparsable). */
  version: string
  /** The whole `nvcc --version` text (part of the build cache key). */
  versionText: string
  /** The CUDA toolkit folder (nvcc's bin/..). */
  cudaHome: string
}

const isFile = (p: string): boolean => existsSync(p) && statSync(p).isFile()

/** Places nvcc is looked for, in order: $CUDA_HOME/bin, then every folder of $PATH. */
export function nvccCandidates(env: NodeJS.ProcessEnv = process.env): string[] {
  const out: string[] = []
  if (env.CUDA_HOME) out.push(join(env.CUDA_HOME, 'bin', 'nvcc'))
  for (const dir of (env.PATH ?? '').split(delimiter)) if (dir) out.push(join(dir, 'nvcc'))
  return out
}

/**
 * Finds nvcc through CUDA_HOME, then PATH, and asks it for its version. Throws a
 * HarnessError (exit 1) naming where it looked when there is none.
 */
export async function findNvcc(env: NodeJS.ProcessEnv = process.env): Promise<Nvcc> {
  const tried = nvccCandidates(env)
  const path = tried.find(isFile)
  if (!path) {
    const where = env.CUDA_HOME ? `$CUDA_HOME/bin (${env.CUDA_HOME}/bin) and $PATH` : '$PATH (CUDA_HOME is not set)'
    throw failed(
      `nvcc not found in ${where}: install the CUDA toolkit and set CUDA_HOME to it, or put its bin folder on PATH`,
    )
  }
  const r = await execa(path, ['--version'], { reject: false, env, extendEnv: false })
  if (r.exitCode !== 0)
    throw failed(`${path} --version failed (exit ${String(r.exitCode)}): ${r.stderr.split('\n')[0] ?? ''}`)
  const m = /release [\d.]+, V([\d.]+)/.exec(r.stdout) ?? /release ([\d.]+)/.exec(r.stdout)
  return {
    path,
    version: m?.[1] ?? r.stdout.trim().split('\n').pop() ?? '',
    versionText: r.stdout.trim(),
    cudaHome: join(path, '..', '..'),
  }
}

/** Arches of the portable fatbin: Ampere, Ampere GA10x, Ada, Hopper, Blackwell DC and RTX. */
export const FATBIN_ARCHS = ['sm_80', 'sm_86', 'sm_89', 'sm_90', 'sm_100', 'sm_120'] as const

/**
 * The GPU arches `nvidia-smi --query-gpu=compute_cap` reports ("9.0" → "sm_90"), sorted and
 * unique; an empty list when nvidia-smi is absent or fails (then a fatbin is built).
 */
export async function detectArch(env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const r = await execa('nvidia-smi', ['--query-gpu=compute_cap', '--format=csv,noheader'], {
    reject: false,
    env,
    extendEnv: false,
    timeout: 30_000,
  })
  if (r.exitCode !== 0 || r.failed) return []
  const archs = new Set<string>()
  for (const line of r.stdout.split('\n')) {
    const m = /^\s*(\d+)\.(\d+)\s*$/.exec(line)
    if (m) archs.add(`sm_${m[1] as string}${m[2] as string}`)
  }
  return [...archs].sort()
}

/** nvcc -gencode flags: SASS for each arch, plus PTX of the highest when `ptx`. */
export function gencodeFlags(archs: readonly string[], ptx: boolean): string[] {
  const flags: string[] = []
  for (const a of archs) flags.push('-gencode', `arch=compute_${a.slice(3)},code=${a}`)
  const top = [...archs].sort((x, y) => Number.parseInt(x.slice(3), 10) - Number.parseInt(y.slice(3), 10)).pop()
  if (ptx && top) flags.push('-gencode', `arch=compute_${top.slice(3)},code=compute_${top.slice(3)}`)
  return flags
}
