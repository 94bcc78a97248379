import { AsyncLocalStorage } from 'node:async_hooks'
import type { Diagnostic } from '../model/index.ts'

/**
 * Where loadSet reports the corrupt lines it skipped (a torn last line after a kill): the
 * command line collects them around a command and prints one warning per file, so every
 * command that reads a set follows one rule (warn with the count, use the other rows).
 */
const sink = new AsyncLocalStorage<(d: readonly Diagnostic[]) => void>()

/** Runs `fn` with the corrupt lines of every set it loads passed to `report`. */
export function withLoadNotes<T>(report: (d: readonly Diagnostic[]) => void, fn: () => T): T {
  return sink.run(report, fn)
}

/** Passes the corrupt lines a load skipped to the caller's collector, if any. */
export function noteLoad(d: readonly Diagnostic[]): void {
  if (d.length > 0) sink.getStore()?.(d)
}
