/** Helpers of the sweep end-to-end tests: run `gpucomm sweep` in-process (sim executor) or as a real process, read result sets. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ResultPromise } from 'execa'
import { execa } from 'execa'
import type { Manifest, Row } from '../../src/model/index.ts'
import { loadSet } from '../../src/resultset/index.ts'
import type { SpecInput } from '../../src/sweep/index.ts'
import { BIN, ROOT, tmp } from '../helpers.ts'
import { simExecutor } from '../mock-executor.ts'

/** The smallest SIMULATED sweep the in-process tests start from: 2 GPUs, their pair, one TP2 all_reduce. */
export const TWO_GPU_SIM: SpecInput = {
  instrument: 'sim',
  preset: 'seed-vm',
  gpus: '0-1',
  pairs: 'all',
  collectives: 'all_reduce',
  groupings: 'tp2',
}

/** Launcher variables stripped from the environment so the sim never thinks it is a rank. */
export const CLEAN_ENV: Record<string, undefined> = Object.fromEntries(
  [
    'OMPI_COMM_WORLD_RANK',
    'OMPI_COMM_WORLD_SIZE',
    'PMI_RANK',
    'PMI_SIZE',
    'SLURM_PROCID',
    'SLURM_NTASKS',
    'SLURM_JOB_NODELIST',
    'SLURM_NODELIST',
  ].map((k) => [k, undefined]),
)

/**
 * A new SIMULATED sweep without a seed draws one at random: a test that reads its numbers would
 * pass or fail by luck (sweep-host-axis once drew a tail value). A resume reuses the stored seed.
 */
function needSeed(seeded: boolean, resume: boolean): void {
  if (!seeded && !resume) throw new Error('test sweep without a seed: give it seed (or --seed) so its numbers repeat')
}

/** `gpucomm sweep` in-process (the CLI's sweepCommand) through the sim executor (or one wrapping it). */
export async function sweepIn(
  flags: SpecInput,
  where: { out?: string; resume?: string },
  executor: ReturnType<typeof simExecutor> = simExecutor(),
): Promise<{ code: number; stdout: string; stderr: string; requests: number }> {
  needSeed(flags.seed !== undefined, where.resume !== undefined)
  // Loaded here, not at the top: a test file that only runs real sweeps starts without the CLI.
  const { sweepCommand } = await import('../../src/cli/_sweep-flow.ts')
  let stdout = ''
  let stderr = ''
  const r = await sweepCommand(
    { flags, ...where, command: ['test'], root: tmp() },
    { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), isTTY: false },
    { executor },
  )
  return { code: r.code, stdout, stderr, requests: executor.requests.length }
}

/** Runs `gpucomm sweep ARGS` to the end. */
export async function sweep(
  args: readonly string[],
  timeout = 120_000,
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  needSeed(args.includes('--seed'), args.includes('--resume'))
  const r = await execa(process.execPath, [BIN, 'sweep', ...args], {
    reject: false,
    cwd: ROOT,
    timeout,
    env: { ...CLEAN_ENV, ...env },
    extendEnv: true,
  })
  return { code: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) }
}

/** Starts `gpucomm sweep ARGS` and resolves once its stderr shows `pattern` (the child keeps running). */
export async function startSweep(
  args: readonly string[],
  pattern: RegExp,
): Promise<{ child: ResultPromise<{ reject: false }>; stderr: () => string }> {
  needSeed(args.includes('--seed'), args.includes('--resume'))
  const child = execa(process.execPath, [BIN, 'sweep', ...args], {
    reject: false,
    cwd: ROOT,
    env: CLEAN_ENV,
    extendEnv: true,
    buffer: true,
  })
  let err = ''
  await new Promise<void>((res, rej) => {
    const t = setTimeout(() => rej(new Error(`sweep never printed ${pattern}; stderr: ${err}`)), 60_000)
    child.stderr?.on('data', (c: Buffer) => {
      err += c.toString()
      if (pattern.test(err)) {
        clearTimeout(t)
        res()
      }
    })
    void child.then(() => {
      clearTimeout(t)
      if (!pattern.test(err)) rej(new Error(`sweep ended before ${pattern}; stderr: ${err}`))
    })
  })
  return { child, stderr: () => err }
}

/** The manifest of a set. */
export const manifestOf = (dir: string): Manifest =>
  JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest

/** Rows of a set as sorted JSON strings (a multiset: duplicates and losses both show). */
export async function rowBag(dir: string): Promise<string[]> {
  const set = await loadSet(dir)
  return set.rows.map((r: Row) => JSON.stringify(r)).sort()
}
