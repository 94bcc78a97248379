/**
 * The native benches, compiled for one arch with the real nvcc (skipped where there is none),
 * run here without a GPU: exit codes and messages, and NCCL loading through a stub
 * libnccl.so.2 built with the C compiler.
 */
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { execa } from 'execa'
import type { NativeBuild } from '../../src/build/index.ts'
import { buildNative, findNvcc, readRegistry } from '../../src/build/index.ts'
import type { Parser } from '../../src/parsers/index.ts'
import { parserById, parseText } from '../../src/parsers/index.ts'
import { tmp } from '../helpers.ts'
import { systemSkip } from '../system.ts'

const nvccSkip = systemSkip(
  await findNvcc().then(
    () => false as const,
    (e: Error) => `${e.message}: native bench tests skipped`,
  ),
)
const ccSkip = systemSkip(
  (await execa('cc', ['--version'], { reject: false })).exitCode !== 0 &&
    'no C compiler (cc): stub libnccl tests skipped',
)
const gpu = (await execa('nvidia-smi', ['-L'], { reject: false })).exitCode === 0
const noGpuSkip = systemSkip(gpu && 'a GPU is present here: the no-GPU exit path is not reachable')
const pythonSkip = systemSkip(
  (await execa('python3', ['--version'], { reject: false })).exitCode !== 0 &&
    'python3 absent: the site-packages step of the NCCL search cannot be set up',
)
for (const s of [nvccSkip, ccSkip, noGpuSkip]) if (s) console.log(s)

const cache = tmp('gpucomm-native-cache-')
let building: Promise<NativeBuild> | undefined
/** Both benches for sm_90 only (fast), built once for every test of this file. */
const built = (): Promise<NativeBuild> => (building ??= buildNative({ arch: ['sm_90'], cacheDir: cache }))

/** Runs a binary with exactly `env` (plus PATH and HOME), never throwing. */
async function run(file: string, args: string[], env: Record<string, string> = {}) {
  const r = await execa(file, args, {
    reject: false,
    extendEnv: false,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    timeout: 60_000,
  })
  return { code: r.exitCode, stdout: r.stdout, stderr: r.stderr }
}

test('gpucomm build compiles both benches for one arch, then hits its cache', { skip: nvccSkip }, async () => {
  const b = await built()
  assert.equal(b.cached, false)
  console.log(`native benches compiled for sm_90 in ${b.compileS.toFixed(1)} s (both, in parallel)`)
  for (const p of [b.p2pBench, b.collBench]) {
    assert.ok(p.startsWith(join(cache, 'native', b.hash)), p)
    assert.ok((statSync(p).mode & 0o111) !== 0, `${p} is executable`)
  }
  assert.deepEqual(b.arch, ['sm_90'])
  const again = await buildNative({ arch: ['sm_90'], cacheDir: cache })
  assert.equal(again.cached, true)
  assert.equal(again.compileS, 0)
  assert.deepEqual([again.p2pBench, again.collBench, again.hash], [b.p2pBench, b.collBench, b.hash])
  const reg = readRegistry(cache).instruments.filter((i) => i.name === 'native')
  assert.deepEqual(
    reg.map((i) => i.binaries),
    [{ p2p_bench: b.p2pBench, coll_bench: b.collBench }],
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

/** Builds a stub libnccl.so.2 in `dir/<sub>` whose ncclGetVersion reports `version`. */
async function stubNccl(dir: string, version: number, omit: string[] = []): Promise<string> {
  mkdirSync(dir, { recursive: true })
  const body = [`int ncclGetVersion(int* v) { *v = ${version}; return 0; }`]
  for (const f of STUB_FNS)
    if (!omit.includes(f))
      body.push(
        f === 'ncclGetErrorString'
          ? 'const char* ncclGetErrorString(int r) { (void)r; return "stub"; }'
          : `int ${f}(void) { return 0; }`,
      )
  writeFileSync(join(dir, 'stub.c'), `${body.join('\n')}\n`)
  const lib = join(dir, 'libnccl.so.2')
  await execa('cc', ['-shared', '-fPIC', '-o', lib, join(dir, 'stub.c')])
  return lib
}

const stubSkip = nvccSkip || ccSkip

const cxxSkip = systemSkip(
  (await execa('c++', ['--version'], { reject: false })).exitCode !== 0 &&
    'no C++ compiler (c++): the host test of the data pattern is skipped',
)

/** The lines of the host-compiled test of native/coll_values.h and native/p2p_plan.h, split in fields. */
let hostLines: Promise<string[][]> | undefined
const hostTest = (): Promise<string[][]> =>
  (hostLines ??= (async () => {
    const bin = join(tmp(), 'coll_values_test')
    const here = import.meta.dirname
    await execa(
      'c++',
      ['-std=c++17', '-O2', '-Wall', '-Wextra', '-Werror', '-I', join(here, '..', '..', 'native')].concat([
        '-o',
        bin,
        join(here, 'coll_values_test.cpp'),
      ]),
    )
    const { stdout } = await execa(bin, [])
    return stdout.split('\n').map((l) => l.split(' '))
  })())
const linesOf = async (kind: string) => (await hostTest()).filter((f) => f[0] === kind)
// Started now, so the host compile runs beside the first test's nvcc build, not after it (the tests await it).
if (!cxxSkip) hostTest().catch(() => {})

test('coll_bench data: every collective, type, op and rank count 1..16 checks exact (0 wrong), in either reduction order', {
  skip: cxxSkip,
}, async () => {
  const lines = await linesOf('correct')
  const types = ['int8', 'uint8', 'int32', 'uint32', 'int64', 'uint64', 'half', 'float', 'double', 'bfloat16']
  // all_reduce and reduce_scatter × 5 ops, the other four × 1, each × 10 types × 16 rank counts × 2 orders
  assert.equal(lines.length, (2 * 5 + 4) * types.length * 16 * 2)
  for (const [, kind, type, op, n, order, wrong, total] of lines) {
    assert.equal(wrong, '0', `${kind} ${type} ${op} on ${n} ranks (${order}): ${wrong}/${total} wrong`)
    assert.ok(Number(total) > 0)
  }
  assert.deepEqual([...new Set(lines.map((f) => f[2]))], types)
})

test('coll_bench data: each misrouting is seen in every type (the old periodic pattern saw none of them)', {
  skip: cxxSkip,
}, async () => {
  const lines = await linesOf('misroute')
  assert.deepEqual(
    [...new Set(lines.map((f) => f[1]))],
    [
      'all_gather-blocks-1-5-swapped',
      'all_gather-blocks-shifted-by-4',
      'sendrecv-rank-5-from-0-not-4',
      'broadcast-from-root-4-not-0',
      'all_reduce-without-rank-4',
    ],
  )
  assert.equal(lines.length, (4 + 5) * 10, 'all_reduce without rank 4 for each of the 5 ops')
  for (const [, name, type, op, wrong, total] of lines)
    assert.ok(Number(wrong) > 0, `${name} ${type} ${op}: 0/${total} wrong, the misrouting went unseen`)
})

test('coll_bench data: an integer avg never written (0xff poison) or all zeros is wrong, compared exactly', {
  skip: cxxSkip,
}, async () => {
  const poison = await linesOf('avg-poison')
  const zero = await linesOf('avg-zero')
  assert.equal(poison.length, 2 * 6 * 4)
  assert.equal(zero.length, poison.length)
  for (const [, kind, type, n, wrong, total] of poison) assert.equal(wrong, total, `${kind} ${type} ${n} ranks`)
  // A zero is right only where the exact quotient is 0 (a sum below n): rare with inputs 0..7.
  for (const [, kind, type, n, wrong, total] of zero)
    assert.ok(Number(wrong) > 0.9 * Number(total), `${kind} ${type} ${n} ranks: ${wrong}/${total}`)
})

test('coll_bench geometry: 16-byte blocks as nccl-tests, buffer windows per iteration, the GPUs of -g', {
  skip: cxxSkip,
}, async () => {
  for (const [, kind, type, n, bytes, count, per, send, recv] of await linesOf('counts')) {
    const t = { int8: 1, half: 2, float: 4, double: 8 }[type as 'int8'] as number
    const elems = Math.floor(Number(bytes) / t)
    // nccl-tests: base = (count / nranks) & -(16 / eltSize)
    const base = kind === 'all_reduce' ? elems : Math.floor(elems / Number(n) / (16 / t)) * (16 / t)
    const total = kind === 'all_reduce' ? elems : base * Number(n)
    assert.deepEqual(
      [count, per, send, recv].map(Number),
      [total, base, kind === 'all_gather' ? base : total, kind === 'reduce_scatter' ? base : total],
      `${kind} ${type}`,
    )
  }
  // 4096-byte iterations in a 10000-byte buffer alternate between two windows; one too big stays at 0.
  assert.deepEqual(
    (await linesOf('shift')).map((f) => Number(f[4])),
    [0, 4096, 0, 4096, 0, 0],
  )
  // [local rank, -g, visible] → first GPU: 2 GPUs per task with -g 1 wraps instead of failing.
  assert.deepEqual(
    (await linesOf('gpu')).map((f) => f.slice(1).map(Number)),
    [
      [0, 1, 8, 0],
      [3, 1, 8, 3],
      [2, 1, 2, 0],
      [3, 1, 2, 1],
      [1, 2, 4, 2],
      [1, 2, 2, 0],
      [5, 2, 4, 2],
      [0, 4, 2, -1],
    ],
  )
})

test('p2p_bench batch: the smallest batch whose sample spans 20 µs (capped at 1000); bounce chunks cover the copy', {
  skip: cxxSkip,
}, async () => {
  for (const [, perCopy, k] of await linesOf('batch')) {
    const t = Number(perCopy)
    const batch = Number(k)
    assert.ok(batch === 1000 || batch * t >= 20e-6, `${t} s per copy: a batch of ${batch} spans under 20 µs`)
    assert.ok(batch <= 1000)
    if (t >= 20e-6) assert.equal(batch, 1)
  }
  assert.deepEqual(
    (await linesOf('batch')).map((f) => Number(f[2])),
    [13, 2, 1000, 1],
  )
  assert.deepEqual((await linesOf('chunk'))[0]?.slice(1).map(Number), [3, 5 << 20])
})

test('coll_bench finds a stub NCCL through NCCL_LIBRARY, prints its path and version, then exits 3 (no GPU)', {
  skip: stubSkip || noGpuSkip,
}, async () => {
  const lib = await stubNccl(tmp(), 22807)
  const r = await run((await built()).collBench, ['-n', '1'], { NCCL_LIBRARY: lib })
  assert.equal(
    r.stdout,
    `format: gpucomm-native/2\nbench: coll_bench\nnccl-library: ${lib}\nnccl-version: 22807\nnccl-version-string: 2.28.7`,
  )
  assert.equal(r.code, 3)
  assert.match(
    r.stderr.trim(),
    /^coll_bench: error: cudaGetDeviceCount\(&n\): cudaError\w+ \(.+\) at native\/common\.cuh:\d+$/,
  )
  // The header the binary really printed is what the native parser reads.
  const out = parseText(parserById('native') as Parser, r.stdout, { file: 'coll.txt' })
  assert.deepEqual([out.meta.nccl, out.meta.ncclLibrary, out.meta.bench], ['2.28.7', lib, 'coll_bench'])
})

test('coll_bench search order: NCCL_HOME/lib, the loader path, then python site-packages', {
  skip: stubSkip || noGpuSkip || pythonSkip,
}, async () => {
  const coll = (await built()).collBench
  const home = tmp()
  const viaHome = await stubNccl(join(home, 'lib'), 22105)
  const loader = tmp()
  const viaLoader = await stubNccl(loader, 21806)
  // NCCL_HOME comes before the loader path.
  let r = await run(coll, [], { NCCL_HOME: home, LD_LIBRARY_PATH: loader })
  assert.match(r.stdout, new RegExp(`nccl-library: ${viaHome}\nnccl-version: 22105\nnccl-version-string: 2.21.5`))
  r = await run(coll, [], { LD_LIBRARY_PATH: loader })
  assert.match(r.stdout, new RegExp(`nccl-library: ${viaLoader}\nnccl-version: 21806\nnccl-version-string: 2.18.6`))
  const userBase = tmp()
  const site = (
    await execa('python3', ['-c', 'import site; print(site.getusersitepackages())'], {
      reject: false,
      env: { PYTHONUSERBASE: userBase },
    })
  ).stdout.trim()
  assert.ok(site, 'python3 names its user site-packages')
  const wheel = await stubNccl(join(site, 'nvidia', 'nccl', 'lib'), 22304)
  r = await run(coll, [], { PYTHONUSERBASE: userBase })
  assert.match(r.stdout, new RegExp(`nccl-library: ${wheel}\nnccl-version: 22304`))
  assert.equal(r.code, 3)
})

test('coll_bench with only unusable NCCLs: exit 4 naming each one and why (a missing symbol, too old)', {
  skip: stubSkip,
}, async () => {
  const coll = (await built()).collBench
  const noSend = await stubNccl(tmp(), 22807, ['ncclSend'])
  // Codes before 2.9 were X*1000+Y*100+Z: 2604 is NCCL 2.6.4, older than ncclSend.
  const old = await stubNccl(join(tmp(), 'lib'), 2604)
  const r = await run(coll, [], { NCCL_LIBRARY: noSend, NCCL_HOME: join(old, '..', '..'), PYTHONUSERBASE: tmp() })
  assert.equal(r.code, 4)
  assert.match(
    r.stderr.trim(),
    new RegExp(
      `^coll_bench: error: no usable NCCL library; tried: ${noSend} \\(lacks ncclSend\\); ${join(old, '..', '..')}/lib/libnccl\\.so\\.2 \\(NCCL 2\\.6\\.4 is older than 2\\.7\\); libnccl\\.so\\.2 \\(not found\\)`,
    ),
  )
})

test('coll_bench passes over an unusable NCCL to a usable one later in the search order, and says so', {
  skip: stubSkip || noGpuSkip,
}, async () => {
  const coll = (await built()).collBench
  const system = await stubNccl(tmp(), 2604) // an old system NCCL first in the order
  const wheel = await stubNccl(tmp(), 22807)
  const r = await run(coll, ['-n', '1'], { NCCL_LIBRARY: system, LD_LIBRARY_PATH: join(wheel, '..') })
  assert.equal(r.code, 3, r.stderr) // got past loading to the (absent) GPU
  assert.match(r.stdout, new RegExp(`nccl-library: ${wheel}\nnccl-version: 22807\n`))
  assert.match(
    r.stdout,
    new RegExp(`\n# NCCL libraries passed over: ${system} \\(NCCL 2\\.6\\.4 is older than 2\\.7\\)$`),
  )
})

test('coll_bench -o avg needs NCCL 2.10: refused below it (exit 4), accepted from it', {
  skip: stubSkip || noGpuSkip,
}, async () => {
  const coll = (await built()).collBench
  const v29 = await stubNccl(tmp(), 20906)
  let r = await run(coll, ['-o', 'sum,avg'], { NCCL_LIBRARY: v29 })
  assert.equal(r.code, 4)
  assert.equal(r.stderr.trim(), `coll_bench: error: -o avg needs NCCL 2.10 or later; ${v29} is NCCL 2.9.6`)
  // Without a reducing collective avg is never used, so the same library is fine.
  r = await run(coll, ['-o', 'avg', '--coll', 'broadcast'], { NCCL_LIBRARY: v29 })
  assert.equal(r.code, 3, r.stderr)
  r = await run(coll, ['-o', 'avg'], { NCCL_LIBRARY: await stubNccl(tmp(), 21003) })
  assert.equal(r.code, 3, r.stderr)
})

test('coll_bench with no NCCL anywhere: exit 4 and one line listing every place it looked', {
  skip: nvccSkip,
}, async (t) => {
  const userBase = tmp()
  const r = await run((await built()).collBench, [], {
    NCCL_LIBRARY: '/nonexistent/libnccl.so.2',
    NCCL_HOME: '/nonexistent-home',
    PYTHONUSERBASE: userBase,
  })
  if (r.code !== 4 && /nccl-library: /.test(r.stdout)) {
    const found = r.stdout.split('\n')[2] ?? ''
    return t.skip(systemSkip(`an NCCL is installed here (${found}): the not-found path is not reachable`) as string)
  }
  assert.equal(r.code, 4)
  const lines = r.stderr.trim().split('\n')
  assert.equal(lines.length, 1)
  const line = lines[0] as string
  assert.match(
    line,
    /^coll_bench: error: NCCL library not found; tried: \/nonexistent\/libnccl\.so\.2 \(not found\); \/nonexistent-home\/lib\/libnccl\.so\.2 \(not found\); libnccl\.so\.2 \(not found\)/,
  )
  assert.ok(
    line.includes(`${userBase}/`) || !existsSync('/usr/bin/python3'),
    'the user site-packages of python3 are listed',
  )
  assert.match(line, /nvidia\/nccl\/lib\/libnccl\.so\.2 \(not found\)/)
  assert.match(line, /set NCCL_LIBRARY to libnccl\.so\.2, or NCCL_HOME, or pip install nvidia-nccl-cu1\d\)$/)
  // With no NCCL_* variables at all the search starts at the loader path.
  const bare = await run((await built()).collBench, [], { PYTHONUSERBASE: userBase })
  assert.equal(bare.code, 4)
  assert.match(
    bare.stderr.trim(),
    /^coll_bench: error: NCCL library not found; tried: libnccl\.so\.2 \(not found\); \//,
  )
})

test('coll_bench bootstrap: rank 0 creates DIR and writes the id before touching a GPU, rank 1 reads it; a lone rank 1 times out', {
  skip: stubSkip || noGpuSkip,
}, async () => {
  const coll = (await built()).collBench
  const lib = await stubNccl(tmp(), 22807)
  const dir = join(tmp(), 'raw', 'point', 'a1-g0,1.bootstrap') // its parents do not exist yet
  const rank = (r: number, extra: string[] = [], d = dir) =>
    run(coll, ['-n', '1', '--bootstrap', d, ...extra], {
      NCCL_LIBRARY: lib,
      OMPI_COMM_WORLD_RANK: String(r),
      OMPI_COMM_WORLD_SIZE: '2',
      OMPI_COMM_WORLD_LOCAL_RANK: String(r),
    })
  const r0 = await rank(0)
  assert.equal(r0.code, 3, r0.stderr)
  assert.equal(statSync(join(dir, 'nccl-unique-id')).size, 128, 'the 128-byte ncclUniqueId')
  // Exit 3 (no GPU) is past the bootstrap: rank 1 read the id. Had it not, it would end with
  // exit 5 after its timeout; no clock is read (a loaded machine once took 10 s to get there).
  const r1 = await rank(1, ['--bootstrap-timeout', '20'])
  assert.equal(r1.code, 3, `rank 1 got past the bootstrap to the (absent) GPU: ${r1.stderr}`)
  assert.equal(r1.stdout, '', 'only rank 0 prints')
  const lone = await rank(1, ['--bootstrap-timeout', '1'], join(tmp(), 'empty'))
  assert.equal(lone.code, 5)
  assert.match(
    lone.stderr.trim(),
    /^coll_bench: error: bootstrap: no unique id in .*empty\/nccl-unique-id after 1 s \(is rank 0 running\?\)$/,
  )
  const none = await run(coll, ['-n', '1'], { NCCL_LIBRARY: lib, OMPI_COMM_WORLD_RANK: '0', OMPI_COMM_WORLD_SIZE: '2' })
  assert.equal(none.code, 2)
  assert.match(none.stderr, /2 processes: --bootstrap DIR is required/)
})

test('coll_bench bootstrap with a stale id file: both ranks stop at once with a clear error, neither hangs', {
  skip: stubSkip || noGpuSkip,
}, async () => {
  const coll = (await built()).collBench
  const lib = await stubNccl(tmp(), 22807)
  const dir = tmp()
  const stale = join(dir, 'nccl-unique-id')
  writeFileSync(stale, Buffer.alloc(128, 7)) // a previous launch's id, ten minutes old
  const old = new Date(Date.now() - 600_000)
  utimesSync(stale, old, old)
  const rank = (r: number, env: Record<string, string> = {}) =>
    run(coll, ['-n', '1', '--bootstrap', dir, '--bootstrap-timeout', '60'], {
      NCCL_LIBRARY: lib,
      OMPI_COMM_WORLD_RANK: String(r),
      OMPI_COMM_WORLD_SIZE: '2',
      ...env,
    })
  // Neither waits for the 60 s timeout: each ends on the stale file, as its message says (a
  // timeout has its own message, 'no unique id … after 60 s').
  const [r0, r1] = await Promise.all([rank(0), rank(1)])
  assert.equal(r0.code, 5)
  assert.equal(
    r0.stderr.trim(),
    `coll_bench: error: bootstrap: ${stale} already exists (left by an earlier launch): use a fresh --bootstrap DIR or remove the file`,
  )
  assert.equal(r1.code, 5)
  assert.match(
    r1.stderr.trim(),
    /^coll_bench: error: bootstrap: .*nccl-unique-id is \d+ s old, older than the bootstrap timeout \(60 s\): left by an earlier launch/,
  )
  // Under a launcher that names the job step, the id file is that step's own: the stale one is never read.
  const step = { SLURM_JOB_ID: '4242', SLURM_STEP_ID: '3' }
  const [s0, s1] = await Promise.all([rank(0, step), rank(1, step)])
  assert.equal(s0.code, 3, s0.stderr)
  assert.equal(s1.code, 3, `rank 1 read this step's id and got to the (absent) GPU: ${s1.stderr}`)
  assert.equal(statSync(join(dir, 'nccl-unique-id.4242.3')).size, 128)
})
