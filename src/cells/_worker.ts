/**
 * The worker thread of `cellsInWorker`: builds the cells of the rows it is sent (arrays that
 * share memory with the caller's) and posts them back without their values.
 */
import { parentPort, workerData } from 'node:worker_threads'
import type { Row } from '../model/index.ts'
import { indexedRows } from '../model/index.ts'
import { cells } from './_cells.ts'

const { reps, group, value, n, level } = workerData as {
  reps: Row[]
  group: Int32Array
  value: Float64Array
  n: number
  level: number | undefined
}
const out = cells(indexedRows(reps, group, value, n), level === undefined ? {} : { level })
parentPort?.postMessage(out.map(({ values: _, ...c }) => c))
