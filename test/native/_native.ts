/**
 * What the native bench tests share: the skips (no nvcc, cc, c++ or python3; a GPU present),
 * the benches built once for sm_90 into the tests' cache, a runner with an exact environment,
 * and stub libnccl.so.2 libraries built with cc.
 */
import { join } from 'node:path'
import { execa } from 'execa'
import type { NativeBuild } from '../../src/build/index.ts'
import { buildNative, findNvcc } from '../../src/build/index.ts'
import { systemSkip } from '../system.ts'
import { sharedLib, TEST_CACHE, versionOf, withLock } from './_cache.ts'

export const nvccSkip = systemSkip(
  await findNvcc().then(
    () => false as const,
    (e: Error) => `${e.message}: native bench tests skipped`,
  ),
)
export const ccSkip = systemSkip(
  (await versionOf('cc')) === undefined && 'no C compiler (cc): stub libnccl tests skipped',
)
export const cxxSkip = systemSkip(
  (await versionOf('c++')) === undefined && 'no C++ compiler (c++): the host test of the data pattern is skipped',
)
const gpu = (await execa('nvidia-smi', ['-L'], { reject: false })).exitCode === 0
export const noGpuSkip = systemSkip(gpu && 'a GPU is present here: the no-GPU exit path is not reachable')
/** Tests of coll_bench loading NCCL: they need the benches and cc. */
export const stubSkip = nvccSkip || ccSkip

/** The cache the benches are built into; the product's key (src/build buildKey) names each build in it. */
export const nativeCache = join(TEST_CACHE, 'native')

let building: Promise<NativeBuild> | undefined
/**
 * Both benches for sm_90 only (fast), built once for every test of a file, and once for all
 * files running at once: one holds the cache's lock and compiles, the others find its build.
 * `cached` says which path this process took (false: it ran nvcc).
 */
export const built = (): Promise<NativeBuild> =>
  (building ??= withLock(nativeCache, () => buildNative({ arch: ['sm_90'], cacheDir: nativeCache })))

/** Runs a binary with exactly `env` (plus PATH and HOME), never throwing. */
export async function run(file: string, args: string[], env: Record<string, string> = {}) {
  const r = await execa(file, args, {
    reject: false,
    extendEnv: false,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    timeout: 60_000,
  })
  return { code: r.exitCode, stdout: r.stdout, stderr: r.stderr }
}

const STUB_FNS = [
  'ncclGetErrorString',
  'ncclGetUniqueId',
  'ncclCommInitRank',
  'ncclCommDestroy',
  'ncclGroupStart',
  'ncclGroupEnd',
  'ncclAllReduce',
  'ncclBroadcast',
  'ncclAllGather',
  'ncclReduceScatter',
  'ncclSend',
  'ncclRecv',
]

/** Builds a stub libnccl.so.2 in `dir` whose ncclGetVersion reports `version`. */
export async function stubNccl(dir: string, version: number, omit: string[] = []): Promise<string> {
  const body = [`int ncclGetVersion(int* v) { *v = ${version}; return 0; }`]
  for (const f of STUB_FNS)
    if (!omit.includes(f))
      body.push(
        f === 'ncclGetErrorString'
          ? 'const char* ncclGetErrorString(int r) { (void)r; return "stub"; }'
          : `int ${f}(void) { return 0; }`,
      )
  return sharedLib(dir, 'libnccl.so.2', `${body.join('\n')}\n`)
}
