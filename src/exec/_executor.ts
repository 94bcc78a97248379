import type { ExecRequest, ExecResult } from './_watched.ts'
import { execWatched } from './_watched.ts'

/**
 * What the sweep driver launches every benchmark process through (hyperfine's `Executor`
 * seam): the real one runs a process under the watchdog; tests give one that answers
 * in-process, so driver tests need not spawn processes.
 */
export interface Executor {
  run(req: ExecRequest): Promise<ExecResult>
}

/** The real executor: each request is a process in its own group, under the watchdog. */
export const processExecutor: Executor = { run: execWatched }
