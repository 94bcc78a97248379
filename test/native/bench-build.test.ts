/**
 * The native benches, compiled for one arch with the real nvcc (skipped where there is none)
 * into the tests' cache, run here without a GPU: the build and its cache, and the exit paths
 * of the binaries before any NCCL (no GPU, usage, bad flags). The tests spawn the benches (through
 * _native.ts run), so this file keeps its own process.
 */
import assert from 'node:assert/strict'
import { statSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { test } from 'node:test'
import { execa } from 'execa'
import { buildNative, ccbinOf, findNvcc, hostToolNames, readRegistry } from '../../src/build/index.ts'
import { COLD_HINT } from './_cache.ts'
import { built, nativeCache, noGpuSkip, nvccSkip, run } from './_native.ts'

for (const s of [nvccSkip, noGpuSkip]) if (s) console.log(s)

test('gpucomm build compiles both benches for one arch, then hits its cache', { skip: nvccSkip }, async () => {
  const cache = nativeCache
  const b = await built()
  // A fresh checkout (CI: npm ci empties node_modules) compiles; a second run finds the same key built.
  if (b.cached)
    console.log(
      `native benches for sm_90 found in the tests' cache (key ${b.hash}, built by an earlier run or a file beside this one): no nvcc compile here; ${COLD_HINT}`,
    )
  else {
    assert.ok(b.compileS > 0)
    console.log(`native benches compiled cold for sm_90 in ${b.compileS.toFixed(1)} s (both, in parallel)`)
  }
  const dir = join(cache, 'native', b.hash)
  for (const p of [b.p2pBench, b.collBench]) {
    assert.ok(p.startsWith(dir), p)
    assert.ok((statSync(p).mode & 0o111) !== 0, `${p} is executable`)
  }
  assert.deepEqual(b.arch, ['sm_90'])
  const again = await buildNative({ arch: ['sm_90'], cacheDir: cache })
  assert.equal(again.cached, true)
  assert.equal(again.compileS, 0)
  assert.deepEqual([again.p2pBench, again.collBench, again.hash], [b.p2pBench, b.collBench, b.hash])
  // The cache holds the builds of earlier sources too: this build's folder is registered once.
  const reg = readRegistry(cache).instruments.filter((i) => i.name === 'native' && i.dir === dir)
  assert.deepEqual(
    reg.map((i) => i.binaries),
    [{ p2p_bench: b.p2pBench, coll_bench: b.collBench }],
  )
})
/** The host compilers `nvcc --dryrun` would run for a .cu to an executable under `env` (each step's program). */
async function dryrunHostTools(env: Record<string, string>): Promise<string[]> {
  const nvcc = (await findNvcc()).path
  const r = await execa(nvcc, ['--dryrun', '-o', 'x', 'x.cu'], { env, extendEnv: false })
  const own = new Set(['cicc', 'cudafe++', 'fatbinary', 'nvlink', 'ptxas', 'rm'])
  const tools = r.stderr
    .split('\n')
    .map((l) => /^#\$ (\S+)/.exec(l)?.[1]?.replaceAll('"', ''))
    .filter((t): t is string => t !== undefined && !t.includes('=') && !own.has(basename(t)))
  return [...new Set(tools)]
}

test('the cache key hashes the host compilers nvcc runs: the same ones nvcc --dryrun shows', {
  skip: nvccSkip,
}, async () => {
  const b = await built()
  const gxx = b.host.tools.find((t) => t.name === 'g++')?.path
  assert.ok(gxx, 'g++ on PATH (nvcc links with it)')
  const base = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' }
  const envs: Record<string, string>[] = [
    base,
    { ...base, NVCC_CCBIN: dirname(gxx) },
    { ...base, NVCC_CCBIN: join(dirname(gxx), 'gcc') },
    { ...base, NVCC_CCBIN: join(dirname(gxx), 'gcc'), NVCC_APPEND_FLAGS: `-ccbin ${gxx}` },
  ]
  for (const env of envs)
    assert.deepEqual(
      (await dryrunHostTools(env)).sort(),
      hostToolNames(ccbinOf(env)).sort(),
      `NVCC_CCBIN=${env.NVCC_CCBIN ?? ''}`,
    )
})

test('p2p_bench without a GPU: exit 3 and one line with the CUDA error name and file:line', {
  skip: nvccSkip || noGpuSkip,
}, async () => {
  const r = await run((await built()).p2pBench, ['-n', '2'])
  assert.equal(r.code, 3)
  const lines = r.stderr.trim().split('\n')
  assert.equal(lines.length, 1)
  assert.match(
    lines[0] as string,
    /^p2p_bench: error: cudaGetDeviceCount\(&n\): cudaError\w+ \([^)]+\) at native\/common\.cuh:\d+$/,
  )
  assert.equal(r.stdout, '', 'nothing on stdout before the GPUs are known')
})

test('usage: -h exits 0 with the usage, bad flags and values exit 2 before any CUDA call', {
  skip: nvccSkip,
}, async () => {
  const b = await built()
  const h = await run(b.p2pBench, ['-h'])
  assert.equal(h.code, 0)
  assert.match(h.stdout, /^usage: p2p_bench /)
  for (const [file, args, msg] of [
    [b.p2pBench, ['-b', '4X'], /^p2p_bench: error: -b: not a size: '4X'$/],
    [b.p2pBench, ['--copy', 'dma'], /--copy: 'dma' is not one of ce,sm/],
    [b.p2pBench, ['-b', '1M', '-e', '4'], /the largest size \(4\) is below the smallest \(1048576\)/],
    [b.collBench, ['--frobnicate'], /^coll_bench: error: unknown flag '--frobnicate'/],
    [b.collBench, ['-d', 'float,fp4'], /-d: 'fp4' is not one of/],
    [b.collBench, ['-n'], /-n needs a value/],
  ] as const) {
    const r = await run(file, [...args])
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`)
    assert.match(r.stderr.trim(), msg)
  }
  const ch = await run(b.collBench, ['--help'])
  assert.equal(ch.code, 0)
  assert.match(ch.stdout, /^usage: coll_bench /)
})
