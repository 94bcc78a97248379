/**
 * Start-up of the CLI: `node bin/gpucomm.js --help` against `node -e 0`, each as a child
 * process, interleaved, median of 21 runs. Budget: ≤ 2 ×. The compiled CLI (dist/) is built
 * first when it is missing or older than src/, as `npm ci` leaves it; the run says which
 * path bin/gpucomm.js took. `gpucomm show --help` (yargs loaded) and the tsx fallback are
 * reported beside it. Run alone with `npx tsx bench/startup.bench.ts`.
 */

import { join } from 'node:path'
import { execa } from 'execa'
import type { Metric } from './_util.ts'
import { median, ROOT, round, timedCommand } from './_util.ts'

const BIN = join(ROOT, 'bin', 'gpucomm.js')

/** True when bin/gpucomm.js would run dist/ (the same test it makes). */
async function compiledPathTaken(): Promise<boolean> {
  const r = await execa(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `
    import { readFileSync, readdirSync, statSync } from 'node:fs'
    const built = Number(readFileSync('dist/.built', 'utf8'))
    const changed = (d) => readdirSync(d, { withFileTypes: true }).some((e) => e.isDirectory() ? changed(d + '/' + e.name) : statSync(d + '/' + e.name).mtimeMs >= built)
    process.stdout.write(String(!changed('src')))`,
    ],
    { cwd: ROOT, reject: false },
  )
  return r.stdout === 'true'
}

/** Medians (seconds) of interleaved runs of each command. */
async function interleaved(cmds: readonly (readonly string[])[], runs: number): Promise<number[]> {
  const t: number[][] = cmds.map(() => [])
  for (let i = 0; i < runs; i++)
    for (const [k, c] of cmds.entries()) t[k]?.push(await timedCommand(c[0] as string, c.slice(1)))
  return t.map(median)
}

/** Builds dist/ when bin/gpucomm.js would not run it; true when it then does. */
export async function ensureCompiled(): Promise<boolean> {
  if (!(await compiledPathTaken()))
    await execa(process.execPath, [join(ROOT, 'scripts', 'build-dist.mjs')], { cwd: ROOT, stdout: 'ignore' })
  return compiledPathTaken()
}

/** Runs the start-up bench. */
export async function startupBench(runs = 21): Promise<Metric[]> {
  const compiled = await ensureCompiled()
  const node = process.execPath
  const [base, help, showHelp] = await interleaved(
    [
      [node, '-e', '0'],
      [node, BIN, '--help'],
      [node, BIN, 'show', '--help'],
    ],
    runs,
  )
  const [tsxHelp] = await interleaved(
    [[node, '--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts'), '--help']],
    Math.min(runs, 7),
  )
  const ratio = (help as number) / (base as number)
  return [
    {
      metric: `gpucomm --help (median of ${runs}; ${compiled ? 'compiled dist/' : 'tsx: dist/ stale'})`,
      value: round((help as number) * 1000),
      unit: 'ms',
      budget: '≤ 2 × node -e 0',
      holds: ratio <= 2,
      note: `${round(ratio)} × node -e 0`,
    },
    { metric: 'node -e 0', value: round((base as number) * 1000), unit: 'ms' },
    {
      metric: 'gpucomm show --help (yargs loaded)',
      value: round((showHelp as number) * 1000),
      unit: 'ms',
      note: `${round((showHelp as number) / (base as number))} × node -e 0`,
    },
    {
      metric: 'gpucomm --help through tsx (no dist/)',
      value: round((tsxHelp as number) * 1000),
      unit: 'ms',
      note: `${round((tsxHelp as number) / (base as number))} × node -e 0`,
    },
  ]
}

if (process.argv[1] === import.meta.filename) console.table(await startupBench())
