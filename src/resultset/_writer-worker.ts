/**
 * The worker thread of `ThreadedAppender`: an engine of its own that takes a batch's columns
 * as they come (filling its table while the part before is still being copied out) and
 * writes the parts one after another, in order. Messages: {part: n, cols, path} → {staged: n}
 * once its table is filled, {written: n} once the part is on disk, {failed: n, message} if it
 * is not; {flush: true} → {flushed: true} once every part asked for is settled. `staged`
 * gives the columns' buffers back (moved, in column order) for the caller's next batch.
 */
import { parentPort } from 'node:worker_threads'
import type { Encoded } from './_columns.ts'
import { openDuck, stageColumns } from './_duck.ts'

const port = parentPort
const db = await openDuck()
let staging: Promise<unknown> = Promise.resolve()
let copying: Promise<unknown> = Promise.resolve()

port?.on('message', (m: { part?: number; cols?: Encoded[]; path?: string; flush?: boolean }) => {
  if (m.flush) {
    const settled = Promise.all([staging, copying])
    void settled.then(() => port.postMessage({ flushed: true }))
    return
  }
  const n = m.part as number
  const fail = (e: unknown): void => port.postMessage({ failed: n, message: (e as Error).message })
  const cols = m.cols as Encoded[]
  const staged = staging.then(() => stageColumns(db, cols, m.path as string))
  // Once the engine holds the values, their arrays go back for the next batch.
  const buffers = cols.map((c) => c.data.buffer as ArrayBuffer)
  staging = staged.then(
    () => port.postMessage({ staged: n, buffers }, buffers),
    (e: unknown) => {
      fail(e)
      port.postMessage({ staged: n })
    },
  )
  copying = Promise.all([copying, staged]).then(
    ([, copy]) => copy().then(() => port.postMessage({ written: n }), fail),
    () => {},
  )
})
port?.postMessage({ ready: true })
