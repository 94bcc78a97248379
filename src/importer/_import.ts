import { mkdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { COLLECTIVE_DEFS, collectiveDef } from '../collectives/index.ts'
import { badInput } from '../errors/index.ts'
import { acquireLock } from '../exec/index.ts'
import type { Diagnostic, Manifest } from '../model/index.ts'
import {
  Appender,
  ColumnBatch,
  isNonEmptyDir,
  newManifest,
  RAW,
  readManifest,
  ThreadedAppender,
  writeManifest,
} from '../resultset/index.ts'
import type { ImportInput, Planned } from './_plan.ts'
import { plan } from './_plan.ts'
import { importOne, rmRaw } from './_source.ts'

/** Options of importFiles. */
export interface ImportOptions {
  out: string
  /** Add to an existing result set instead of refusing a non-empty directory. */
  append?: boolean
  /** The command line, recorded in the manifest. */
  command: string[]
  /** The collective of nccl-tests texts that do not name theirs (one of the collectives registry). */
  collective?: string
  /**
   * Called with every part on disk and before the manifest commits them (tests: a kill hook,
   * what SIGKILL at that moment leaves). Not for anything else.
   */
  beforeCommit?: () => void
}

/** What an import did. */
export interface ImportSummary {
  manifest: Manifest
  rows: number
  diagnostics: Diagnostic[]
}

/**
 * Imports tool outputs into a result set: raw bytes copied to raw/, rows streamed into
 * Parquet parts (one per batch), sources (with sha256) recorded in manifest.json. Never leaves a half-written
 * set: a new set is built in a hidden sibling directory and renamed into place once its
 * manifest is written; an append holds the set's lock (as a sweep does) and, if it fails,
 * takes its rows and raw copies back out.
 */
export async function importFiles(inputs: readonly ImportInput[], opts: ImportOptions): Promise<ImportSummary> {
  const diagnostics: Diagnostic[] = []
  if (opts.collective !== undefined && !collectiveDef(opts.collective))
    throw badInput(
      `--collective: "${opts.collective}" is not a collective (known: ` +
        `${COLLECTIVE_DEFS.map((c) => c.name).join(', ')})`,
    )
  const planned = plan(inputs, diagnostics)
  if (!isNonEmptyDir(opts.out)) return staged(opts.out, (dir) => importInto(dir, planned, opts, undefined, diagnostics))
  if (!opts.append) throw badInput(`${opts.out}: directory is not empty (use --append to add to a result set)`)
  readManifest(opts.out) // a foreign directory is refused before a lock is written into it
  const release = acquireLock(opts.out, { by: 'import', waitMs: APPEND_WAIT_MS })
  try {
    return await appendTo(opts, planned, diagnostics)
  } finally {
    release()
  }
}

/** How long an append waits for another writer of the set (an append is short; a sweep is not). */
const APPEND_WAIT_MS = 15_000

/** Appends to an existing set; the caller holds its lock, so the manifest read here is the latest. */
async function appendTo(opts: ImportOptions, planned: Planned[], diagnostics: Diagnostic[]): Promise<ImportSummary> {
  const manifest = readManifest(opts.out)
  const mixed = planned.find((p) => p.simulated !== (manifest.simulated === true))
  if (mixed)
    throw badInput(
      `${mixed.input.path}: ` +
        `${mixed.simulated ? 'SIMULATED output' : 'real output'} cannot be appended to ` +
        `${opts.out}, a ` +
        `${manifest.simulated ? 'SIMULATED' : 'real'} result set (import it into its own set)`,
    )
  const other = planned.find((p) => p.scale !== (manifest.simScale ?? 1))
  if (other)
    throw badInput(
      `${other.input.path}: its --sim-scale (${other.scale}) differs from ${opts.out}'s ` +
        `(${manifest.simScale ?? 1}); import it into its own set`,
    )
  const before = (manifest.sources ?? []).length
  try {
    return await importInto(opts.out, planned, opts, manifest, diagnostics)
  } catch (e) {
    for (let i = before; i < before + planned.length; i++) rmRaw(opts.out, i)
    throw e
  }
}

/** Builds a new set in a hidden sibling of `out`, then renames it into place (atomic on one file system). */
async function staged<T>(out: string, build: (dir: string) => Promise<T>): Promise<T> {
  mkdirSync(dirname(out), { recursive: true })
  const work = join(dirname(out), `.${basename(out)}.importing-${process.pid}`)
  rmSync(work, { recursive: true, force: true })
  try {
    const r = await build(work)
    renameSync(work, out)
    return r
  } catch (e) {
    rmSync(work, { recursive: true, force: true })
    throw e
  }
}

async function importInto(
  dir: string,
  planned: Planned[],
  opts: ImportOptions,
  existing: Manifest | undefined,
  diagnostics: Diagnostic[],
): Promise<ImportSummary> {
  const manifest =
    existing ??
    newManifest({
      origin: 'import',
      simulated: planned.some((p) => p.simulated),
      command: opts.command,
      ...((planned[0]?.scale ?? 1) !== 1 ? { simScale: planned[0]?.scale } : {}),
    })
  mkdirSync(join(dir, RAW), { recursive: true })
  const sources = manifest.sources ?? []
  // A worker thread writes the parts while this one parses the next batch; small inputs are
  // written here (the same parts, byte for byte), since their parsing ends before a thread starts.
  const appender =
    inputBytes(planned) < THREAD_MIN_BYTES
      ? await Appender.open(dir, { commitEach: false })
      : await ThreadedAppender.open(dir)
  // The batch grows (doubling) as rows come, so a small import does not zero a full part's 22 MB.
  const batch = new ColumnBatch(1024)
  let total = 0
  try {
    for (const { input, parser, simulated } of planned) {
      const src = await importOne(input, parser, dir, sources.length, { appender, batch }, opts.collective)
      sources.push(src.file)
      diagnostics.push(...src.diagnostics)
      total += src.file.rows
      if (simulated) manifest.simulated = true
    }
    await appender.flush()
  } catch (e) {
    await appender.flush().catch(() => {})
    appender.discard()
    throw e
  } finally {
    appender.close()
  }
  // A run that reported itself corrupt (nvbandwidth's failed data check) is kept as evidence: exit 1, not bad input.
  const corrupt = diagnostics.some((d) => d.code === 'corrupt-run')
  if (total === 0 && !corrupt && planned.every((p) => p.parser.kind === 'measurement'))
    throw noRows(planned, diagnostics)
  manifest.sources = sources
  const first = sources[0]
  if (first && !manifest.instrument) {
    const v = first.meta.version
    manifest.instrument = { name: first.format, ...(typeof v === 'string' ? { version: v } : {}) }
  }
  opts.beforeCommit?.()
  writeManifest(dir, manifest)
  return { manifest, rows: total, diagnostics }
}

/**
 * Inputs under this many bytes together are written on the importing thread: they parse in
 * milliseconds, less than starting the writer thread takes (~0.2 s of CPU from dist/, ~0.5 s
 * from the sources), so the thread's writing would have next to no parsing to overlap.
 */
export const THREAD_MIN_BYTES = 1 << 20

/** The inputs' bytes together; a pipe or device (size unknown) counts as large. */
function inputBytes(planned: readonly Planned[]): number {
  let n = 0
  for (const { input } of planned) {
    if (input.data) n += input.data.length
    else {
      const st = statSync(input.path, { throwIfNoEntry: false })
      n += st?.isFile() ? st.size : Infinity
    }
  }
  return n
}

/**
 * Measurement files that held no rows (a banner only, a run killed before its first line):
 * bad input, not a set of 0 rows; the first warning says why.
 */
function noRows(planned: Planned[], diagnostics: readonly Diagnostic[]): Error {
  const why = diagnostics.find((d) => d.severity !== 'info')
  const names = planned.map((p) => p.input.path).join(', ')
  return badInput(`${names}: no rows to import${why ? ` (line ${why.line}: ${why.message})` : ''}; nothing written`)
}
