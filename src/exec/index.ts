/**
 * Process control for benchmarks: a watchdog that runs one process in its own group,
 * streams its output to raw files and lines, and kills the group when it hangs; the lock
 * that keeps two sweeps out of one result set.
 */

export { acquireLock, LOCK_FILE, lockHolder } from './_lock.ts'
export type { ExecRequest, ExecResult } from './_watched.ts'
export { execWatched } from './_watched.ts'
