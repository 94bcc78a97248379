/**
 * prepareResume on a set a sweep left behind: only rows of points recorded ok are kept,
 * torn lines are reported and removed, and a clean set is left as it is.
 */
import assert from 'node:assert/strict'
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import type { Manifest, Row } from '../../src/model/index.ts'
import { makeRow } from '../../src/model/index.ts'
import { newManifest, SAMPLES } from '../../src/resultset/index.ts'
import { prepareResume } from '../../src/run/_resume.ts'
import { tmp } from '../helpers.ts'

const row = (point: string, value: number): Row =>
  makeRow({ bench: 'nccl.all_reduce', metric: 'time', unit: 's', value, source: { file: 'x', line: 1 }, point })
const OK = { status: 'ok', attempts: 1, wallS: 1, rows: 1 } as const
const TORN = '{"bench":"nccl.all_reduce","metric":"time","unit":"s","val'

function setWith(lines: string[], outcomes: Manifest['outcomes']): { dir: string; manifest: Manifest } {
  const dir = tmp()
  writeFileSync(join(dir, SAMPLES), lines.map((l) => `${l}\n`).join(''))
  return { dir, manifest: { ...newManifest({ origin: 'sweep', simulated: true, command: [] }), outcomes } }
}

test('keeps exactly the rows of ok points; failed and unrecorded points and a torn line go', async () => {
  const ok = [row('a', 1), row('a', 2)]
  const lines = [...ok, row('b', 3), row('c', 4)].map((r) => JSON.stringify(r))
  const { dir, manifest } = setWith([...lines, TORN], {
    a: OK,
    b: { status: 'failed', attempts: 1, exitCode: 1, reason: 'exit 1' },
  })
  const st = await prepareResume(dir, manifest)
  assert.deepEqual(st.kept, ok)
  assert.equal(st.dropped, 2)
  assert.equal(st.diagnostics.length, 1)
  assert.match(st.diagnostics[0]?.message ?? '', /not valid JSON/)
  assert.equal(readFileSync(join(dir, SAMPLES), 'utf8'), ok.map((r) => `${JSON.stringify(r)}\n`).join(''))
})

test('a torn line alone is still removed; a clean set is not rewritten', async () => {
  const ok = [row('a', 1)]
  const torn = setWith([JSON.stringify(ok[0]), TORN], { a: OK })
  const st = await prepareResume(torn.dir, torn.manifest)
  assert.deepEqual([st.dropped, st.diagnostics.length], [0, 1])
  assert.equal(readFileSync(join(torn.dir, SAMPLES), 'utf8'), `${JSON.stringify(ok[0])}\n`)
  const clean = setWith([JSON.stringify(ok[0])], { a: OK })
  const before = statSync(join(clean.dir, SAMPLES)).ino
  const c = await prepareResume(clean.dir, clean.manifest)
  assert.deepEqual([c.dropped, c.diagnostics.length, c.kept], [0, 0, ok])
  assert.equal(statSync(join(clean.dir, SAMPLES)).ino, before, 'the file was not replaced')
})

test('rows with no point (added by import --append) are kept: they are not an unfinished point', async () => {
  const imported = makeRow({
    bench: 'nccl.all_gather',
    metric: 'time',
    unit: 's',
    value: 5,
    source: { file: 'y', line: 3 },
  })
  const lines = [row('a', 1), imported, row('b', 2), imported].map((r) => JSON.stringify(r))
  const { dir, manifest } = setWith(lines, { a: OK })
  const st = await prepareResume(dir, manifest)
  assert.deepEqual(st.kept, [row('a', 1), imported, imported])
  assert.equal(st.dropped, 1, 'only the row of point b, which has no ok outcome')
  const back = readFileSync(join(dir, SAMPLES), 'utf8').trim().split('\n')
  assert.equal(back.length, 3)
})
