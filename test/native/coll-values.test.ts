/**
 * The host side of the benches' data, without nvcc or a GPU: native/coll_values.h (the values
 * each collective writes and checks) and native/p2p_plan.h (batches, chunks), compiled with c++
 * into the tests' cache (test/native/coll_values_test.cpp) and run; its lines are checked here.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { execa } from 'execa'
import { nativeSources } from '../../src/build/index.ts'
import { COLD_HINT, compiled } from './_cache.ts'
import { cxxSkip } from './_native.ts'

if (cxxSkip) console.log(cxxSkip)

/** The lines of the host-compiled test of native/coll_values.h and native/p2p_plan.h, split in fields. */
let hostLines: Promise<string[][]> | undefined
const hostTest = (): Promise<string[][]> =>
  (hostLines ??= (async () => {
    const native = join(import.meta.dirname, '..', '..', 'native')
    const source = join(import.meta.dirname, 'coll_values_test.cpp')
    const flags = ['-std=c++17', '-O2', '-Wall', '-Wextra', '-Werror', '-I', native]
    // Keyed by c++'s version, the flags, the test and every header of native/ (it includes two).
    const bin = await compiled('c++', flags, source, 'coll_values_test', nativeSources(native))
    console.log(
      bin.cached
        ? `coll_values_test found in the tests' cache: no c++ compile; ${COLD_HINT}`
        : 'coll_values_test compiled',
    )
    const { stdout } = await execa(bin.path, [])
    return stdout.split('\n').map((l) => l.split(' '))
  })())
const linesOf = async (kind: string) => (await hostTest()).filter((f) => f[0] === kind)
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
