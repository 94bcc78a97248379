/**
 * An Appender whose writing runs on a worker thread (_writer-worker.ts): the caller's thread
 * only encodes rows into columns and hands each batch over, while the worker writes the
 * Parquet part, so parsing and writing an import use two cores. The same promises as Appender: parts are written in order, each atomically (a
 * killed import leaves at most a temp file, removed by the next open); `flush` throws when a
 * part failed; `discard` removes every part written.
 */
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Worker } from 'node:worker_threads'
import { besides, startWorker } from '../threads/index.ts'
import type { ColumnBatch } from './_columns.ts'
import { Appender } from './_parts.ts'
import { forgetPart, PARTS, partName, registerPart } from './parquet/_commit.ts'

type Reply = {
  ready?: true
  staged?: number
  sha256?: string
  buffers?: ArrayBuffer[]
  failed?: number
  message?: string
  flushed?: true
}

export class ThreadedAppender {
  private readonly written: string[] = []
  private posted = 0
  private staged = 0
  private failed: string | undefined
  private waiters: (() => void)[] = []
  /** Column buffers the worker gave back (each set in column order), for the next batch. */
  private readonly spare: ArrayBuffer[][] = []
  private constructor(
    private readonly dir: string,
    private readonly worker: Worker,
    private next: number,
  ) {
    worker.on('message', (m: Reply) => {
      if (m.staged !== undefined) {
        const path = this.written[m.staged]
        if (m.sha256 !== undefined && path !== undefined) registerPart(path, m.sha256)
        this.staged++
      }
      if (m.buffers) this.spare.push(m.buffers)
      if (m.failed !== undefined) this.failed ??= m.message ?? 'a part could not be written'
      this.wake()
    })
    worker.on('error', (e) => {
      this.failed ??= e.message
      this.wake()
    })
    worker.on('exit', () => {
      this.failed ??= 'the writer thread stopped'
      this.wake()
    })
  }

  /**
   * Opens `dir` as Appender.open does (temp parts removed, schema 1 migrated; the parts
   * count once the caller's writeManifest commits them: an import is all or nothing), then starts
   * the worker; when the worker cannot start, the Appender itself writes, on this thread.
   */
  static async open(dir: string): Promise<ThreadedAppender | Appender> {
    const a = await Appender.open(dir, { commitEach: false })
    try {
      const w = startWorker(besides(import.meta.url, '_writer-worker'))
      await new Promise<void>((resolve, reject) => {
        w.once('message', () => resolve())
        w.once('error', reject)
      })
      a.close()
      return new ThreadedAppender(dir, w, a.nextPart)
    } catch {
      return a
    }
  }

  private wake(): void {
    const w = this.waiters
    this.waiters = []
    for (const f of w) f()
  }

  private async until(done: () => boolean): Promise<void> {
    while (!done() && this.failed === undefined) await new Promise<void>((r) => this.waiters.push(r))
  }

  /**
   * Hands the rows of `batch` to the worker as the next part, and empties the batch: its
   * arrays move to the worker, and it goes on with arrays the worker gave back from an
   * earlier part (so no memory is copied or newly touched). Waits first until the worker has
   * taken the batch before (which gives its arrays back).
   */
  async appendBatch(batch: ColumnBatch): Promise<void> {
    if (batch.length === 0) return
    // Two sets of arrays take turns: the batch fills one while the worker takes the other.
    await this.until(() => this.staged >= this.posted)
    if (this.failed !== undefined) throw new Error(this.failed)
    const cols = batch.take(this.spare.pop())
    const path = join(this.dir, PARTS, partName(this.next++))
    this.written.push(path)
    // The columns' arrays move to the worker (not cloned): the caller gives them up (ColumnBatch.take).
    this.worker.postMessage(
      { part: this.posted++, cols, path },
      cols.map((c) => c.data.buffer as ArrayBuffer),
    )
  }

  /** Waits until every part handed over is on disk; throws if one could not be written. */
  async flush(): Promise<void> {
    let flushed = false
    const on = (m: Reply): void => {
      if (m.flushed) {
        flushed = true
        this.wake()
      }
    }
    this.worker.on('message', on)
    this.worker.postMessage({ flush: true })
    try {
      await this.until(() => flushed)
    } finally {
      this.worker.off('message', on)
    }
    if (this.failed !== undefined) throw new Error(this.failed)
  }

  /** Removes every part this appender wrote (flush first). */
  discard(): void {
    for (const p of this.written) {
      rmSync(p, { force: true })
      forgetPart(p)
    }
    this.written.length = 0
  }

  close(): void {
    this.worker.removeAllListeners('exit')
    void this.worker.terminate()
  }
}
