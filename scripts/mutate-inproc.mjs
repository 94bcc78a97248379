#!/usr/bin/env node
// npm run mutate:inproc -- <scope> --only FILE [--tests FILE,FILE]: every Stryker mutant of one
// source file, run in ONE node process (scripts/_inproc-child.mjs) by Stryker's own mutant
// switching instead of one process per mutant: the tests are imported once and rerun with each
// mutant active, so a mutant costs its tests' run (tens of ms), not node's and tsx's start (1-2 s
// of CPU, a minute on a loaded 2-core machine). Mutants of module-level code (Stryker's "static"
// ones) still get a process each. Tests that spawn processes do not see the mutant: name only
// in-process tests. The report (reports/mutation/<scope>.inproc.<slug>.json) has Stryker's
// shape, so `npm run mutate:recheck -- <scope> <report>` reruns its survivors the usual way.
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { Instrumenter } from '@stryker-mutator/instrumenter'
import { narrowed, SCOPES, takeOption } from './mutate-scopes.mjs'

const args = process.argv.slice(2)
const opt = (name) => takeOption(args, name)
const file = opt('--only')
// --survivors REPORT: rerun only the mutants that survived in an earlier report of this file
// (new tests only add kills); the others keep their fate from that report.
const earlier = opt('--survivors')
const tests = opt('--tests')?.split(',')
// --stall SECONDS: a mutant that gives no fate for this long is a hang (Timeout); 300 unless named.
const stall = Number(opt('--stall') ?? 300)
const scope = args[0]
const def = narrowed(SCOPES[scope], tests)
if (!def || !file || !existsSync(file) || !(stall > 0)) {
  console.error(
    `mutate:inproc: name a scope (${Object.keys(SCOPES).join(', ')}), an existing --only FILE and --stall > 0 seconds`,
  )
  process.exit(2)
}

const quiet = () => {}
const logger = { debug: quiet, info: quiet, trace: quiet, warn: console.warn, error: console.error }
Object.assign(logger, { isDebugEnabled: () => false, isInfoEnabled: () => false, isTraceEnabled: () => false })
const source = readFileSync(file, 'utf8')
const inst = await new Instrumenter(logger).instrument([{ name: file, mutate: true, content: source }], {
  plugins: null,
  excludedMutations: ['StringLiteral'],
  ignorers: [],
})
// String literals are message text, as in `npm run mutate`.
const all = inst.mutants.filter((m) => m.mutatorName !== 'StringLiteral' && m.status !== 'Ignored')
const known = new Map()
if (earlier) {
  const entry = JSON.parse(readFileSync(earlier, 'utf8')).files?.[file]
  if (entry?.source !== source) {
    console.error(`mutate:inproc: ${earlier} is not a report of ${file} as it is now`)
    process.exit(2)
  }
  for (const m of entry.mutants) if (m.status !== 'Survived') known.set(m.id, m)
}
const mutants = all.filter((m) => !known.has(m.id))

const root = resolve('.')
const box = mkdtempSync(join(tmpdir(), 'gpucomm-inproc-'))
for (const d of ['src', 'test', 'native', 'docs', 'bin']) cpSync(join(root, d), join(box, d), { recursive: true })
for (const f of ['package.json', 'tsconfig.json']) cpSync(join(root, f), join(box, f))
symlinkSync(join(root, 'node_modules'), join(box, 'node_modules'))
writeFileSync(join(box, file), inst.files[0].content)
const out = join(box, 'fates.jsonl')
const idsFile = join(box, 'ids.json')
const fates = new Map()
const readFates = () => {
  if (!existsSync(out)) return
  for (const l of readFileSync(out, 'utf8').split('\n').filter(Boolean)) {
    const f = JSON.parse(l)
    fates.set(f.id, f)
  }
}
/** Runs the child; ends it when no mutant got its fate for `STALL_MS` (a hang). */
const STALL_MS = stall * 1000
function child(env = {}) {
  return new Promise((done) => {
    const argv = ['--import', 'tsx', join(root, 'scripts', '_inproc-child.mjs'), box, out, idsFile, ...def.tests]
    const c = spawn(process.execPath, argv, {
      cwd: box,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, ...env },
    })
    let stderr = ''
    c.stderr.on('data', (d) => {
      stderr = (stderr + d).slice(-3000)
    })
    let size = -1
    let since = Date.now()
    const watch = setInterval(() => {
      const now = existsSync(out) ? statSync(out).size : 0
      if (now !== size) [size, since] = [now, Date.now()]
      else if (Date.now() - since > STALL_MS) c.kill('SIGKILL')
    }, 5000)
    c.on('close', (status, signal) => {
      clearInterval(watch)
      done({ status, signal, stderr })
    })
  })
}

const t0 = Date.now()
let statics
for (;;) {
  const left = mutants.map((m) => m.id).filter((id) => !fates.has(id) && !statics?.includes(id))
  if (left.length === 0) break
  writeFileSync(idsFile, JSON.stringify(left))
  const r = await child()
  if (existsSync(`${out}.static`)) statics = JSON.parse(readFileSync(`${out}.static`, 'utf8').split('\n')[0])
  readFates()
  if (statics === undefined || r.stderr.includes('the tests fail without any mutant')) {
    console.error(`mutate:inproc: the tests did not load or fail without any mutant:\n${r.stderr}`)
    process.exit(1)
  }
  // The child hung (killed: a timeout, Stryker's rule) or crashed (killed) inside the next mutant.
  const next = left.find((id) => !fates.has(id) && !statics.includes(id))
  if (next !== undefined)
    fates.set(next, { id: next, status: r.signal ? 'Timeout' : 'Killed', why: `child ended: ${r.signal ?? r.status}` })
}
statics ??= []
// Only the static mutants of this run: with --survivors the others keep their earlier fate.
const todo = new Set(mutants.map((m) => m.id))
for (const id of statics.filter((s) => todo.has(s))) {
  await child({ STATIC: id })
  readFates()
  if (!fates.has(id)) fates.set(id, { id, status: 'Timeout', why: 'static run ended without a fate' })
}
rmSync(box, { recursive: true, force: true })

const at = (p) => ({ line: p.line + 1, column: p.column + 1 })
const rows = all.map((m) => ({
  id: m.id,
  mutatorName: m.mutatorName,
  replacement: m.replacement,
  location: { start: at(m.location.start), end: at(m.location.end) },
  status: fates.get(m.id)?.status ?? known.get(m.id)?.status,
  statusReason: fates.get(m.id)?.why ?? known.get(m.id)?.statusReason,
  static: statics.includes(m.id) || known.get(m.id)?.static,
}))
// Named after the file and the tests (more than three: their count and a hash of the list).
const names = (tests ?? []).map((t) => `t-${t.replace(/^.*\//, '').replace(/\.test\.ts$/, '')}`)
const testPart =
  names.length > 3
    ? [`${names.length}-tests-${createHash('sha1').update(names.join()).digest('hex').slice(0, 8)}`]
    : names
const slug = [file, ...testPart].join('.').replace(/[^\w.-]+/g, '_')
const dir = join('reports', 'mutation')
mkdirSync(dir, { recursive: true })
const report = join(dir, `${scope}.inproc.${slug}.json`)
writeFileSync(
  report,
  `${JSON.stringify({ schemaVersion: '1', files: { [file]: { source, mutants: rows } } }, null, 1)}\n`,
)
const n = (s) => rows.filter((m) => m.status === s).length
const detected = n('Killed') + n('Timeout')
console.log(
  `${file}: ${rows.length} mutants (${statics.length} static): ${n('Killed')} killed + ${n('Timeout')} timeout, ` +
    `${n('Survived')} survived, ${((100 * detected) / rows.length).toFixed(1)} %; ${((Date.now() - t0) / 1000).toFixed(0)} s`,
)
for (const m of rows.filter((x) => x.status === 'Survived'))
  console.log(
    `  :${m.location.start.line}:${m.location.start.column} ${m.mutatorName} → ${m.replacement.replace(/\s+/g, ' ')}`,
  )
console.log(`report: ${report}`)
