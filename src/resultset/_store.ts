import {
  createReadStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { badInput } from '../errors/index.ts'
import type { Diagnostic, Manifest, Row } from '../model/index.ts'
import { rowProblem, SCHEMA_VERSION } from '../model/index.ts'
import { noteLoad } from './_load-notes.ts'
import { LEGACY_SAMPLES, migrated, readParts } from './_parts.ts'
import { commitRecord, committed } from './parquet/_commit.ts'

/** File names inside a result-set directory (samples: see _parts.ts). */
export const MANIFEST = 'manifest.json'
export const SAMPLES = LEGACY_SAMPLES
export const RAW = 'raw'

/** True when `dir` exists and holds anything. */
export function isNonEmptyDir(dir: string): boolean {
  return existsSync(dir) && statSync(dir).isDirectory() && readdirSync(dir).length > 0
}

/**
 * Writes manifest.json atomically (temp file + rename), so a crash never leaves half a
 * manifest. It commits the parts this process wrote into `dir` (their sha256 in `parts`,
 * _commit.ts): until this rename they count for no reader.
 */
export function writeManifest(dir: string, manifest: Manifest): void {
  mkdirSync(dir, { recursive: true })
  const tmp = join(dir, `.${MANIFEST}.${process.pid}.tmp`)
  const parts = commitRecord(dir)
  writeFileSync(tmp, `${JSON.stringify({ ...manifest, schema: SCHEMA_VERSION, parts }, null, 2)}\n`)
  renameSync(tmp, join(dir, MANIFEST))
  committed(dir, parts)
}

/** Reads and checks manifest.json; a missing or foreign directory is bad input. */
export function readManifest(dir: string): Manifest {
  if (!existsSync(dir)) throw badInput(`${dir}: no such directory`)
  const path = join(dir, MANIFEST)
  if (!existsSync(path)) throw badInput(`${dir}: not a gpucomm result set (no ${MANIFEST})`)
  let m: unknown
  try {
    m = JSON.parse(readFileSync(path, 'utf8'))
  } catch (e) {
    throw badInput(`${path}: not valid JSON (${(e as Error).message})`)
  }
  const o = m as Partial<Manifest>
  if (typeof o !== 'object' || o === null || typeof o.id !== 'string' || (o.schema !== 1 && o.schema !== 2)) {
    const newer = typeof o?.schema === 'number' && o.schema > SCHEMA_VERSION
    throw badInput(
      newer
        ? `${path}: result set of schema ${o.schema}, newer than this gpucomm reads (` +
            `${SCHEMA_VERSION}); upgrade gpucomm`
        : `${path}: not a gpucomm manifest (schema 1 or 2 expected)`,
    )
  }
  return o as Manifest
}

/**
 * Streams the rows of a result set: a schema-1 samples.jsonl (unless a writer already
 * moved it into part 0), then the Parquet parts in write order. Bad lines and unreadable
 * parts become diagnostics naming file:line or the part; nothing is dropped silently.
 * Returns the count of good rows.
 */
export async function readRows(
  dir: string,
  onRow: (row: Row) => void,
  onDiagnostic: (d: Diagnostic) => void,
): Promise<number> {
  const legacy = legacySamples(dir) === undefined ? 0 : await readJsonl(dir, onRow, onDiagnostic)
  return legacy + (await readParts(dir, onRow, onDiagnostic))
}

/** Path of the schema-1 samples.jsonl of `dir` when its rows are to be read there (not yet moved into part 0). */
export function legacySamples(dir: string): string | undefined {
  const path = join(dir, SAMPLES)
  return existsSync(path) && !migrated(dir) ? path : undefined
}

/**
 * Streams a schema-1 samples.jsonl, validating every line. Bad lines become diagnostics
 * naming file:line. Returns the count of good rows.
 */
export async function readJsonl(
  dir: string,
  onRow: (row: Row) => void,
  onDiagnostic: (d: Diagnostic) => void,
): Promise<number> {
  const path = join(dir, SAMPLES)
  if (!existsSync(path)) return 0
  const rl = createInterface({ input: createReadStream(path), crlfDelay: Infinity })
  let lineNo = 0
  let good = 0
  for await (const line of rl) {
    lineNo++
    if (line.trim() === '') continue
    let v: unknown
    let problem: string | undefined
    try {
      v = JSON.parse(line)
      problem = rowProblem(v)
    } catch {
      problem = 'not valid JSON (a torn or corrupted line)'
    }
    if (problem) {
      onDiagnostic({
        file: path,
        line: lineNo,
        severity: 'error',
        code: 'corrupt-line',
        message: `${path}:${lineNo}: ${problem}`,
      })
    } else {
      good++
      onRow(v as Row)
    }
  }
  return good
}

/** A loaded result set. */
export interface LoadedSet {
  dir: string
  manifest: Manifest
  rows: Row[]
  diagnostics: Diagnostic[]
}

/**
 * Loads a whole result set into memory (use readRows to stream a large one). Corrupt lines
 * are skipped, returned as diagnostics and passed to the caller's withLoadNotes collector.
 */
export async function loadSet(dir: string): Promise<LoadedSet> {
  const manifest = readManifest(dir)
  const rows: Row[] = []
  const diagnostics: Diagnostic[] = []
  await readRows(
    dir,
    (r) => rows.push(r),
    (d) => diagnostics.push(d),
  )
  noteLoad(diagnostics)
  return { dir, manifest, rows, diagnostics }
}
