import { createHash } from 'node:crypto'
import { closeSync, existsSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs'
import { basename, join } from 'node:path'
import type { Diagnostic, SourceFile } from '../model/index.ts'
import { NcclInfoCollector } from '../nccl-log/index.ts'
import type { Parser } from '../parsers/index.ts'
import type { ColumnBatch, ThreadedAppender } from '../resultset/index.ts'
import { RAW } from '../resultset/index.ts'
import { eachLine } from './_lines.ts'
import type { ImportInput } from './_plan.ts'

/** Rows per part of an import (its columns take about 22 MB while a batch fills). */
export const BATCH_ROWS = 1 << 17

const rawPrefix = (index: number): string => `${String(index).padStart(3, '0')}-`

/** Removes the raw copy of source `index`, if any. */
export function rmRaw(dir: string, index: number): void {
  for (const f of existsSync(join(dir, RAW)) ? readdirSync(join(dir, RAW)) : [])
    if (f.startsWith(rawPrefix(index))) rmSync(join(dir, RAW, f), { force: true })
}

/** Where the parts go: the batch the parser's rows fill, and the appender that writes it as a part. */
export interface RowSink {
  appender: Pick<ThreadedAppender, 'appendBatch'>
  batch: ColumnBatch
}

/**
 * Imports one input as source `index` of the set in `out`: its bytes copied to raw/ (and
 * hashed), its rows parsed into the batch (a part written whenever it fills, and at the end),
 * NCCL's INFO lines kept as the source's NCCL account.
 */
export async function importOne(
  input: ImportInput,
  parser: Parser,
  out: string,
  index: number,
  sink: RowSink,
  collective: string | undefined,
): Promise<{ file: SourceFile; diagnostics: Diagnostic[] }> {
  const name = input.path === '-' ? 'stdin.txt' : basename(input.path)
  const raw = `${RAW}/${rawPrefix(index)}${name.replace(/[^\w.+-]/g, '_')}`
  // A link (or a killed append's leftover) in its place is replaced, never written through.
  rmSync(join(out, raw), { force: true })
  const rawFd = openSync(join(out, raw), 'wx')
  // Rows go into the batch's columns as the parser emits them; no row object is kept.
  let rows = 0
  const lp = parser.open({ file: raw, ...(collective ? { collective } : {}) }, (r) => {
    sink.batch.add(r)
    rows++
  })
  // NCCL's INFO lines, read as a sweep reads its own runs' (the parser skips them as noise).
  const nccl = new NcclInfoCollector()
  let copied: { sha256: string; bytes: number }
  try {
    copied = await copyLines(input, rawFd, sink, (line, no) => {
      lp.line(line, no)
      nccl.line(line)
    })
  } finally {
    closeSync(rawFd)
  }
  const { meta, diagnostics } = lp.end()
  await sink.appender.appendBatch(sink.batch)
  const file: SourceFile = {
    path: input.path,
    raw,
    sha256: copied.sha256,
    bytes: copied.bytes,
    format: parser.id,
    meta,
    rows,
    diagnostics: diagnostics.length,
  }
  const account = nccl.account()
  if (account) file.nccl = account
  return { file, diagnostics: diagnostics.map((d) => ({ ...d, file: input.path })) }
}

/** Streams the input's lines to `onLine` while its bytes are hashed and copied to `fd`. */
async function copyLines(
  input: ImportInput,
  fd: number,
  { appender, batch }: RowSink,
  onLine: (line: string, no: number) => void,
): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256')
  let bytes = 0
  await eachLine(
    input.data ?? input.path,
    onLine,
    (chunk) => {
      hash.update(chunk)
      bytes += chunk.length
      writeSync(fd, chunk)
    },
    // One part per import batch: written between chunks of input, once a batch is full.
    async () => {
      if (batch.length >= BATCH_ROWS) await appender.appendBatch(batch)
    },
  )
  return { sha256: hash.digest('hex'), bytes }
}
