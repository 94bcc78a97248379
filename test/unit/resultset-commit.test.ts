/**
 * A result set is data that may be damaged or hostile (#35 items 2–5): a part counts only once
 * the manifest commits it (a writer killed between its parts and its manifest leaves nothing
 * any reader sees, and the retry adds its rows once); each committed part's sha256 is checked
 * (a byte flipped anywhere in a part is one diagnostic naming it, the other part's rows are
 * used); a part with other columns, or linked from elsewhere, is one diagnostic through every
 * reader, never a throw. Real nccl-tests fixtures, imported in-process.
 */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { importFiles } from '../../src/importer/index.ts'
import type { Diagnostic } from '../../src/model/index.ts'
import { openDuck } from '../../src/resultset/_duck.ts'
import { exportParquet, loadSamples, loadSet, pruneParts, streamRows } from '../../src/resultset/index.ts'
import { FIXTURES, tmp } from '../helpers.ts'

const A = join(FIXTURES, 'nccl-tests', 'dgx2-12gpu-v100-allreduce-v2.0-error-column.txt')
const B = join(FIXTURES, 'nccl-tests', 'dgx2-12gpu-v100-broadcast-v2.0-root-column.txt')
const parts = (set: string): string[] => readdirSync(join(set, 'samples')).sort()

/** A set of A (part 1) with B appended (part 2); the row counts of each. */
async function twoParts(): Promise<{ set: string; a: number; b: number }> {
  const set = join(tmp('gpucomm-commit-'), 'set')
  const a = (await importFiles([{ path: A }], { out: set, command: ['t'] })).rows
  const b = (await importFiles([{ path: B }], { out: set, command: ['t'], append: true })).rows
  return { set, a, b }
}

/** What every reader makes of `set`: row counts and the diagnostics' messages. */
async function everyReader(set: string): Promise<{ counts: number[]; messages: string[][] }> {
  const loaded = await loadSet(set)
  const samples = await loadSamples(set)
  let streamed = 0
  const s = await streamRows(set, (rows) => void (streamed += rows.length), { note: false })
  const exported = join(tmp('gpucomm-commit-export-'), 'x.parquet')
  const ex = await exportParquet(set, exported, false)
  const db = await openDuck()
  const n = Number((await db.conn.runAndReadAll(`SELECT count(*) FROM read_parquet('${exported}')`)).getRows()[0]?.[0])
  db.close()
  const pruneDiags: Diagnostic[] = []
  const pruned = await pruneParts(
    set,
    () => true,
    (d) => pruneDiags.push(d),
  )
  const msgs = (ds: readonly Diagnostic[]): string[] => ds.map((d) => d.message)
  return {
    counts: [loaded.rows.length, samples.count ?? -1, streamed, n, pruned.kept.length],
    messages: [msgs(loaded.diagnostics), msgs(samples.diagnostics), msgs(s.diagnostics), msgs(ex), msgs(pruneDiags)],
  }
}

test('an append killed between its part and its commit: no reader sees its rows; the retry adds them once', async () => {
  const set = join(tmp('gpucomm-commit-kill-'), 'set')
  const a = (await importFiles([{ path: A }], { out: set, command: ['t'] })).rows
  const killed = importFiles([{ path: B }], {
    out: set,
    command: ['t'],
    append: true,
    beforeCommit: () => {
      throw new Error('killed here')
    },
  })
  await assert.rejects(killed, /killed here/)
  assert.deepEqual(parts(set), ['part-000001.parquet', 'part-000002.parquet'], 'the orphan part is on disk')
  const seen = await everyReader(set)
  assert.deepEqual(seen.counts, [a, a, a, a, a])
  assert.deepEqual(seen.messages.flat(), [])
  const b = (await importFiles([{ path: B }], { out: set, command: ['t'], append: true })).rows
  assert.ok(b > 0)
  assert.equal((await loadSet(set)).rows.length, a + b, 'the retry counts once')
  assert.deepEqual(parts(set), ['part-000001.parquet', 'part-000002.parquet'], 'the orphan was removed, not kept')
})

test('a byte flipped at any of 24 offsets in a part: one diagnostic naming it, the other part read', async () => {
  const { set, a, b } = await twoParts()
  const file = join(set, 'samples', 'part-000002.parquet')
  const good = readFileSync(file)
  for (let k = 0; k < 24; k++) {
    const at = Math.floor((k * (good.length - 1)) / 23)
    const bad = Buffer.from(good)
    bad[at] = (bad[at] as number) ^ 0x20
    writeFileSync(file, bad)
    const loaded = await loadSet(set)
    assert.equal(loaded.rows.length, a, `offset ${at}`)
    assert.equal(loaded.diagnostics.length, 1, `offset ${at}`)
    assert.match(loaded.diagnostics[0]?.message ?? '', /part-000002\.parquet: its sha256 is not the one recorded/)
  }
  writeFileSync(file, good)
  assert.equal((await loadSet(set)).rows.length, a + b)
})

test('a part with other columns (hostile: its sha256 recorded too) is one diagnostic in every reader', async () => {
  const { set, a } = await twoParts()
  const file = join(set, 'samples', 'part-000002.parquet')
  rmSync(file)
  const db = await openDuck()
  await db.conn.run(`COPY (SELECT 1 AS bench, 'x' AS metric) TO '${file}' (FORMAT parquet)`)
  db.close()
  const { createHash } = await import('node:crypto')
  const m = JSON.parse(readFileSync(join(set, 'manifest.json'), 'utf8'))
  m.parts[1].sha256 = createHash('sha256').update(readFileSync(file)).digest('hex')
  writeFileSync(join(set, 'manifest.json'), JSON.stringify(m))
  const seen = await everyReader(set)
  assert.deepEqual(seen.counts, [a, a, a, a, a])
  for (const ms of seen.messages) {
    assert.equal(ms.length, 1)
    assert.match(ms[0] ?? '', /part-000002\.parquet: not a gpucomm samples part \(lacks bench VARCHAR/)
  }
})

test('a set older than the commit record: a part whose pages do not decode is one diagnostic, never a throw', async () => {
  const { set, a } = await twoParts()
  const m = JSON.parse(readFileSync(join(set, 'manifest.json'), 'utf8'))
  delete m.parts
  writeFileSync(join(set, 'manifest.json'), JSON.stringify(m))
  const file = join(set, 'samples', 'part-000002.parquet')
  const bytes = readFileSync(file)
  bytes.fill(0x55, 4, Math.floor(bytes.length / 2)) // the pages, the footer left whole
  writeFileSync(file, bytes)
  const seen = await everyReader(set)
  assert.deepEqual(seen.counts, [a, a, a, a, a])
  for (const ms of seen.messages) assert.equal(ms.length, 1, ms.join(' | '))
})

test("a part linked to another set's part is not read (one diagnostic)", async () => {
  const { set, a } = await twoParts()
  const other = await twoParts()
  const file = join(set, 'samples', 'part-000002.parquet')
  rmSync(file)
  symlinkSync(join(other.set, 'samples', 'part-000002.parquet'), file)
  const loaded = await loadSet(set)
  assert.equal(loaded.rows.length, a)
  assert.match(loaded.diagnostics[0]?.message ?? '', /part-000002\.parquet: is a link/)
})
