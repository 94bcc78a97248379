/**
 * A result set's rows as they are stored (every field, source line and iteration included),
 * a chunk at a time: what `export` writes. Memory holds one chunk of rows, never the set.
 */
import type { Diagnostic, Manifest, Row } from '../model/index.ts'
import { noteLoad } from './_load-notes.ts'
import { readManifest, readRows } from './_store.ts'

/** Rows handed over at a time (a DuckDB chunk is 2,048 rows; a JSON-lines set is batched to this). */
export const CHUNK_ROWS = 4096

/** What `streamRows` read: the manifest, the count of good rows and what it skipped. */
export interface Streamed {
  manifest: Manifest
  count: number
  diagnostics: Diagnostic[]
}

/**
 * Calls `onChunk` with the rows of `dir` in stored order, at most CHUNK_ROWS at a time; the
 * chunk's rows are fresh objects the callee may keep. Bad lines and unreadable parts are
 * skipped, returned, and passed to the caller's withLoadNotes collector, as `loadSet` does.
 * The manifest is read (and checked) first, so a directory that is no set writes nothing.
 */
export async function streamRows(dir: string, onChunk: (rows: Row[]) => void): Promise<Streamed> {
  const manifest = readManifest(dir)
  const diagnostics: Diagnostic[] = []
  let chunk: Row[] = []
  const count = await readRows(
    dir,
    (r) => {
      chunk.push(r)
      if (chunk.length < CHUNK_ROWS) return
      onChunk(chunk)
      chunk = []
    },
    (d) => diagnostics.push(d),
  )
  if (chunk.length > 0) onChunk(chunk)
  noteLoad(diagnostics)
  return { manifest, count, diagnostics }
}
