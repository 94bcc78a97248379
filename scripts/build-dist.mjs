#!/usr/bin/env node
// Compiles src/ to JavaScript in dist/ (same layout, `.ts` imports rewritten to `.js`), so
// `gpucomm` starts without tsx's loader. Run by `npm run build` and by npm's `prepare` (npm ci,
// npm install). bin/gpucomm.js uses dist/ only while dist/.built (this build's start time) is
// newer than every file under src/, so an edited source is never shadowed by a stale build.
// Each file is transpiled on its own (TypeScript's transpileModule, as tsx does; the sources
// use verbatimModuleSyntax, so no file needs another's types): 4-5 s of CPU where a checking
// tsc emit took 10 s. Type errors are `npm test`'s tsc --noEmit's job, not the build's.
// `--if-stale` (scripts/run-tests.mjs) builds only when bin/gpucomm.js would not use dist/.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { distIsFresh } from '../bin/dist-fresh.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const started = Date.now()
if (process.argv.includes('--if-stale') && distIsFresh(root)) process.exit(0)
let ts
try {
  ts = (await import('typescript')).default
} catch {
  console.log('build: typescript is not installed; gpucomm runs from src/ through tsx')
  process.exit(0)
}
const config = ts.getParsedCommandLineOfConfigFile(
  `${root}tsconfig.build.json`,
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      console.error(`build: tsconfig.build.json: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`)
      process.exit(1)
    },
  },
)
// package.json says "type": "module", which a file on its own cannot see: ES modules, as tsc emits.
const compilerOptions = { ...config.options, module: ts.ModuleKind.ESNext }
const tmp = `${root}dist.tmp`
rmSync(tmp, { recursive: true, force: true })
for (const file of config.fileNames) {
  const out = ts.transpileModule(readFileSync(file, 'utf8'), { compilerOptions, fileName: file })
  const to = join(tmp, relative(`${root}src`, file).replace(/\.ts$/, '.js'))
  mkdirSync(dirname(to), { recursive: true })
  writeFileSync(to, out.outputText)
}
writeFileSync(`${tmp}/.built`, `${started}\n`)
rmSync(`${root}dist`, { recursive: true, force: true })
renameSync(tmp, `${root}dist`)
console.log(`build: compiled src/ to dist/ (${config.fileNames.length} files)`)
