#!/usr/bin/env node
/**
 * gpucomm's command line. `main` returns the exit code (0 ok, 1 the work failed, 2 bad
 * input); `runMain` sets process.exitCode. The one direct process.exit is the sweep's second
 * stop signal (Ctrl-C, SIGTERM or SIGHUP: exit 128 + its number, commands/sweep.ts), which must
 * end a sweep that is still stopping.
 */
import { existsSync, realpathSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import yargs from 'yargs'
import type { Diagnostic } from '../model/index.ts'
import { withLoadNotes } from '../resultset/index.ts'
import { badNumber, badOut, joinDashValues, oneLineUsage, printable } from './_argv.ts'
import type { CommandDef, Io } from './_types.ts'
import { STDIN_ARG } from './_types.ts'
import { COMMANDS } from './commands/index.ts'
import { EPILOGUE, helpWidth, USAGE } from './help.ts'

class UsageError extends Error {}

/** Runs gpucomm with `argv` (without node and script) and returns the exit code; `commands` is for tests. */
export async function main(
  argv: readonly string[],
  io: Io,
  commands: readonly CommandDef[] = COMMANDS,
): Promise<number> {
  let code = 0
  const args = joinDashValues(argv.map((a) => (a === '-' ? STDIN_ARG : a)))
  const y = parser(args, commands, io, (c) => {
    code = c
  })
  const corrupt = corruptLines()
  try {
    // yargs prints help and --version itself (console.log) unless given a callback: through io instead.
    await withLoadNotes(corrupt.note, () =>
      y.parseAsync(args, {}, (_err, _argv, output) => {
        if (output) io.stdout(`${output}\n`)
      }),
    )
  } catch (e) {
    return failure(e, io)
  } finally {
    corrupt.warn(io)
  }
  return code
}

/** The part of yargs' internal API used above (yargs 18). */
interface YargsInternals {
  getInternalMethods(): { getUsageInstance(): { cacheHelpMessage: () => void } }
}

/** The yargs parser of `args` with every command; a command's exit code goes to `done`. */
function parser(args: string[], commands: readonly CommandDef[], io: Io, done: (code: number) => void) {
  const y = yargs(args)
    .scriptName('gpucomm')
    .usage(USAGE)
    .strict()
    .demandCommand(1, 'Name a command; see gpucomm --help.')
    .exitProcess(false)
    .wrap(helpWidth())
    .epilogue(EPILOGUE)
    .fail((msg, err) => {
      throw err ?? new UsageError(oneLineUsage(msg))
    })
    .middleware((parsed) => {
      // getOptions() holds the running command's flags by now (yargs resets them per command).
      const opts = (y as unknown as { getOptions(): { number: string[] } }).getOptions()
      const bad =
        badNumber(parsed, opts.number, args) ?? (typeof parsed.out === 'string' ? badOut(parsed.out) : undefined)
      if (bad) throw new UsageError(bad)
    })
  // After a command's handler, yargs renders that command's whole help screen and keeps it for a
  // later showHelp(); gpucomm never asks for it (.fail throws), and the rendering (string-width
  // over every flag) took 10-25 ms of each run, 7 s of CPU over the in-process test files.
  const usage = (y as unknown as YargsInternals).getInternalMethods().getUsageInstance()
  usage.cacheHelpMessage = () => {}
  for (const c of commands) {
    y.command(c.command, c.describe, c.builder, async (args) => {
      done(await c.run(args as Record<string, unknown>, io))
    })
  }
  return y
}

/**
 * The corrupt lines loading noted, file by file, and their warnings. One rule for every command
 * reading a set: a torn or corrupt line is skipped with a warning.
 */
function corruptLines(): { note: (ds: readonly Diagnostic[]) => void; warn: (io: Io) => void } {
  const corrupt = new Map<string, Set<number>>()
  const firstOf = new Map<string, string>()
  const note = (ds: readonly Diagnostic[]): void => {
    for (const d of ds) {
      const lines = corrupt.get(d.file) ?? new Set<number>()
      corrupt.set(d.file, lines.add(d.line))
      const why =
        d.line === 0
          ? d.message.replace(`${d.file}: `, '')
          : `line ${d.line}: ${d.message.replace(`${d.file}:${d.line}: `, '')}`
      if (!firstOf.has(d.file)) firstOf.set(d.file, why)
    }
  }
  const warn = (io: Io): void => {
    for (const [file, lines] of corrupt)
      io.stderr(
        lines.has(0) // a Parquet part that does not read (no line numbers)
          ? `gpucomm: warning: ${printable(file)}: unreadable part skipped, the other rows used (${printable(firstOf.get(file) ?? '')})\n`
          : `gpucomm: warning: ${printable(file)}: ${lines.size} corrupt line` +
              `${lines.size > 1 ? 's' : ''} skipped, the other rows used (${printable(firstOf.get(file) ?? '')})\n`,
      )
  }
  return { note, warn }
}

/** What a thrown error prints (one line: a name from a file cannot break it, whatever the exit code), and its exit code. */
function failure(e: unknown, io: Io): number {
  const err = e as Error & { code?: unknown }
  if (e instanceof UsageError) {
    io.stderr(`gpucomm: ${printable(err.message)}\n`)
    return 2
  }
  if (err.name === 'HarnessError' && typeof err.code === 'number') {
    io.stderr(`gpucomm: ${printable(err.message)}\n`)
    return err.code
  }
  const sys = systemError(err)
  if (sys) {
    io.stderr(`gpucomm: ${printable(sys.message)}\n`)
    return sys.code
  }
  io.stderr(`gpucomm: internal error: ${err.stack ?? String(e)}\n`)
  return 1
}

/** Errors a path given on the command line causes: bad input (exit 2), not an internal error. */
const PATH_ERRORS = new Set([
  'EEXIST',
  'ENOTDIR',
  'EISDIR',
  'EACCES',
  'EPERM',
  'ENOENT',
  'EROFS',
  'ENAMETOOLONG',
  'ELOOP',
])

/** A file-system error as one line (`EACCES: permission denied, open '/x'`) and its exit code. */
function systemError(
  err: Error & { code?: unknown; syscall?: unknown },
): { message: string; code: number } | undefined {
  if (typeof err.code !== 'string' || typeof err.syscall !== 'string') return undefined
  return { message: err.message.split('\n')[0] as string, code: PATH_ERRORS.has(err.code) ? 2 : 1 }
}

/** Resolves once `out` has room in its buffer again, or is closed (an EPIPE exits, see runMain). */
export function drained(out: NodeJS.WritableStream & { writableNeedDrain: boolean }): Promise<void> {
  if (!out.writableNeedDrain) return Promise.resolve()
  return new Promise((resolve) => {
    const done = (): void => {
      out.off('drain', done)
      out.off('close', done)
      resolve()
    }
    out.on('drain', done)
    out.on('close', done)
  })
}

/** The process entry: real stdout/stderr/stdin, then process.exit with main's code. */
export async function runMain(): Promise<void> {
  // A closed pipe (`gpucomm show DIR | head`) ends the command quietly, as Unix tools do.
  const quietOnEpipe = (e: Error & { code?: unknown }): void => {
    if (e.code !== 'EPIPE') throw e
    process.exit(process.exitCode ?? 0)
  }
  process.stdout.on('error', quietOnEpipe)
  const io: Io = {
    stdout: (t) => void process.stdout.write(t),
    stderr: (t) => void process.stderr.write(t),
    drain: () => drained(process.stdout),
    readStdin: async () => {
      const chunks: Buffer[] = []
      for await (const c of process.stdin) chunks.push(c as Buffer)
      return Buffer.concat(chunks)
    },
    isTTY: Boolean(process.stderr.isTTY),
  }
  const code = await main(process.argv.slice(2), io)
  process.exitCode = code
}

const entry = process.argv[1]
if (entry !== undefined && existsSync(entry) && realpathSync(entry) === fileURLToPath(import.meta.url)) await runMain()
