import {
  closeSync,
  createReadStream,
  existsSync,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { badInput } from '../errors/index.ts'
import type { Diagnostic, Manifest, Row } from '../model/index.ts'
import { rowProblem } from '../model/index.ts'
import { noteLoad } from './_load-notes.ts'

/** File names inside a result-set directory. */
export const MANIFEST = 'manifest.json'
export const SAMPLES = 'samples.jsonl'
export const RAW = 'raw'

/** True when `dir` exists and holds anything. */
export function isNonEmptyDir(dir: string): boolean {
  return existsSync(dir) && statSync(dir).isDirectory() && readdirSync(dir).length > 0
}

/** Writes manifest.json atomically (temp file + rename), so a crash never leaves half a manifest. */
export function writeManifest(dir: string, manifest: Manifest): void {
  mkdirSync(dir, { recursive: true })
  const tmp = join(dir, `.${MANIFEST}.${process.pid}.tmp`)
  writeFileSync(tmp, `${JSON.stringify(manifest, null, 2)}\n`)
  renameSync(tmp, join(dir, MANIFEST))
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
  if (typeof o !== 'object' || o === null || o.schema !== 1 || typeof o.id !== 'string') {
    throw badInput(`${path}: not a gpucomm manifest (schema 1 expected)`)
  }
  return o as Manifest
}

/**
 * Appends rows to samples.jsonl. Every `append` is one write followed by fsync, so a crash
 * loses at most the line being written; a torn last line from an earlier crash is fenced
 * off with a newline on open, so the loader reports it and later rows stay readable.
 */
export class Appender {
  private fd: number
  constructor(dir: string) {
    mkdirSync(dir, { recursive: true })
    this.fd = openSync(join(dir, SAMPLES), 'a+')
    const size = fstatSync(this.fd).size
    if (size > 0) {
      const last = Buffer.alloc(1)
      readSync(this.fd, last, 0, 1, size - 1)
      if (last[0] !== 0x0a) writeSync(this.fd, '\n')
    }
  }
  /** Writes the rows of one point (or one batch) durably. */
  append(rows: readonly Row[], sync = true): void {
    if (rows.length === 0) return
    let text = ''
    for (const r of rows) text += `${JSON.stringify(r)}\n`
    writeSync(this.fd, text)
    if (sync) fsyncSync(this.fd)
  }
  close(): void {
    fsyncSync(this.fd)
    closeSync(this.fd)
  }
}

/**
 * Streams samples.jsonl, validating every line. Bad lines become diagnostics naming
 * file:line; nothing is dropped silently. Returns the count of good rows.
 */
export async function readRows(
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
