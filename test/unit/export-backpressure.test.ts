/**
 * `export` to stdout waits for its reader: streamRows reads no more of the parts while the
 * chunk before is still waiting, and the export command waits on io.drain after each chunk.
 * Without it, a slow reader (`gpucomm export set | slow-tool`) left every row of the set in
 * the process's memory (1 GB for a million rows, measured).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Io } from '../../src/cli/_types.ts'
import { main } from '../../src/cli/main.ts'
import type { Row } from '../../src/model/index.ts'
import { makeRow } from '../../src/model/index.ts'
import { Appender, newManifest, streamRows, writeManifest } from '../../src/resultset/index.ts'
import { tmp } from '../helpers.ts'

const ROWS = 20_000

async function set(): Promise<string> {
  const dir = tmp()
  writeManifest(dir, newManifest({ origin: 'sweep', simulated: false, command: [] }))
  const rows: Row[] = Array.from({ length: ROWS }, (_, i) =>
    makeRow({
      bench: 'p2p.latency',
      metric: 'latency',
      unit: 's',
      value: i,
      sizeBytes: 8,
      src: 0,
      dst: 1,
      trial: 0,
      source: { file: 'raw/000-x.log', line: i + 1 },
    }),
  )
  const app = await Appender.open(dir)
  await app.append(rows)
  app.close()
  return dir
}

const later = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

test('streamRows hands over no chunk while the one before is still waiting', async () => {
  const dir = await set()
  let waiting = false
  let overlapped = 0
  let rows = 0
  await streamRows(dir, async (chunk) => {
    if (waiting) overlapped++
    rows += chunk.length
    waiting = true
    await later(100)
    waiting = false
  })
  assert.equal(rows, ROWS)
  assert.equal(overlapped, 0)
})

test('export to stdout writes a chunk only once the reader has drained the one before', async () => {
  const dir = await set()
  let pending = false
  let early = 0
  let drains = 0
  let out = ''
  const io: Io = {
    stdout: (t) => {
      if (pending) early++
      out += t
    },
    stderr: () => {},
    readStdin: async () => Buffer.alloc(0),
    isTTY: false,
    drain: async () => {
      drains++
      pending = true
      await later(100)
      pending = false
    },
  }
  assert.equal(await main(['export', dir], io), 0)
  assert.equal(out.trimEnd().split('\n').length, ROWS)
  assert.equal(early, 0, 'no chunk written while the reader was behind')
  assert.ok(drains >= Math.floor(ROWS / 4096), `the export waited for its reader after each chunk (${drains})`)
})

test('drained(stdout) waits while the stream is full, and resolves when its reader takes the data or it closes', async () => {
  const { PassThrough } = await import('node:stream')
  const { drained } = await import('../../src/cli/main.ts')
  const out = new PassThrough({ highWaterMark: 16 })
  await drained(out) // room: at once
  out.write('x'.repeat(64))
  assert.equal(out.writableNeedDrain, true)
  let done = false
  const wait = drained(out).then(() => {
    done = true
  })
  await later(20)
  assert.equal(done, false, 'still full: waits')
  out.resume()
  await wait
  assert.equal(done, true)
  const closed = new PassThrough({ highWaterMark: 16 })
  closed.write('x'.repeat(64))
  const w2 = drained(closed)
  closed.destroy()
  await w2
})
