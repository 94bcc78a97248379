#!/usr/bin/env node
// Runs node's test runner (through tsx) over the test files listed in test/FILES.
// Every listed file must exist, every test/**/*.test.ts must be listed, and the list
// must not be empty: a run that would execute zero tests fails instead of passing.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

const listed = readFileSync('test/FILES', 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l !== '' && !l.startsWith('#'))
const onDisk = []
const walk = (d) => {
  for (const e of readdirSync(d)) {
    const p = join(d, e)
    if (statSync(p).isDirectory()) walk(p)
    else if (p.endsWith('.test.ts')) onDisk.push(p)
  }
}
walk('test')
const missing = listed.filter((f) => !existsSync(f))
const unlisted = onDisk.filter((f) => !listed.includes(f))
const only = process.argv.slice(2)
// With a filter (a developer running a few files), list problems are warnings; a full run fails on them.
const problem = only.length ? (m) => console.error(`run-tests: warning: ${m}`) : fail
if (listed.length === 0) fail('test/FILES lists no test files')
if (missing.length) problem(`test/FILES lists files that do not exist: ${missing.join(', ')}`)
if (unlisted.length) problem(`test files not listed in test/FILES: ${unlisted.join(', ')}`)
const files = only.length ? listed.filter((f) => existsSync(f) && only.some((o) => f.includes(o))) : listed
if (files.length === 0) fail(`no listed test file matches ${only.join(' ')}`)
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...files], { stdio: 'inherit' })
process.exit(r.status ?? 1)

function fail(msg) {
  console.error(`run-tests: ${msg}`)
  process.exit(1)
}
