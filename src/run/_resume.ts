import { existsSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Diagnostic, Manifest, Row } from '../model/index.ts'
import { readRows, SAMPLES } from '../resultset/index.ts'

/** What resuming found in an existing set. */
export interface ResumeState {
  /** Rows of the points already done, as kept. */
  kept: Row[]
  /** Rows dropped because their point has no ok outcome (written before a kill). Rows with no point (added by `import --append`) are kept. */
  dropped: number
  /** Torn or corrupt lines found (e.g. the line a SIGKILL cut). */
  diagnostics: Diagnostic[]
}

/**
 * Prepares a set for resuming: keeps the rows of points whose outcome is ok and the rows
 * that belong to no point (imported with `import --append`; the manifest lists their
 * sources); rows of a point cut off before its outcome was recorded, and torn lines, are
 * removed so the point's rerun neither duplicates nor loses a sample. samples.jsonl is
 * rewritten atomically (temp file + rename).
 */
export async function prepareResume(dir: string, manifest: Manifest): Promise<ResumeState> {
  const done = new Set(
    Object.entries(manifest.outcomes ?? {})
      .filter(([, o]) => o.status === 'ok')
      .map(([id]) => id),
  )
  const kept: Row[] = []
  const diagnostics: Diagnostic[] = []
  let dropped = 0
  await readRows(
    dir,
    (r) => {
      if (r.point === undefined || done.has(r.point)) kept.push(r)
      else dropped++
    },
    (d) => diagnostics.push(d),
  )
  const path = join(dir, SAMPLES)
  if (existsSync(path) && (dropped > 0 || diagnostics.length > 0)) {
    const tmp = join(dir, `.${SAMPLES}.${process.pid}.tmp`)
    writeFileSync(tmp, kept.map((r) => `${JSON.stringify(r)}\n`).join(''))
    renameSync(tmp, path)
  }
  return { kept, dropped, diagnostics }
}
