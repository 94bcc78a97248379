#!/usr/bin/env node
// Entry point installed as `gpucomm`. Runs the compiled CLI in dist/ (`npm run build`, which
// npm's `prepare` runs on `npm ci`) when it was built after the last change to any file under
// src/; otherwise the TypeScript sources through tsx's loader. A bare `gpucomm --help` is
// answered by src/cli/help.ts without loading yargs (the same text; see test/cli/help.test.ts).
import { fileURLToPath } from 'node:url'
import { distIsFresh } from './dist-fresh.js'

const root = fileURLToPath(new URL('..', import.meta.url))

const compiled = distIsFresh(root)
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
