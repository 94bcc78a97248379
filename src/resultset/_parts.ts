/**
 * Samples of a schema-2 result set: Parquet parts under samples/, one per sweep point or
 * import batch, each written atomically (temp file, then rename), so a crash loses at most
 * the part being written. A schema-1 set keeps its samples.jsonl; the first writer that
 * opens it moves those rows into part 0 (then removes the file), and readers read either.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { badInput } from '../errors/index.ts'
import type { Diagnostic, Row } from '../model/index.ts'
import type { ColumnBatch, Encoded } from './_columns.ts'
import type { Duck } from './_duck.ts'
import { noteLoad } from './_load-notes.ts'
import {
  commitNow,
  forgetPart,
  PART_RE,
  PARTS,
  partFiles,
  partName,
  partRecord,
  registerPart,
} from './parquet/_commit.ts'
import { writeParquetPart, writeRowsPart } from './parquet/_parquet.ts'
import { notLinked } from './parquet/_part-check.ts'

export { PARTS, partName }
/** The samples file of a schema-1 set. */
export const LEGACY_SAMPLES = 'samples.jsonl'

/**
 * Paths of the committed parts of `dir` (listed by its manifest; every part on disk in a set
 * older than that record), in write order. Temp files and uncommitted parts are not parts.
 */
export function listParts(dir: string): string[] {
  const d = join(dir, PARTS)
  notLinked(dir)
  const record = partRecord(dir)
  if (record && record.length > 0 && !existsSync(d) && !existsSync(join(dir, LEGACY_SAMPLES)))
    throw badInput(`${dir}: no ${PARTS}/ folder; the ${record.length} part(s) its manifest lists are missing`)
  return (record?.map((p) => p.file) ?? partFiles(dir)).map((f) => join(d, f))
}

/** The bytes of the parts of `dir` (0 when it has none, or is not a set). */
export function partBytes(dir: string): number {
  try {
    return listParts(dir).reduce((a, p) => a + statSync(p).size, 0)
  } catch {
    return 0
  }
}

/** True when the rows of samples.jsonl already live in part 0 (a migration the writer finished or nearly did). */
export const migrated = (dir: string): boolean => existsSync(join(dir, PARTS, partName(0)))

const duck = async (): Promise<typeof import('./_duck.ts')> => import('./_duck.ts')

/**
 * Streams every row of the parts of `dir` in write order. A part that cannot be read
 * becomes one diagnostic naming it, and the other parts are read.
 */
export async function readParts(
  dir: string,
  onRow: (row: Row) => void,
  onDiagnostic: (d: Diagnostic) => void,
): Promise<number> {
  const parts = listParts(dir)
  if (parts.length === 0) return 0
  const d = await duck()
  const r = await import('./_read.ts')
  const db = await d.openDuck()
  let good = 0
  try {
    const readable = await readableParts(db, parts, onDiagnostic)
    for await (const rows of r.partRows(db, readable, new r.Intern())) {
      for (const x of rows) onRow(x)
      good += rows.length
    }
  } finally {
    db.close()
  }
  return good
}

/**
 * The parts that can be read, in order; each other part becomes one diagnostic naming it and
 * why (_part-check.ts: a link, unreadable bytes, a sha256 other than the committed one, columns
 * that are not gpucomm's, pages that do not decode), and the rest are read.
 */
export async function readableParts(db: Duck, parts: readonly string[], onDiagnostic: (d: Diagnostic) => void) {
  const { partProblem, recordedSha } = await import('./parquet/_part-check.ts')
  const ok: string[] = []
  const sha = recordedSha()
  for (const path of parts) {
    const why = await partProblem(db, path, sha(path))
    if (why === undefined) ok.push(path)
    else onDiagnostic({ file: path, line: 0, severity: 'error', code: 'corrupt-part', message: `${path}: ${why}` })
  }
  return ok
}

/**
 * Writes parts into a result set. `append` writes one part (a point's rows, or an import
 * batch) and resolves when it is on disk under its final name.
 */
export class Appender {
  private written: string[] = []
  private constructor(
    private readonly dir: string,
    private next: number,
    private readonly commitEach: boolean,
  ) {}

  /**
   * Opens `dir` for appending; rows of a schema-1 samples.jsonl move into part 0 first. The
   * caller holds the set's lock, so a temp part found here is what a writer killed in the
   * middle of a part left behind (never read as a part): it is removed, as are parts no
   * manifest committed. `commitEach` (default): each part is committed into the set's
   * manifest as soon as it is written (a sweep point); false: the parts count only once the
   * caller's writeManifest commits them all (an import: all or nothing).
   */
  static async open(dir: string, { commitEach = true }: { commitEach?: boolean } = {}): Promise<Appender> {
    notLinked(dir)
    mkdirSync(join(dir, PARTS), { recursive: true })
    for (const f of readdirSync(join(dir, PARTS))) if (f.endsWith('.tmp')) rmSync(join(dir, PARTS, f), { force: true })
    // Parts no manifest committed were left by a writer killed before its commit: never read, removed.
    const record = partRecord(dir)
    if (record)
      for (const f of partFiles(dir))
        if (!record.some((p) => p.file === f)) {
          rmSync(join(dir, PARTS, f), { force: true })
          forgetPart(join(dir, PARTS, f))
        }
    const last = partFiles(dir).at(-1)
    const app = new Appender(dir, last ? Number(PART_RE.exec(last)?.[1]) + 1 : 1, commitEach)
    await app.migrate()
    return app
  }

  /** Moves a schema-1 samples.jsonl into part 0 (bad lines stay behind in no part: the loader reported them). */
  private async migrate(): Promise<void> {
    const legacy = join(this.dir, LEGACY_SAMPLES)
    if (!existsSync(legacy)) return
    if (!migrated(this.dir)) {
      const { readJsonl } = await import('./_store.ts')
      const rows: Row[] = []
      await readJsonl(
        this.dir,
        (r) => rows.push(r),
        () => {},
      )
      const path = join(this.dir, PARTS, partName(0))
      const sha = writeRowsPart(rows, path)
      if (sha) registerPart(path, sha)
      commitNow(this.dir) // the set's own rows: committed before samples.jsonl goes
    }
    rmSync(legacy)
  }

  /** The number the next part will have. */
  get nextPart(): number {
    return this.next
  }

  /** Writes `rows` as the next part; resolves when it is on disk. */
  async append(rows: readonly Row[]): Promise<void> {
    if (rows.length === 0) return
    const { encode } = await import('./_columns.ts')
    await this.appendColumns(encode(rows))
    await this.flush()
  }

  /**
   * Writes a batch's encoded columns (ColumnBatch.encoded()) as the next part, on this
   * thread; resolves with the part on disk (the batch may then be reused), and throws if it
   * could not be written.
   */
  async appendColumns(cols: readonly Encoded[]): Promise<void> {
    if ((cols[0]?.data.length ?? 0) === 0) return
    const path = join(this.dir, PARTS, partName(this.next++))
    this.written.push(path)
    const sha = writeParquetPart(cols, path)
    if (sha) registerPart(path, sha)
    if (this.commitEach) commitNow(this.dir)
  }

  /** Starts writing the rows of `batch` as the next part (appendColumns), and empties it. */
  async appendBatch(batch: ColumnBatch): Promise<void> {
    if (batch.length === 0) return
    await this.appendColumns(batch.encoded())
    batch.clear()
  }

  /** Every part is on disk once its append resolves: there is nothing to wait for (ThreadedAppender's counterpart). */
  async flush(): Promise<void> {}

  /** Removes every part this appender wrote (an import that failed takes its rows back out; flush first). */
  discard(): void {
    for (const p of this.written) {
      rmSync(p, { force: true })
      forgetPart(p)
    }
    this.written = []
  }

  /** Nothing to release (ThreadedAppender's counterpart stops its thread). */
  close(): void {}
}

/**
 * Keeps only the rows `keep` accepts: a part with a row to drop is rewritten (atomically)
 * with the rest, or removed when nothing is left. A damaged part is reported and left alone. Returns the rows kept and the count dropped.
 */
export async function pruneParts(
  dir: string,
  keep: (r: Row) => boolean,
  onDiagnostic: (d: Diagnostic) => void = () => {},
): Promise<{ kept: Row[]; dropped: number }> {
  const kept: Row[] = []
  let dropped = 0
  if (listParts(dir).length === 0) return { kept, dropped }
  const d = await duck()
  const r = await import('./_read.ts')
  const intern = new r.Intern()
  const db = await d.openDuck()
  try {
    // A part that may not be read is left as it is (and reported), as every reader does.
    for (const path of await readableParts(db, listParts(dir), onDiagnostic)) {
      const mine: Row[] = []
      let gone = 0
      for await (const rows of r.partRows(db, [path], intern)) for (const x of rows) keep(x) ? mine.push(x) : gone++
      if (gone > 0 && mine.length === 0) rmSync(path)
      else if (gone > 0) {
        const sha = writeRowsPart(mine, path)
        if (sha) registerPart(path, sha)
      }
      for (const r of mine) kept.push(r)
      dropped += gone
    }
  } finally {
    db.close()
  }
  return { kept, dropped }
}

/**
 * Writes every row of the set in `dir` to one Parquet file `out` (temp file, then rename),
 * with a `simulated` column of true when the set is SIMULATED. Unreadable parts and bad
 * samples.jsonl lines are left out, reported as the loader reports them (noteLoad) and returned.
 */
export async function exportParquet(dir: string, out: string, simulated: boolean): Promise<Diagnostic[]> {
  const { legacySamples, readJsonl } = await import('./_store.ts')
  const d = await duck()
  const db = await d.openDuck()
  const diagnostics: Diagnostic[] = []
  const scratch = mkdtempSync(join(tmpdir(), 'gpucomm-export-'))
  try {
    const sources: string[] = []
    if (legacySamples(dir) !== undefined) {
      const rows: Row[] = []
      await readJsonl(
        dir,
        (r) => rows.push(r),
        (x) => diagnostics.push(x),
      )
      sources.push(join(scratch, partName(0)))
      writeRowsPart(rows, sources[0] as string)
    }
    sources.push(...(await readableParts(db, listParts(dir), (x) => diagnostics.push(x))))
    const sim = simulated ? ', true AS simulated' : ''
    const from = sources.filter((p) => existsSync(p))
    const select =
      from.length > 0
        ? `SELECT *${sim} FROM read_parquet([${from.map(d.sqlString).join(', ')}])`
        : `SELECT *${sim} FROM read_parquet(${d.sqlString(await emptyPart(d, db, scratch))})`
    const tmp = `${out}.${process.pid}.tmp`
    await d.copyTo(db, select, tmp, out)
  } finally {
    db.close()
    rmSync(scratch, { recursive: true, force: true })
  }
  noteLoad(diagnostics) // the rule of every reader: one warning per damaged file, the other rows used
  return diagnostics
}

/** A part with the columns and no rows (what an empty set exports). */
async function emptyPart(d: typeof import('./_duck.ts'), db: Duck, scratch: string): Promise<string> {
  const path = join(scratch, 'empty.parquet')
  await d.writeEmptyPart(db, path)
  return path
}
