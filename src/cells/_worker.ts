/**
 * The worker thread of `CellsWorker`: waits for the rows (arrays that share memory with the
 * caller's), builds their cells and posts them back without their values.
 */
import { parentPort } from 'node:worker_threads'
import type { Row } from '../model/index.ts'
import { indexedRows } from '../model/index.ts'
import { cells } from './_cells.ts'

interface Job {
  reps: Row[]
  group: Int32Array
  value: Float64Array
  n: number
  level: number | undefined
}

parentPort?.once('message', ({ reps, group, value, n, level }: Job) => {
  const out = cells(indexedRows(reps, group, value, n), level === undefined ? {} : { level })
  parentPort?.postMessage(out.map(({ values: _, ...c }) => c))
})
