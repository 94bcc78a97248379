/**
 * How coll_bench (built with the real nvcc into the tests' cache) finds and judges an NCCL,
 * through stub libnccl.so.2 libraries built with cc, run here without a GPU: the search order,
 * unusable libraries and why, -o avg's version floor, and none found at all.
 */
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { execa } from 'execa'
import type { Parser } from '../../src/parsers/index.ts'
import { parserById, parseText } from '../../src/parsers/index.ts'
import { tmp } from '../helpers.ts'
import { systemSkip } from '../system.ts'
import { built, noGpuSkip, nvccSkip, run, stubNccl, stubSkip } from './_native.ts'

const pythonSkip = systemSkip(
  (await execa('python3', ['--version'], { reject: false })).exitCode !== 0 &&
    'python3 absent: the site-packages step of the NCCL search cannot be set up',
)
for (const s of [stubSkip, noGpuSkip]) if (s) console.log(s)

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
