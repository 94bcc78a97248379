import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { bin, cli, tmp } from '../helpers.ts'

test('the installed bin prints help with every command and exits 0', async () => {
  const r = await bin(['--help'])
  assert.equal(r.code, 0)
  for (const c of ['import', 'show', 'export']) assert.match(r.stdout, new RegExp(`gpucomm ${c}`))
})

test('an unknown command is bad input: exit 2 and one line', async () => {
  const r = await cli(['frobnicate'])
  assert.equal(r.code, 2)
  assert.match(r.stderr, /^gpucomm: .*frobnicate/)
  assert.equal(r.stderr.trim().split('\n').length, 1)
})

test('a file in no known format exits 2 naming the file, and writes nothing', async () => {
  const dir = tmp()
  const f = join(dir, 'mystery.txt')
  writeFileSync(f, 'hello world\nthis is not a benchmark\n')
  const out = join(dir, 'set')
  const r = await cli(['import', f, '--out', out])
  assert.equal(r.code, 2)
  assert.match(r.stderr, /mystery\.txt: not in any format gpucomm knows/)
  const r2 = await cli(['import', join(dir, 'absent.txt'), '--out', out])
  assert.equal(r2.code, 2)
  assert.match(r2.stderr, /absent\.txt: no such file/)
})

test('show and export refuse a directory that is not a result set with exit 2', async () => {
  const r = await cli(['show', tmp()])
  assert.equal(r.code, 2)
  assert.match(r.stderr, /not a gpucomm result set/)
  const r2 = await cli(['export', '/nonexistent/x', '--format', 'csv'])
  assert.equal(r2.code, 2)
})
