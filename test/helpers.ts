/** Shared test helpers: temp dirs, in-process CLI runs and the real bin as a subprocess. */
import { createHash } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Io } from '../src/cli/_types.ts'

export const ROOT = resolve(import.meta.dirname, '..')
export const FIXTURES = join(ROOT, 'test', 'fixtures')
export const BIN = join(ROOT, 'bin', 'gpucomm.js')

/** Every file under `dir` (relative path) with the sha256 of its bytes: compare two to see that nothing changed. */
export function snapshot(dir: string, under = ''): Record<string, string> {
  const out: Record<string, string> = {}
  for (const e of readdirSync(join(dir, under)).sort()) {
    const rel = join(under, e)
    if (statSync(join(dir, rel)).isDirectory()) Object.assign(out, snapshot(dir, rel))
    else
      out[rel] = createHash('sha256')
        .update(readFileSync(join(dir, rel)))
        .digest('hex')
  }
  return out
}

/** A fresh temporary directory. */
export const tmp = (prefix = 'gpucomm-test-'): string => mkdtempSync(join(tmpdir(), prefix))

/** Result of a CLI run. */
export interface CliResult {
  code: number
  stdout: string
  stderr: string
}

/*
 * cli() and bin() load the CLI and execa when first called, not when this file is imported:
 * a test file that only needs tmp() or ROOT, in a process of its own, then starts without them
 * (~0.7 s and ~0.3 s of CPU).
 */

/** Runs the CLI in-process with captured output. */
export async function cli(args: readonly string[], stdin = ''): Promise<CliResult> {
  let stdout = ''
  let stderr = ''
  const io: Io = {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    readStdin: async () => Buffer.from(stdin),
    isTTY: false,
  }
  const { main } = await import('../src/cli/main.ts')
  const code = await main(args, io)
  return { code, stdout, stderr }
}

/** Runs the installed bin (bin/gpucomm.js) as a real process. */
export async function bin(
  args: readonly string[],
  opts: { input?: string; env?: Record<string, string>; timeout?: number } = {},
): Promise<CliResult> {
  const { execa } = await import('execa')
  const r = await execa(process.execPath, [BIN, ...args], {
    reject: false,
    input: opts.input,
    env: opts.env,
    timeout: opts.timeout ?? 120_000,
    cwd: ROOT,
  })
  return { code: r.exitCode ?? 1, stdout: r.stdout, stderr: r.stderr }
}
