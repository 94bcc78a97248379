/**
 * Cells built on a worker thread, while the caller's thread does other work (analyze fits
 * its series meanwhile): for sets of millions of rows, half of the analysis runs on a second
 * core. The rows' arrays must sit in shared memory (`loadSamples` puts them there), so
 * nothing is copied but the representative rows. When the worker cannot start or fails, the
 * cells are built on this thread instead: the answer is the same either way.
 */
import type { Worker } from 'node:worker_threads'
import type { IndexedRows } from '../model/index.ts'
import { besides, startWorker } from '../threads/index.ts'
import type { Cell, CellsOptions } from './_cells.ts'
import { cells } from './_cells.ts'

/** A cell as the worker sends it back: everything but its values. */
export type CellStats = Omit<Cell, 'values'>

const shared = (a: Int32Array | Float64Array): boolean => a.buffer instanceof SharedArrayBuffer

/**
 * A worker thread for one set's cells, started before the rows are read so that its modules
 * load meanwhile; `run` hands it the rows, `stop` ends it unused.
 */
export class CellsWorker {
  private readonly worker: Worker | undefined
  private broken: string | undefined
  constructor() {
    try {
      this.worker = startWorker(besides(import.meta.url, '_worker'))
      this.worker.once('error', (e) => {
        this.broken = e.message
      })
    } catch (e) {
      this.broken = (e as Error).message
    }
  }

  /**
   * The cells of `rows` (in `cells` order), built on the worker. Rows whose arrays are not
   * shared, or a worker that failed, are done on this thread; `onFallback` hears why.
   */
  run(rows: IndexedRows, opts: CellsOptions = {}, onFallback?: (why: string) => void): Promise<CellStats[]> {
    const here = (why: string): CellStats[] => {
      this.stop()
      onFallback?.(why)
      return cells(rows, opts).map(({ values: _, ...c }) => c)
    }
    const w = this.worker
    if (!shared(rows.group) || !shared(rows.value)) return Promise.resolve(here('the arrays are not shared'))
    if (w === undefined || this.broken !== undefined) return Promise.resolve(here(this.broken ?? 'no worker'))
    return new Promise((resolve) => {
      let settled = false
      const fallback = (why: string): void => {
        if (settled) return
        settled = true
        resolve(here(why))
      }
      w.once('message', (m: CellStats[]) => {
        settled = true
        resolve(m)
        this.stop()
      })
      w.once('error', (e) => fallback(e.message))
      w.once('exit', () => fallback('the worker stopped'))
      try {
        w.postMessage({ reps: rows.reps, group: rows.group, value: rows.value, n: rows.n, level: opts.level })
      } catch (e) {
        fallback((e as Error).message)
      }
    })
  }

  /** Ends the worker (it is not needed, or it is done). */
  stop(): void {
    void this.worker?.terminate()
  }
}
