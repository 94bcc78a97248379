#!/usr/bin/env node
// npm run mutate -- <scope> [--only GLOB] [--tests FILE,FILE] [--check]: StrykerJS mutation testing of one scope, with
// Stryker's `command` test runner running only the test files that guard that scope (there
// is no node:test runner plugin), so one scope fits a small machine. Reports go to
// reports/mutation/<scope>.html and .json; incremental mode reuses earlier results.
// String literals are not mutated (they are message text; the CLI tests of other scopes
// check messages). --check adds the TypeScript checker (drops mutants that do not compile;
// on 2 cores it halves the test runners, so it is off by default).
import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { narrowed, SCOPES, takeOption, testArgv } from './mutate-scopes.mjs'

const args = process.argv.slice(2)
// --only GLOB narrows the scope's mutated files (a folder too large for one sitting).
const only = takeOption(args, '--only')
// --tests FILE,FILE runs only those of the scope's tests (a lower bound of the score, for a file
// whose own tests take a fraction of the scope's run); the report is named after them too.
const tests = takeOption(args, '--tests')?.split(',')
const scope = args.find((a) => !a.startsWith('--'))
const def = narrowed(SCOPES[scope], tests)
if (!def) {
  console.error(`mutate: name a scope: ${Object.keys(SCOPES).join(', ')}`)
  process.exit(2)
}
const dir = join('reports', 'mutation')
mkdirSync(dir, { recursive: true })
const config = {
  $schema: './node_modules/@stryker-mutator/core/schema/stryker-schema.json',
  testRunner: 'command',
  commandRunner: { command: shellCommand(testArgv(def, resolve('.cache', 'mutate-sim'))) },
  mutate: only ? [only] : def.mutate,
  checkers: args.includes('--check') ? ['typescript'] : [],
  mutator: { excludedMutations: ['StringLiteral'] },
  tsconfigFile: 'tsconfig.json',
  coverageAnalysis: 'off',
  concurrency: Number(process.env.MUTATE_CONCURRENCY ?? 2),
  // Generous: on a shared 2-core machine a run can wait for the CPU long enough to look like a
  // mutant that hangs, and a timed-out mutant counts as killed.
  timeoutMS: 60000,
  incremental: true,
  incrementalFile: join(dir, `${scope}.incremental.json`),
  ignorePatterns: ['results', 'reports', 'dist', 'dist.tmp', '.cache', 'test/output', 'bench/results.json'],
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: join(dir, `${scope}.html`) },
  jsonReporter: { fileName: join(dir, `${scope}.json`) },
  tempDirName: join('.cache', 'stryker-tmp'),
  cleanTempDir: 'always',
}
const file = join(dir, `${scope}.config.json`)
if (only || tests) {
  // A narrowed run keeps its own incremental file and report, so it never overwrites the
  // scope's (npm run mutate:recheck -- SCOPE REPORT reads it).
  const slug = [only, ...(tests ?? []).map((t) => `t-${t.replace(/^.*\//, '').replace(/\.test\.ts$/, '')}`)]
    .filter(Boolean)
    .join('.')
    .replace(/[^\w.-]+/g, '_')
  config.incrementalFile = join(dir, `${scope}.${slug}.incremental.json`)
  config.htmlReporter.fileName = join(dir, `${scope}.${slug}.html`)
  config.jsonReporter.fileName = join(dir, `${scope}.${slug}.json`)
}
writeFileSync(file, `${JSON.stringify(config, null, 1)}\n`)
/** Stryker's command runner takes one shell line; the scopes' paths need no quoting. */
function shellCommand({ argv, env }) {
  const vars = Object.entries(env).map(([k, v]) => `${k}=${v}`)
  return [...vars, 'node', ...argv.map((a) => (a === '' ? "''" : a))].join(' ')
}
const r = spawnSync('npx', ['stryker', 'run', file], { stdio: 'inherit' })
process.exit(r.status ?? 1)
