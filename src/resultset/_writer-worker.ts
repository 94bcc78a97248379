/**
 * The worker thread of `ThreadedAppender`: writes each batch's columns as the next part
 * (_parquet.ts), in the order they come. Messages: {part: n, cols, path} → {staged: n,
 * buffers} once the part is written (or {failed: n, message} and {staged: n} if it is not);
 * `sha256` is the part's (its commit record), `buffers` gives the columns' arrays back (moved, in column order) for the caller's next
 * batch. {flush: true} → {flushed: true}: every part asked for before it is settled.
 */
import { parentPort } from 'node:worker_threads'
import type { Encoded } from './_columns.ts'
import { writeParquetPart } from './parquet/_parquet.ts'

const port = parentPort

port?.on('message', (m: { part?: number; cols?: Encoded[]; path?: string; flush?: boolean }) => {
  if (m.flush) {
    port.postMessage({ flushed: true })
    return
  }
  const n = m.part as number
  const cols = m.cols as Encoded[]
  let sha: string | undefined
  try {
    sha = writeParquetPart(cols, m.path as string)
  } catch (e) {
    port.postMessage({ failed: n, message: (e as Error).message })
    port.postMessage({ staged: n })
    return
  }
  const buffers = cols.map((c) => c.data.buffer as ArrayBuffer)
  port.postMessage({ staged: n, buffers, sha256: sha }, buffers)
})
port?.postMessage({ ready: true })
