/**
 * A result set's rows as they are stored (every field, source line and iteration included),
 * a chunk at a time: what `export` writes, and what a chart that counts printed lines reads.
 * Memory holds one chunk of rows, never the set.
 */
import type { Diagnostic, Manifest, Metric, Row } from '../model/index.ts'
import { noteLoad } from './_load-notes.ts'
import { listParts, readableParts } from './_parts.ts'
import { legacySamples, readJsonl, readManifest } from './_store.ts'

/** Rows handed over at a time (a DuckDB chunk is 2,048 rows; a JSON-lines set is batched to this). */
export const CHUNK_ROWS = 4096

/** What `streamRows` read: the manifest, the count of rows handed over and what it skipped. */
export interface Streamed {
  manifest: Manifest
  count: number
  diagnostics: Diagnostic[]
}

/** Options of `streamRows`. */
export interface StreamOptions {
  /** Only the rows of this metric (filtered in the engine for Parquet parts). */
  metric?: Metric
  /** Pass what was skipped to the caller's withLoadNotes collector (default true; false when the set was already loaded once). */
  note?: boolean
}

/**
 * Calls `onChunk` with the rows of `dir` in stored order (a schema-1 samples.jsonl, then the
 * parts), at most CHUNK_ROWS at a time; the chunk's rows are fresh objects the callee may
 * keep. When `onChunk` returns a promise (a writer waiting for its reader), no more rows are
 * read from the parts until it resolves. Bad lines and unreadable parts are skipped and
 * returned, as `loadSet` does. The manifest is read (and checked) first, so a directory
 * that is no set hands over nothing.
 */
export async function streamRows(
  dir: string,
  onChunk: (rows: Row[]) => void | Promise<void>,
  opts: StreamOptions = {},
): Promise<Streamed> {
  const manifest = readManifest(dir)
  const diagnostics: Diagnostic[] = []
  const onDiagnostic = (d: Diagnostic): void => void diagnostics.push(d)
  let chunk: Row[] = []
  let count = 0
  let waiting: Promise<void> | undefined
  const take = (r: Row): void => {
    if (opts.metric !== undefined && r.metric !== opts.metric) return
    chunk.push(r)
    count++
    if (chunk.length < CHUNK_ROWS) return
    waiting = onChunk(chunk) ?? undefined
    chunk = []
  }
  if (legacySamples(dir) !== undefined) await readJsonl(dir, take, onDiagnostic)
  await waiting
  const parts = listParts(dir)
  if (parts.length > 0) {
    const d = await import('./_duck.ts')
    const r = await import('./_read.ts')
    const db = await d.openDuck()
    try {
      const readable = await readableParts(db, parts, onDiagnostic)
      const where = opts.metric === undefined ? undefined : `metric = ${d.sqlString(opts.metric)}`
      for await (const rows of r.partRows(db, readable, new r.Intern(), where)) {
        for (const x of rows) take(x)
        await waiting
      }
    } finally {
      db.close()
    }
  }
  if (chunk.length > 0) await onChunk(chunk)
  if (opts.note !== false) noteLoad(diagnostics)
  return { manifest, count, diagnostics }
}
