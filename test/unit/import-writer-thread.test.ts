/**
 * Which thread writes an import's parts (src/importer/_import.ts): inputs under THREAD_MIN_BYTES
 * together are written on the importing thread (no worker starts); at the threshold and over it,
 * in memory or on disk, a writer thread does. Threads are counted on node's `worker_threads`
 * diagnostics channel, published for every Worker created. The inputs are a real nccl-tests
 * fixture, padded with blank lines (no row more) to sizes counted here.
 */
import assert from 'node:assert/strict'
import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { type ImportInput, importFiles, THREAD_MIN_BYTES } from '../../src/importer/index.ts'
import { FIXTURES, tmp } from '../helpers.ts'

const FIXTURE = join(FIXTURES, 'nccl-tests', 'a100-sxm4-8gpu-single-process-g8-v2.13.txt')
const TEXT = readFileSync(FIXTURE)

/** TEXT followed by blank lines (64 KiB at most each) to exactly `size` bytes. */
function paddedTo(size: number): Buffer {
  const lines: string[] = []
  for (let left = size - TEXT.length; left > 0; left -= 1 << 16)
    lines.push(`${' '.repeat(Math.min(left, 1 << 16) - 1)}\n`)
  const b = Buffer.concat([TEXT, Buffer.from(lines.join(''))])
  assert.equal(b.length, size)
  return b
}

/** The worker threads started while `inputs` are imported into a new set, and the rows. */
async function threadsFor(inputs: ImportInput[]): Promise<{ threads: number; rows: number }> {
  let threads = 0
  const count = () => {
    threads++
  }
  subscribe('worker_threads', count)
  try {
    const s = await importFiles(inputs, { out: join(tmp(), 'set'), command: ['test'] })
    return { threads, rows: s.rows }
  } finally {
    unsubscribe('worker_threads', count)
  }
}

test('an import from memory under THREAD_MIN_BYTES starts no thread; at the threshold one writer thread', async () => {
  assert.ok(TEXT.length < THREAD_MIN_BYTES)
  const small = await threadsFor([{ path: '-', data: TEXT }])
  assert.ok(small.rows > 0)
  assert.equal(small.threads, 0)
  const under = await threadsFor([{ path: '-', data: paddedTo(THREAD_MIN_BYTES - 1) }])
  assert.deepEqual(under, { threads: 0, rows: small.rows })
  const at = await threadsFor([{ path: '-', data: paddedTo(THREAD_MIN_BYTES) }])
  assert.deepEqual(at, { threads: 1, rows: small.rows })
})

test('an import of files counts their sizes on disk: the fixture alone starts no thread, a copy padded past the threshold one', async () => {
  const small = await threadsFor([{ path: FIXTURE }])
  assert.ok(small.rows > 0)
  assert.equal(small.threads, 0)
  const big = join(tmp(), 'all_reduce_padded.txt')
  writeFileSync(big, paddedTo(THREAD_MIN_BYTES + 1))
  assert.deepEqual(await threadsFor([{ path: big }]), { threads: 1, rows: small.rows })
})
