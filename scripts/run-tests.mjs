#!/usr/bin/env node
// Runs node's test runner (through tsx) over the test files listed in test/FILES.
// Every listed file must exist, every test/**/*.test.ts must be listed, and the list
// must not be empty: a run that would execute zero tests fails instead of passing.
import { spawn, spawnSync } from 'node:child_process'
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { balance, longestFirst, readPast, savePast } from './test-order.mjs'

/** The checks `--checks` runs beside the tests: the type checker and the linter. */
const CHECKS = [
  {
    name: 'tsc --noEmit',
    // Incremental: a rerun rechecks only what changed since the last one (3.9 s of CPU instead of
    // 13 s when nothing did; a fresh clone checks everything). The state file is in the ignored .cache/.
    args: [
      join(import.meta.dirname, '..', 'node_modules', 'typescript', 'bin', 'tsc'),
      '--noEmit',
      '--incremental',
      '--tsBuildInfoFile',
      join(import.meta.dirname, '..', '.cache', 'tsc', 'tsconfig.tsbuildinfo'),
    ],
  },
  {
    name: 'biome check .',
    args: [join(import.meta.dirname, '..', 'node_modules', '@biomejs', 'biome', 'bin', 'biome'), 'check', '.'],
  },
]

// `--list test/FILES.cluster` runs the second list (npm run test:cluster: the slower launcher
// tests); every test file must be in one of the two lists.
const args = process.argv.slice(2)
// `--checks` (npm test) also type-checks and lints, beside the tests rather than before them:
// tsc uses one core for ~10 s, and the tests use the other meanwhile.
const checks = args.includes('--checks')
if (checks) args.splice(args.indexOf('--checks'), 1)
const at = args.indexOf('--list')
const LIST = at >= 0 ? args.splice(at, 2)[1] : 'test/FILES'
const readList = (f) =>
  existsSync(f)
    ? readFileSync(f, 'utf8')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== '' && !l.startsWith('#'))
    : []
const listed = readList(LIST)
const known = [...readList('test/FILES'), ...readList('test/FILES.cluster')]
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
const unlisted = onDisk.filter((f) => !known.includes(f))
const only = args
// With a filter (a developer running a few files), list problems are warnings; a full run fails on them.
const problem = only.length ? (m) => console.error(`run-tests: warning: ${m}`) : fail
if (listed.length === 0) fail(`${LIST} lists no test files`)
if (missing.length) problem(`${LIST} lists files that do not exist: ${missing.join(', ')}`)
if (unlisted.length) problem(`test files not listed in test/FILES or test/FILES.cluster: ${unlisted.join(', ')}`)
const files = only.length ? listed.filter((f) => existsSync(f) && only.some((o) => f.includes(o))) : listed
if (files.length === 0) fail(`no listed test file matches ${only.join(' ')}`)
// A second reporter writes TAP to a file, so the skips can be checked after the run.
const work = mkdtempSync(join(tmpdir(), 'gpucomm-run-tests-'))
const tap = join(work, 'report.tap')
// A third writes each file's seconds (scripts/file-times.mjs), for the slowest-files list at the end.
const times = join(work, 'times.json')
// Earlier runs' per-file seconds (scripts/test-order.mjs): the longest files start first.
const PAST = join(import.meta.dirname, '..', '.cache', 'test-times.json')
const past = readPast(PAST)
const shown = process.stdout.isTTY ? 'spec' : 'tap'
const entries = grouped(files, work)
const checking = checks ? CHECKS.map((c) => startCheck(c, work)) : []
// A full run first compiles src/ to dist/ when it changed since the last build (scripts/build-dist.mjs,
// as npm ci's prepare does), so the ~130 CLI processes the tests spawn start from JavaScript
// instead of loading tsx: 0.25 s of CPU each instead of 0.7 s, ~55 s of CPU per run for a
// ~5 s build. A filtered run keeps whatever is there (a stale dist/ is never used).
if (!only.length)
  spawnSync(process.execPath, [join(import.meta.dirname, 'build-dist.mjs'), '--if-stale'], { stdio: ['ignore', 2, 2] })
// Three files at a time (for 2 cores): many wait on a child, nvcc, srun or a limit, and a third
// file uses that time. The 26 own-process files at load 6-9: 125 s wall at 2, 114 s at 3 (CPU the same).
const r = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-concurrency=3',
    `--test-reporter=${shown}`,
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${tap}`,
    `--test-reporter=${join(import.meta.dirname, 'file-times.mjs')}`,
    `--test-reporter-destination=${times}`,
    ...entries,
  ],
  { stdio: 'inherit' },
)
// A test may skip only because something outside npm is missing (its reason starts with
// SYSTEM_SKIP of test/system.ts); any other skip fails the run, as a failure would.
const SYSTEM_SKIP = 'system: '
const report = existsSync(tap) ? readFileSync(tap, 'utf8') : ''
const skips = [...report.matchAll(/^\s*ok \d+ - (.*?) # SKIP ?(.*)$/gm)]
const bad = skips.filter((m) => !m[2].startsWith(SYSTEM_SKIP))
for (const m of skips) console.error(`run-tests: skipped: ${m[1]} (${m[2] || 'no reason given'})`)
if (bad.length) fail(`${bad.length} test(s) skipped for a reason other than a missing system package`)
slowest(times)
if (existsSync(times)) savePast(PAST, process.cwd(), JSON.parse(readFileSync(times, 'utf8') || '{}'))
let checked = true
for (const c of checking) checked = (await c) && checked
process.exit(checked ? (r.status ?? 1) : 1)

/**
 * Prints the slowest files: per file, the durations of its top-level tests summed
 * (scripts/file-times.mjs; module loading is not in them). Files run two at a time, so on a
 * busy machine a file's time is partly its neighbour's load.
 */
function slowest(path, n = 10) {
  if (!existsSync(path)) return
  const perFile = JSON.parse(readFileSync(path, 'utf8') || '{}')
  const top = Object.entries(perFile)
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
  if (top.length < 2) return
  console.error(`run-tests: slowest files (their tests' seconds summed):`)
  for (const [f, sec] of top) console.error(`  ${sec.toFixed(1).padStart(6)} s  ${relative(process.cwd(), f)}`)
}

/**
 * Node's runner starts one process per file, and each start loads node, tsx and the sources
 * again (~0.9 s of CPU). The in-process files (touching no process state: no env writes, cwd,
 * argv, exit codes, signals, std streams, child processes, timers, mocks) run instead from
 * GROUPS entry files that import them, so their tests register in a few shared processes;
 * every other file keeps its own process. Reading an env variable (UPDATE_GOLDEN) and worker
 * threads (their own isolates) do not count; a registerX( call does: it adds to a registry
 * every file of the process sees from import on (registries.test.ts' preset in presets.test.ts' list). On 2 busy cores the 134 pure unit files took 105 s
 * one process each and 44 s in two groups (802 tests both ways); the 15 pure test/analysis
 * files, at load 5-6, 47 s and 31 s (84 tests). GPUCOMM_TEST_ISOLATE=1 turns it off.
 */
function grouped(list, dir, groups = 2) {
  const touchesProcess =
    /process\.(env(\.\w+|\[[^\]]*\])\s*=[^=]|chdir|cwd|on\(|exit|argv|stdout|stderr)|delete process\.env|execa|child_process|spawn|mock\.|setTimeout|\bsweep\(|startSweep|\bregister[A-Z]\w*\(/
  const pure = list.filter((f) => !touchesProcess.test(readFileSync(f, 'utf8')))
  if (process.env.GPUCOMM_TEST_ISOLATE === '1' || pure.length < 2 * groups) return longestFirst(list, past)
  const out = longestFirst(
    list.filter((f) => !pure.includes(f)),
    past,
  )
  for (const [g, mine] of balance(pure, past, groups).entries()) {
    const entry = join(dir, `unit-group-${g + 1}.test.mjs`)
    writeFileSync(entry, mine.map((f) => `import ${JSON.stringify(pathToFileURL(resolve(f)).href)}\n`).join(''))
    out.splice(g, 0, entry)
  }
  return out
}

/**
 * Starts one check with its output to a file (the tests hold the terminal meanwhile); resolves
 * once it ends to whether it passed, printing its output when it did not.
 */
function startCheck({ name, args }, dir) {
  const log = join(dir, `${name.split(' ')[0]}.log`)
  const fd = openSync(log, 'w')
  const child = spawn(process.execPath, args, { stdio: ['ignore', fd, fd] })
  closeSync(fd)
  return new Promise((done) => {
    const end = (ok) => {
      if (!ok) console.error(`run-tests: ${name} failed:\n${readFileSync(log, 'utf8').trimEnd()}`)
      done(ok)
    }
    child.on('error', () => end(false))
    child.on('exit', (code) => end(code === 0))
  })
}

function fail(msg) {
  console.error(`run-tests: ${msg}`)
  process.exit(1)
}
