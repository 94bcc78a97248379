#!/usr/bin/env node
// npm run mutate:recheck -- <scope> [report] [--tests FILE,FILE]: runs the mutants that SURVIVED the scope's last Stryker
// run (reports/mutation/<scope>.json, or the report a narrowed run wrote) against the scope's tests as they are now, one at a time, in a
// scratch copy of src/ and test/. New tests only add kills, so the killed and timed-out mutants
// of the report stay killed; a full `npm run mutate` reruns them all (an hour per scope on 2 cores).
// Prints each survivor's fate and the score with the new kills, and writes
// <report>.recheck.json beside the report (the still-surviving mutants, to kill or explain).
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { narrowed, SCOPES, takeOption, testArgv } from './mutate-scopes.mjs'

const args = process.argv.slice(2)
// --tests FILE,FILE: only those of the scope's tests, as `npm run mutate -- SCOPE --tests` takes.
const tests = takeOption(args, '--tests')?.split(',')
const scope = args[0]
const def = narrowed(SCOPES[scope], tests)
if (!def) {
  console.error(`mutate:recheck: name a scope: ${Object.keys(SCOPES).join(', ')}`)
  process.exit(2)
}
// The scope's report, or the one a narrowed run (`npm run mutate -- SCOPE --only GLOB`) wrote.
const reportFile = args[1] ?? join('reports', 'mutation', `${scope}.json`)
let report
try {
  report = JSON.parse(readFileSync(reportFile, 'utf8'))
} catch {
  console.error(`mutate:recheck: no report ${reportFile}: run npm run mutate -- ${scope} first`)
  process.exit(2)
}

const root = resolve('.')
const box = mkdtempSync(join(tmpdir(), 'gpucomm-recheck-'))
for (const d of ['src', 'test', 'native', 'docs']) cpSync(join(root, d), join(box, d), { recursive: true })
for (const f of ['package.json', 'tsconfig.json']) cpSync(join(root, f), join(box, f))
symlinkSync(join(root, 'node_modules'), join(box, 'node_modules'))

/** `source` with the mutant's location (1-based lines and columns, end exclusive) replaced. */
function apply(source, m) {
  const lines = source.split('\n')
  const { start, end } = m.location
  const head = lines.slice(0, start.line - 1).join('\n') + (start.line > 1 ? '\n' : '')
  const before = (lines[start.line - 1] ?? '').slice(0, start.column - 1)
  const after = (lines[end.line - 1] ?? '').slice(end.column - 1)
  const tail = lines.slice(end.line).join('\n')
  return `${head}${before}${m.replacement}${after}${end.line < lines.length ? '\n' : ''}${tail}`
}

const { argv, env } = testArgv(def, join(box, '.sim-cache'))
const run = () =>
  spawnSync(process.execPath, argv, {
    cwd: box,
    env: { ...process.env, ...env },
    stdio: 'ignore',
    timeout: 120_000,
  })
if (run().status !== 0) {
  console.error('mutate:recheck: the tests fail without any mutant; fix them first')
  process.exit(1)
}

let total = 0
let detected = 0
const still = []
for (const [file, entry] of Object.entries(report.files)) {
  const target = join(box, file)
  const original = readFileSync(target, 'utf8')
  if (original !== entry.source) {
    console.error(`mutate:recheck: ${file} changed since the report; run npm run mutate -- ${scope} again`)
    process.exit(1)
  }
  for (const m of entry.mutants) {
    if (m.status === 'Ignored' || m.status === 'CompileError') continue
    total++
    if (m.status !== 'Survived' && m.status !== 'NoCoverage') {
      detected++
      continue
    }
    writeFileSync(target, apply(original, m))
    const r = run()
    writeFileSync(target, original)
    const killed = r.status !== 0
    if (killed) detected++
    else still.push({ file, line: m.location.start.line, mutator: m.mutatorName, replacement: m.replacement, id: m.id })
    console.log(
      `${killed ? 'killed  ' : 'survived'} ${file}:${m.location.start.line} ${m.mutatorName} → ${m.replacement}`,
    )
  }
}
rmSync(box, { recursive: true, force: true })
const score = (100 * detected) / total
console.log(`\n${scope}: ${detected} of ${total} mutants detected (${score.toFixed(2)} %), ${still.length} survive`)
writeFileSync(
  reportFile.replace(/\.json$/, '.recheck.json'),
  `${JSON.stringify({ scope, detected, total, score, survivors: still }, null, 1)}\n`,
)
