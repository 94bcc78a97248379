/** gpucomm build without a real GPU toolchain: finding nvcc, cache keys, upstream make builds, CLI errors. */
import assert from 'node:assert/strict'
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { execa } from 'execa'
import type { HostCompiler } from '../../src/build/index.ts'
import {
  buildKey,
  buildNative,
  buildUpstream,
  ccbinOf,
  findNvcc,
  gencodeFlags,
  hostToolNames,
  nativeSources,
  readRegistry,
  registryPath,
} from '../../src/build/index.ts'
import { HarnessError } from '../../src/errors/index.ts'
import { bin, tmp } from '../helpers.ts'
import { systemSkip } from '../system.ts'

/** A fake CUDA toolkit whose nvcc prints a version banner like the real one. */
function fakeCuda(release: string): string {
  const home = tmp('gpucomm-fakecuda-')
  mkdirSync(join(home, 'bin'))
  const nvcc = join(home, 'bin', 'nvcc')
  writeFileSync(
    nvcc,
    `#!/bin/sh\necho "nvcc: NVIDIA (R) Cuda compiler driver"\necho "Cuda compilation tools, release ${release.split('.').slice(0, 2).join('.')}, V${release}"\n`,
  )
  chmodSync(nvcc, 0o755)
  return home
}

const hasTool = async (t: string): Promise<boolean> => (await execa(t, ['--version'], { reject: false })).exitCode === 0

test('findNvcc: no nvcc on PATH and CUDA_HOME unset is a clear error (exit 1)', async () => {
  const empty = tmp()
  await assert.rejects(findNvcc({ PATH: empty }), (e: unknown) => {
    assert.ok(e instanceof HarnessError)
    assert.equal(e.code, 1)
    assert.match(
      e.message,
      /^nvcc not found in \$PATH \(CUDA_HOME is not set\): install the CUDA toolkit and set CUDA_HOME/,
    )
    return true
  })
  await assert.rejects(
    findNvcc({ PATH: empty, CUDA_HOME: empty }),
    new RegExp(`nvcc not found in \\$CUDA_HOME/bin \\(${empty}/bin\\)`),
  )
})

test('findNvcc: CUDA_HOME wins over PATH; the version comes from nvcc --version', async () => {
  const a = fakeCuda('12.4.131')
  const b = fakeCuda('13.0.88')
  const n = await findNvcc({ CUDA_HOME: a, PATH: join(b, 'bin') })
  assert.equal(n.path, join(a, 'bin', 'nvcc'))
  assert.equal(n.version, '12.4.131')
  assert.equal(n.cudaHome, a)
  assert.equal((await findNvcc({ PATH: `${tmp()}:${join(b, 'bin')}` })).version, '13.0.88')
})

test('gpucomm build without nvcc: exit 1 and one line saying what to do', async () => {
  const r = await bin(['build'], { env: { PATH: tmp(), CUDA_HOME: '' } })
  assert.equal(r.code, 1)
  assert.match(r.stderr, /^gpucomm: nvcc not found in \$PATH \(CUDA_HOME is not set\)/)
  assert.equal(r.stderr.trim().split('\n').length, 1)
  assert.equal(r.stdout, '')
})

test('gpucomm build --arch rejects a malformed arch (exit 2)', async () => {
  const r = await bin(['build', '--arch', 'hopper', '--cache', tmp()], { env: { CUDA_HOME: fakeCuda('13.0.88') } })
  assert.equal(r.code, 2)
  assert.match(r.stderr, /--arch: "hopper" is not an arch like sm_90/)
})

test('cache key: changes with any source byte, the nvcc version, the arches and the flags', () => {
  const d = tmp()
  const src = join(d, 'a.cu')
  writeFileSync(src, 'int main() { return 0; }\n')
  const h: HostCompiler = { ccbin: null, tools: [], nvccEnv: {} }
  const k = buildKey([src], 'V13.0.88', ['sm_90'], ['-O3'], h)
  assert.match(k, /^[0-9a-f]{16}$/)
  assert.equal(buildKey([src], 'V13.0.88', ['sm_90'], ['-O3'], h), k)
  assert.notEqual(buildKey([src], 'V13.0.89', ['sm_90'], ['-O3'], h), k)
  assert.notEqual(buildKey([src], 'V13.0.88', ['sm_100'], ['-O3'], h), k)
  assert.notEqual(buildKey([src], 'V13.0.88', ['sm_90'], ['-O2'], h), k)
  writeFileSync(src, 'int main() { return 1; }\n')
  assert.notEqual(buildKey([src], 'V13.0.88', ['sm_90'], ['-O3'], h), k)
})

/** Writes an executable shell script `name` into `dir`. */
function script(dir: string, name: string, body: string): void {
  writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`)
  chmodSync(join(dir, name), 0o755)
}

test('buildNative: a new g++ version or NVCC_APPEND_FLAGS misses the cache; the same inputs hit it', async () => {
  // A fake toolchain on PATH: nvcc writes each -o target; gcc and g++ only print their versions.
  const cuda = fakeCuda('13.0.88')
  script(
    join(cuda, 'bin'),
    'nvcc',
    [
      'if [ "$1" = --version ]; then echo "Cuda compilation tools, release 13.0, V13.0.88"; exit 0; fi',
      'while [ $# -gt 0 ]; do if [ "$1" = -o ]; then echo built > "$2"; chmod +x "$2"; fi; shift; done',
    ].join('\n'),
  )
  script(join(cuda, 'bin'), 'gcc', 'echo "gcc (Fake) 12.2.0"')
  script(join(cuda, 'bin'), 'g++', 'echo "g++ (Fake) 12.2.0"')
  const cacheDir = tmp()
  const env = { PATH: `${join(cuda, 'bin')}:/usr/bin:/bin` }
  const build = (e: NodeJS.ProcessEnv = env) => buildNative({ arch: ['sm_90'], cacheDir, env: e })
  const first = await build()
  assert.equal(first.cached, false)
  assert.deepEqual(
    first.host.tools.map((t) => [t.path, t.versionText]),
    [
      [join(cuda, 'bin', 'gcc'), 'gcc (Fake) 12.2.0'],
      [join(cuda, 'bin', 'g++'), 'g++ (Fake) 12.2.0'],
    ],
  )
  const record = JSON.parse(readFileSync(join(cacheDir, 'native', first.hash, 'build.json'), 'utf8'))
  assert.deepEqual(record.host, first.host, 'build.json names the host compilers and the NVCC_* variables')
  const same = await build()
  assert.deepEqual([same.cached, same.hash], [true, first.hash])
  // A hit whose build the registry lost (a concurrent writer, a removed file) is registered again.
  rmSync(registryPath(cacheDir))
  assert.equal((await build()).cached, true)
  assert.deepEqual(
    readRegistry(cacheDir).instruments.map((i) => [i.dir, i.built]),
    [[join(cacheDir, 'native', first.hash), record.built]],
  )
  // An upgraded g++ compiles the host code differently: a new key, compiled again.
  script(join(cuda, 'bin'), 'g++', 'echo "g++ (Fake) 13.1.0"')
  const upgraded = await build()
  assert.equal(upgraded.cached, false)
  assert.notEqual(upgraded.hash, first.hash)
  const flagged = await build({ ...env, NVCC_APPEND_FLAGS: '-DNDEBUG' })
  assert.equal(flagged.cached, false)
  assert.notEqual(flagged.hash, upgraded.hash)
  assert.equal(flagged.host.nvccEnv.NVCC_APPEND_FLAGS, '-DNDEBUG')
})

test('host compiler: -ccbin in NVCC_*_FLAGS beats NVCC_CCBIN; gcc brings its g++ (as nvcc --dryrun shows)', () => {
  assert.equal(ccbinOf({}), null)
  assert.equal(ccbinOf({ NVCC_CCBIN: '/opt/gcc-13/bin/gcc' }), '/opt/gcc-13/bin/gcc')
  assert.equal(ccbinOf({ NVCC_CCBIN: 'g++', NVCC_APPEND_FLAGS: '-O2 -ccbin /usr/bin/c++' }), '/usr/bin/c++')
  assert.equal(ccbinOf({ NVCC_PREPEND_FLAGS: '--compiler-bindir=/x/clang++' }), '/x/clang++')
  assert.deepEqual(hostToolNames(null), ['gcc', 'g++'])
  assert.deepEqual(hostToolNames('/opt/gcc-13/bin/gcc'), ['/opt/gcc-13/bin/gcc', '/opt/gcc-13/bin/g++'])
  assert.deepEqual(hostToolNames('gcc'), ['gcc', 'g++'])
  assert.deepEqual(hostToolNames('/usr/bin/c++'), ['/usr/bin/c++'])
  const dir = tmp()
  assert.deepEqual(hostToolNames(dir), [join(dir, 'gcc'), join(dir, 'g++')])
})

test('cache key sources: every file the benches #include from native/, transitively, is hashed', () => {
  const hashed = nativeSources().map((f) => f.split('/').pop() as string)
  const seen = new Set<string>()
  const walk = (name: string): void => {
    if (seen.has(name)) return
    seen.add(name)
    const text = readFileSync(new URL(`../../native/${name}`, import.meta.url), 'utf8')
    for (const m of text.matchAll(/^#include "([^"]+)"/gm)) walk(m[1] as string)
  }
  for (const main of ['p2p_bench.cu', 'coll_bench.cu']) walk(main)
  assert.ok(seen.size >= 6, `the benches and their headers: ${[...seen].join(', ')}`)
  for (const f of seen)
    assert.ok(hashed.includes(f), `${f} is compiled but not in the cache key's sources (${hashed.join(', ')})`)
})

test('gencode flags: SASS per arch, PTX of the highest only for fatbins', () => {
  assert.deepEqual(gencodeFlags(['sm_90'], false), ['-gencode', 'arch=compute_90,code=sm_90'])
  const fat = gencodeFlags(['sm_80', 'sm_120', 'sm_90'], true)
  assert.deepEqual(fat.slice(-2), ['-gencode', 'arch=compute_120,code=compute_120'])
  assert.equal(fat.length, 8)
})

const makeSkip = systemSkip(
  !((await hasTool('make')) && (await hasTool('git'))) && 'make or git not installed: upstream build test skipped',
)
if (makeSkip) console.log(makeSkip)

test('--upstream-src: make with CUDA_HOME, NCCL_HOME, MPI=1; commit recorded; binaries registered', {
  skip: makeSkip,
}, async () => {
  const cuda = fakeCuda('13.0.88')
  const src = tmp('gpucomm-nccl-tests-')
  mkdirSync(join(src, 'src'))
  writeFileSync(join(src, 'src', 'all_reduce.cu'), '// placeholder of a checkout layout\n')
  // A Makefile that writes the variables make received into the "binaries" it builds.
  writeFileSync(
    join(src, 'Makefile'),
    'all:\n\tmkdir -p build\n\tfor b in all_reduce_perf all_gather_perf; do printf "#!/bin/sh\\necho CUDA_HOME=$(CUDA_HOME) NCCL_HOME=$(NCCL_HOME) MPI=$(MPI)\\n" > build/$$b; chmod +x build/$$b; done\n\ttouch build/verifiable.o\n',
  )
  const git = (...a: string[]) =>
    execa('git', ['-C', src, ...a], {
      env: { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' },
    })
  await git('init', '-q')
  await git('add', 'Makefile', 'src')
  await git('commit', '-qm', 'x')
  const commit = (await git('rev-parse', 'HEAD')).stdout.trim()
  const cache = tmp()
  const nccl = tmp('gpucomm-nccl-home-')
  const u = await buildUpstream(src, {
    ncclHome: nccl,
    mpi: true,
    cacheDir: cache,
    env: { ...process.env, CUDA_HOME: cuda },
    jobs: 1,
  })
  assert.equal(u.name, 'nccl-tests')
  assert.equal(u.commit, commit)
  assert.equal(u.dirty, false)
  assert.deepEqual(Object.keys(u.binaries), ['all_gather_perf', 'all_reduce_perf'])
  const out = (await execa(u.binaries.all_reduce_perf as string)).stdout
  assert.equal(out, `CUDA_HOME=${cuda} NCCL_HOME=${nccl} MPI=1`)
  const reg = readRegistry(cache)
  assert.deepEqual(
    reg.instruments.map((i) => [i.name, i.dir, i.commit]),
    [['nccl-tests', src, commit]],
  )
  assert.equal(JSON.parse(readFileSync(join(cache, 'instruments.json'), 'utf8')).schema, 1)
  // Building again replaces the entry instead of adding a second one.
  await buildUpstream(src, { cacheDir: cache, env: { ...process.env, CUDA_HOME: cuda }, jobs: 1 })
  assert.equal(readRegistry(cache).instruments.length, 1)
})

test('--upstream-src on a folder that is no checkout: exit 2', async () => {
  await assert.rejects(
    buildUpstream(tmp()),
    (e: unknown) => e instanceof HarnessError && e.code === 2 && /neither an nccl-tests checkout/.test(e.message),
  )
})
