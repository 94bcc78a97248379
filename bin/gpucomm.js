#!/usr/bin/env node
// Entry point installed as `gpucomm`. Runs the compiled CLI in dist/ (`npm run build`, which
// npm's `prepare` runs on `npm ci`) when it was built after the last change to any file under
// src/; otherwise the TypeScript sources through tsx's loader. A bare `gpucomm --help` is
// answered by src/cli/help.ts without loading yargs (the same text; see test/cli/help.test.ts).
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

/** True when dist/.built (the build's start time) is newer than every file under src/. */
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

const compiled = distIsFresh()
if (!compiled) (await import('tsx/esm/api')).register()
const cli = compiled ? '../dist/cli/' : '../src/cli/'
const ext = compiled ? '.js' : '.ts'
let help
if (process.argv.length === 3 && process.argv[2] === '--help') {
  const { topLevelHelp } = await import(`${cli}help${ext}`)
  help = topLevelHelp()
}
if (help !== undefined) process.stdout.write(`${help}\n`)
else await (await import(`${cli}main${ext}`)).runMain()
