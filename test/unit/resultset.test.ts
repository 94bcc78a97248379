import assert from 'node:assert/strict'
import { appendFileSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { makeRow } from '../../src/model/index.ts'
import { Appender, loadSet, newManifest, readManifest, writeManifest } from '../../src/resultset/index.ts'
import { tmp } from '../helpers.ts'

const row = (value: number, trial = 0) =>
  makeRow({
    bench: 'p2p.latency',
    metric: 'latency',
    unit: 's',
    value,
    src: 0,
    dst: 1,
    trial,
    source: { file: 'raw/x', line: 1 },
  })

test('manifest round-trips and a foreign directory is bad input', () => {
  const dir = tmp()
  const m = newManifest({ origin: 'import', simulated: false, command: ['x'] })
  writeManifest(dir, m)
  assert.deepEqual(readManifest(dir), m)
  assert.throws(
    () => readManifest(tmp()),
    (e: Error & { code?: number }) => e.code === 2 && /not a gpucomm result set/.test(e.message),
  )
  assert.throws(() => readManifest('/nonexistent/dir'), /no such directory/)
})

test('a torn last line is reported with file:line and later appends stay readable', async () => {
  const dir = tmp()
  writeManifest(dir, newManifest({ origin: 'sweep', simulated: true, command: [] }))
  const a = new Appender(dir)
  a.append([row(1), row(2)])
  a.close()
  // Simulate a crash in the middle of writing the third line.
  appendFileSync(join(dir, 'samples.jsonl'), JSON.stringify(row(3)).slice(0, 25))
  const b = new Appender(dir)
  b.append([row(4, 1)])
  b.close()
  const set = await loadSet(dir)
  assert.deepEqual(
    set.rows.map((r) => r.value),
    [1, 2, 4],
  )
  assert.equal(set.diagnostics.length, 1)
  assert.match(set.diagnostics[0]!.message, /samples\.jsonl:3: not valid JSON/)
  assert.equal(readFileSync(join(dir, 'samples.jsonl'), 'utf8').split('\n').length, 5)
})

test('a line that is JSON but not a row is named with its problem', async () => {
  const dir = tmp()
  writeManifest(dir, newManifest({ origin: 'import', simulated: false, command: [] }))
  appendFileSync(
    join(dir, 'samples.jsonl'),
    `${JSON.stringify(row(1))}\n${JSON.stringify({ ...row(2), unit: 'us' })}\n`,
  )
  const set = await loadSet(dir)
  assert.equal(set.rows.length, 1)
  assert.match(set.diagnostics[0]!.message, /samples\.jsonl:2: unknown unit "us"/)
})
