#!/usr/bin/env node
// Compiles src/ to JavaScript in dist/ (same layout, `.ts` imports rewritten to `.js`), so
// `gpucomm` starts without tsx's loader. Run by `npm run build` and by npm's `prepare` (npm ci,
// npm install). bin/gpucomm.js uses dist/ only while dist/.built (this build's start time) is
// newer than every file under src/, so an edited source is never shadowed by a stale build.
// Type errors do not stop the build (tsx runs the same code unchecked; `npm test` type-checks).
// `--if-stale` (scripts/run-tests.mjs) builds only when bin/gpucomm.js would not use dist/.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const started = Date.now()
if (process.argv.includes('--if-stale') && distIsFresh()) process.exit(0)
let tsc
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
} catch {
  console.log('build: typescript is not installed; gpucomm runs from src/ through tsx')
  process.exit(0)
}
const tmp = `${root}dist.tmp`
rmSync(tmp, { recursive: true, force: true })
const r = spawnSync(process.execPath, [tsc, '-p', `${root}tsconfig.build.json`, '--outDir', tmp], { stdio: 'inherit' })
if (!existsSync(`${tmp}/cli/main.js`)) {
  rmSync(tmp, { recursive: true, force: true })
  console.error('build: tsc wrote no cli/main.js; gpucomm runs from src/ through tsx')
  process.exit(0)
}
if (r.status !== 0) console.error('build: tsc reported type errors (above); dist/ was written anyway')
writeFileSync(`${tmp}/.built`, `${started}\n`)
rmSync(`${root}dist`, { recursive: true, force: true })
renameSync(tmp, `${root}dist`)
console.log('build: compiled src/ to dist/')

/** bin/gpucomm.js' rule: dist/.built (the build's start time) is newer than every file under src/. */
function distIsFresh() {
  let built
  try {
    built = Number(readFileSync(`${root}dist/.built`, 'utf8'))
  } catch {
    return false
  }
  const changed = (dir) =>
    readdirSync(dir, { withFileTypes: true }).some((e) =>
      e.isDirectory() ? changed(`${dir}/${e.name}`) : statSync(`${dir}/${e.name}`).mtimeMs >= built,
    )
  return Number.isFinite(built) && !changed(`${root}src`)
}
