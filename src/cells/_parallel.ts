/**
 * Cells built on a worker thread, while the caller's thread does other work (analyze fits
 * its series meanwhile): for sets of millions of rows, half of the analysis runs on a second
 * core. The rows' arrays must sit in shared memory (`loadSamples` puts them there), so
 * nothing is copied but the representative rows. When the worker cannot start or fails, the
 * cells are built on this thread instead: the answer is the same either way.
 */
import { Worker } from 'node:worker_threads'
import type { IndexedRows } from '../model/index.ts'
import type { Cell, CellsOptions } from './_cells.ts'
import { cells } from './_cells.ts'

/** A cell as the worker sends it back: everything but its values. */
export type CellStats = Omit<Cell, 'values'>

const shared = (a: Int32Array | Float64Array): boolean => a.buffer instanceof SharedArrayBuffer

/** A module that registers tsx's loader (found from here), then runs the TypeScript `script`. */
function withTsx(script: URL): URL {
  const boot = `import { register } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))}
register()
await import(${JSON.stringify(script.href)})`
  return new URL(`data:text/javascript,${encodeURIComponent(boot)}`)
}

/**
 * Starts building the cells of `rows` on a worker thread; the promise gives them in `cells`
 * order. Rows whose arrays are not shared are done on this thread, at once; `onFallback`
 * hears why whenever the cells were built here.
 */
export function cellsInWorker(
  rows: IndexedRows,
  opts: CellsOptions = {},
  onFallback?: (why: string) => void,
): Promise<CellStats[]> {
  const here = (why: string): CellStats[] => {
    onFallback?.(why)
    return cells(rows, opts).map(({ values: _, ...c }) => c)
  }
  if (!shared(rows.group) || !shared(rows.value)) return Promise.resolve(here('the arrays are not shared'))
  const ts = import.meta.url.endsWith('.ts')
  const script = new URL(`./_worker.${ts ? 'ts' : 'js'}`, import.meta.url)
  const entry = ts ? withTsx(script) : script
  return new Promise((resolve) => {
    let settled = false
    const fallback = (e?: unknown): void => {
      if (settled) return
      settled = true
      resolve(here(e instanceof Error ? e.message : 'the worker stopped'))
    }
    try {
      const w = new Worker(entry, {
        workerData: { reps: rows.reps, group: rows.group, value: rows.value, n: rows.n, level: opts.level },
      })
      w.once('message', (m: CellStats[]) => {
        settled = true
        resolve(m)
        void w.terminate()
      })
      w.once('error', fallback)
      w.once('exit', () => fallback())
    } catch (e) {
      fallback(e)
    }
  })
}
