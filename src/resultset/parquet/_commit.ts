/**
 * Which parts of a result set count. A part is committed once manifest.json lists it
 * (Manifest.parts) with the sha256 of its bytes: writers register each part they write here,
 * and writeManifest commits the registered ones together with the manifest (one rename), so a
 * writer killed between its parts and its manifest leaves parts nobody reads; the next writer
 * removes them. Readers read only committed parts and check each one's sha256. A set written
 * before the record existed has no `parts`: every part on disk counts, unchecked.
 */
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { PartRecord } from '../../model/index.ts'

/** The folder of the parts, inside a result set. */
export const PARTS = 'samples'
export const PART_RE = /^part-(\d{6})\.parquet$/
export const partName = (n: number): string => `part-${String(n).padStart(6, '0')}.parquet`

/** Part path → sha256 of what this process wrote there and has not committed yet. */
const pending = new Map<string, string>()

/** The sha256 of `bytes`, hex. */
export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex')

/** Notes that this process wrote `path` with bytes of `sha`: the next writeManifest of its set commits it. */
export function registerPart(path: string, sha: string): void {
  pending.set(resolve(path), sha)
}

/** Forgets a part this process wrote and removed again (an import that failed). */
export function forgetPart(path: string): void {
  pending.delete(resolve(path))
}

/** Names of the part files in `dir`'s samples/ (committed or not), in write order. */
export function partFiles(dir: string): string[] {
  const d = join(dir, PARTS)
  return existsSync(d)
    ? readdirSync(d)
        .filter((f) => PART_RE.test(f))
        .sort()
    : []
}

/**
 * The parts record of `dir`'s manifest.json: undefined when it has none (a set written before
 * the record existed, or no readable manifest). Entries that do not name a part file are left out.
 */
export function partRecord(dir: string): PartRecord[] | undefined {
  let m: { parts?: unknown }
  try {
    m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { parts?: unknown }
  } catch {
    return undefined
  }
  if (!Array.isArray(m?.parts)) return undefined
  return (m.parts as Partial<PartRecord>[]).filter(
    (p): p is PartRecord => typeof p?.file === 'string' && PART_RE.test(p.file) && typeof p.sha256 === 'string',
  )
}

/**
 * The record writeManifest stores: each part on disk that is committed or that this process
 * wrote (its new sha256 when it rewrote it), in write order. In a set without a record yet,
 * the parts already there are taken as committed (hashed now). Clears what it commits.
 */
export function commitRecord(dir: string): PartRecord[] {
  const before = partRecord(dir)
  const known = new Map((before ?? []).map((p) => [p.file, p.sha256]))
  const out: PartRecord[] = []
  for (const file of partFiles(dir)) {
    const path = resolve(dir, PARTS, file)
    const sha = pending.get(path) ?? known.get(file) ?? (before === undefined ? sha256(readFileSync(path)) : undefined)
    if (sha !== undefined) out.push({ file, sha256: sha })
  }
  return out
}

/** After the manifest holding `record` is in place: its parts are no longer pending. */
export function committed(dir: string, record: readonly PartRecord[]): void {
  for (const p of record) pending.delete(resolve(dir, PARTS, p.file))
}

/**
 * Commits the parts this process wrote into `dir` now, in the manifest already there (its
 * other fields kept; one atomic rename). Without a manifest they stay pending until the
 * first writeManifest. What an Appender that commits each part calls after every part.
 */
export function commitNow(dir: string): void {
  const path = join(dir, 'manifest.json')
  let m: Record<string, unknown>
  try {
    m = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>
  } catch {
    return
  }
  const parts = commitRecord(dir)
  const tmp = join(dir, `.manifest.json.${process.pid}.tmp`)
  writeFileSync(tmp, `${JSON.stringify({ ...m, parts }, null, 2)}\n`)
  renameSync(tmp, path)
  committed(dir, parts)
}
