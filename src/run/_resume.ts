import { renameSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { Diagnostic, Manifest, Row } from '../model/index.ts'
import { legacySamples, pruneParts, readJsonl } from '../resultset/index.ts'

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
 * removed so the point's rerun neither duplicates nor loses a sample. A schema-1 samples.jsonl is
 * rewritten atomically (temp file + rename); a Parquet part with rows to drop is rewritten
 * the same way, or removed when none of its rows stay.
 */
export async function prepareResume(dir: string, manifest: Manifest): Promise<ResumeState> {
  const done = new Set(
    Object.entries(manifest.outcomes ?? {})
      .filter(([, o]) => o.status === 'ok')
      .map(([id]) => id),
  )
  const keep = (r: Row): boolean => r.point === undefined || done.has(r.point)
  const kept: Row[] = []
  const diagnostics: Diagnostic[] = []
  let dropped = 0
  const path = legacySamples(dir)
  if (path !== undefined) {
    await readJsonl(
      dir,
      (r) => {
        if (keep(r)) kept.push(r)
        else dropped++
      },
      (d) => diagnostics.push(d),
    )
    if (dropped > 0 || diagnostics.length > 0) {
      const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`)
      writeFileSync(tmp, kept.map((r) => `${JSON.stringify(r)}\n`).join(''))
      renameSync(tmp, path)
    }
  }
  const parts = await pruneParts(dir, keep, (d) => diagnostics.push(d))
  for (const r of parts.kept) kept.push(r)
  return { kept, dropped: dropped + parts.dropped, diagnostics }
}
