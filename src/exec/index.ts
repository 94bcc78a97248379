/**
 * Process control for benchmarks: the Executor the sweep launches through, a watchdog that runs one process in its own group,
 * streams its output to raw files and lines, and kills the group when it hangs; the reaper
 * that kills the group when the harness dies first (SIGKILL); the lock that keeps two sweeps
 * out of one result set.
 */

export type { Executor } from './_executor.ts'
export { processExecutor } from './_executor.ts'
export { acquireLock, LOCK_FILE, lockHolder } from './_lock.ts'
export type { ExecRequest, ExecResult } from './_watched.ts'
export { execWatched } from './_watched.ts'
