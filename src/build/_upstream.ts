import { existsSync, readdirSync, statSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join, resolve } from 'node:path'
import { execa } from 'execa'
import { badInput, failed } from '../errors/index.ts'
import { cacheRoot } from './_cache.ts'
import { findNvcc } from './_nvcc.ts'
import type { RegisteredInstrument } from './_registry.ts'
import { registerInstrument } from './_registry.ts'

/** Options of buildUpstream. */
export interface BuildUpstreamOptions {
  /** NCCL install folder passed as NCCL_HOME (nccl-tests). */
  ncclHome?: string
  /** Build nccl-tests with MPI=1 (and MPI_HOME when given). */
  mpi?: boolean
  mpiHome?: string
  cacheDir?: string
  env?: NodeJS.ProcessEnv
  /** Parallel make jobs (default: the CPU count). */
  jobs?: number
}

const P2P_SAMPLE = 'p2pBandwidthLatencyTest'

/** Which upstream project a checkout is: nccl-tests (src/all_reduce.cu) or cuda-samples. */
export function upstreamKind(dir: string): 'nccl-tests' | 'cuda-samples' | undefined {
  if (existsSync(join(dir, 'src', 'all_reduce.cu')) && existsSync(join(dir, 'Makefile'))) return 'nccl-tests'
  if (existsSync(join(dir, 'Samples'))) return 'cuda-samples'
  return undefined
}

/** The first folder under `dir` (depth ≤ 4) that holds `<name>.cu`. */
function findSample(dir: string, name: string, depth = 0): string | undefined {
  if (existsSync(join(dir, `${name}.cu`))) return dir
  if (depth >= 4) return undefined
  for (const e of readdirSync(dir)) {
    const p = join(dir, e)
    if (!e.startsWith('.') && statSync(p).isDirectory()) {
      const hit = findSample(p, name, depth + 1)
      if (hit) return hit
    }
  }
  return undefined
}

/** Executable files directly in `dir` whose names match `re`. */
function executables(dir: string, re: RegExp): Record<string, string> {
  const out: Record<string, string> = {}
  if (!existsSync(dir)) return out
  for (const e of readdirSync(dir).sort()) {
    const p = join(dir, e)
    const st = statSync(p)
    if (st.isFile() && (st.mode & 0o111) !== 0 && re.test(e)) out[e] = p
  }
  return out
}

async function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, what: string): Promise<void> {
  const r = await execa(cmd, args, { cwd, env, reject: false, all: true })
  if (r.exitCode !== 0) {
    const tail = (r.all ?? r.message).trim().split('\n').slice(-8).join(' | ')
    throw failed(`${what} failed (exit ${String(r.exitCode ?? 'none')}): ${tail}`)
  }
}

async function gitState(dir: string): Promise<{ commit: string | null; dirty: boolean | null }> {
  const head = await execa('git', ['-C', dir, 'rev-parse', 'HEAD'], { reject: false })
  if (head.exitCode !== 0) return { commit: null, dirty: null }
  const st = await execa('git', ['-C', dir, 'status', '--porcelain', '--untracked-files=no'], { reject: false })
  return { commit: head.stdout.trim(), dirty: st.exitCode === 0 ? st.stdout.trim() !== '' : null }
}

/**
 * Builds a user's own nccl-tests or cuda-samples checkout with make (CUDA_HOME, NCCL_HOME,
 * MPI=1 on request), records its git commit and registers its binaries as an instrument
 * in `<cache>/instruments.json`.
 */
export async function buildUpstream(srcDir: string, opts: BuildUpstreamOptions = {}): Promise<RegisteredInstrument> {
  const dir = resolve(srcDir)
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw badInput(`--upstream-src: ${srcDir} is not a folder`)
  const kind = upstreamKind(dir)
  if (!kind)
    throw badInput(
      `--upstream-src: ${srcDir} is neither an nccl-tests checkout (src/all_reduce.cu) nor cuda-samples (Samples/)`,
    )
  const env = opts.env ?? process.env
  const nvcc = await findNvcc(env)
  const jobs = String(opts.jobs ?? availableParallelism())
  const vars: Record<string, string> = { CUDA_HOME: nvcc.cudaHome }
  let binaries: Record<string, string>
  if (kind === 'nccl-tests') {
    if (opts.ncclHome) vars.NCCL_HOME = resolve(opts.ncclHome)
    if (opts.mpi) vars.MPI = '1'
    if (opts.mpi && opts.mpiHome) vars.MPI_HOME = resolve(opts.mpiHome)
    await run('make', ['-j', jobs, ...Object.entries(vars).map(([k, v]) => `${k}=${v}`)], dir, env, `make in ${dir}`)
    binaries = executables(join(dir, 'build'), /_perf(_mpi)?$/)
  } else {
    const sample = findSample(join(dir, 'Samples'), P2P_SAMPLE)
    if (!sample) throw badInput(`--upstream-src: no ${P2P_SAMPLE}.cu under ${join(dir, 'Samples')}`)
    vars.CUDA_PATH = nvcc.cudaHome
    if (existsSync(join(sample, 'Makefile'))) {
      await run(
        'make',
        ['-j', jobs, ...Object.entries(vars).map(([k, v]) => `${k}=${v}`)],
        sample,
        env,
        `make in ${sample}`,
      )
      binaries = executables(sample, new RegExp(`^${P2P_SAMPLE}$`))
    } else {
      const build = join(sample, 'build')
      await run(
        'cmake',
        ['-S', sample, '-B', build, `-DCMAKE_CUDA_COMPILER=${nvcc.path}`],
        sample,
        env,
        `cmake in ${sample}`,
      )
      await run('make', ['-j', jobs], build, env, `make in ${build}`)
      binaries = executables(build, new RegExp(`^${P2P_SAMPLE}$`))
    }
  }
  if (Object.keys(binaries).length === 0) throw failed(`${kind} in ${dir} built, but no binaries were found`)
  const entry: RegisteredInstrument = {
    name: kind,
    kind: 'upstream',
    dir,
    ...(await gitState(dir)),
    binaries,
    built: new Date().toISOString(),
    make: vars,
  }
  registerInstrument(cacheRoot(opts.cacheDir, env), entry)
  return entry
}
