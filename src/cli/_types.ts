import type { Argv } from 'yargs'

/** Where a command writes; injected so tests capture output. */
export interface Io {
  stdout: (text: string) => void
  stderr: (text: string) => void
  /** Resolves once stdout has room again (a pipe's reader caught up); without it, never waits. */
  drain?: () => Promise<void>
  /** Reads all of standard input (for `-` inputs). */
  readStdin: () => Promise<Buffer>
  /** True when stderr is a terminal (progress bars). */
  isTTY: boolean
}

/**
 * A CLI command: yargs flags plus a `run` that calls one library function.
 * Command files import libraries lazily inside `run`, so `gpucomm --help` stays fast.
 */
export interface CommandDef {
  command: string
  describe: string
  builder: (y: Argv) => Argv
  run: (args: Record<string, unknown>, io: Io) => Promise<number>
}

/** Identity helper that types a command definition. */
export const defineCommand = (def: CommandDef): CommandDef => def

/**
 * What a lone "-" argument (stdin) is handed to yargs as: yargs re-parses array positionals
 * as `--files -` and drops the "-". Commands map it back with `fromStdinArg`.
 */
export const STDIN_ARG = '\u0000stdin'

/** Maps STDIN_ARG back to "-". */
export const fromStdinArg = (a: string): string => (a === STDIN_ARG ? '-' : a)
