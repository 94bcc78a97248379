/**
 * Whether one samples part may be read: a part is data that may be damaged or hostile (sets
 * are copied between machines and downloaded), so before the engine reads it, it must be a
 * plain file (not a link out of the set), hash to the sha256 committed for it (_commit.ts),
 * have exactly gpucomm's columns and types, and, when no sha256 vouches for its bytes (a set
 * older than the record), decode whole.
 */
import { lstatSync, readFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { badInput } from '../../errors/index.ts'
import { COLUMNS } from '../_columns.ts'
import type { Duck } from '../_duck.ts'
import { SQL_TYPE, sqlString } from '../_duck.ts'
import { PARTS, partRecord, sha256 } from './_commit.ts'

/** The columns a part must have, as the engine describes them. */
const WANT = COLUMNS.map((c) => `${c.name} ${SQL_TYPE[c.kind]}`)

/** A lookup of the sha256 each part's set committed for it (undefined: none recorded). */
export function recordedSha(): (path: string) => string | undefined {
  const sets = new Map<string, Map<string, string> | undefined>()
  return (path) => {
    const dir = dirname(dirname(path))
    if (!sets.has(dir)) {
      const rec = partRecord(dir)
      sets.set(dir, rec && new Map(rec.map((p) => [p.file, p.sha256])))
    }
    return sets.get(dir)?.get(basename(path))
  }
}

/** Why the part at `path` may not be read (one clause), or undefined when it may. */
export async function partProblem(db: Duck, path: string, sha: string | undefined): Promise<string | undefined> {
  let bytes: Buffer
  try {
    if (lstatSync(path).isSymbolicLink()) return 'is a link, not a part of this set (not read)'
    bytes = readFileSync(path)
  } catch (e) {
    return (e as Error).message.split('\n')[0]
  }
  if (sha !== undefined && sha256(bytes) !== sha)
    return 'its sha256 is not the one recorded when it was committed (damaged or changed since; not read)'
  const q = `read_parquet(${sqlString(path)})`
  try {
    const got = (await db.conn.runAndReadAll(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM ${q})`))
      .getRows()
      .map(([n, t]) => `${n} ${t}`)
    const odd = got.filter((c) => !WANT.includes(c))
    const lacking = WANT.filter((c) => !got.includes(c))
    if (odd.length || lacking.length)
      return `not a gpucomm samples part (${[...lacking.map((c) => `lacks ${c}`), ...odd.map((c) => `has ${c}`)].slice(0, 3).join(', ')}; not read)`
    if (sha === undefined) await db.conn.run(`SELECT count(hash(COLUMNS(*))) FROM ${q}`)
  } catch (e) {
    return (e as Error).message.split('\n')[0]
  }
  return undefined
}

/**
 * Refuses a samples/ that is a link: its parts would be read from, and written into, a folder
 * outside the set (a writer once put a part there and removed that folder's temp files).
 */
export function notLinked(dir: string): void {
  const d = join(dir, PARTS)
  let link = false
  try {
    link = lstatSync(d).isSymbolicLink()
  } catch {}
  if (link) throw badInput(`${d}: a link, not the set's own folder (gpucomm neither reads nor writes through it)`)
}
