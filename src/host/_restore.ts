/**
 * Applying knob writes so that they are always undone: before the first write a restore
 * record (`host-restore.json`, the values to put back) is written into the result set; the
 * writes are undone after the point, on every exit path this process lives through (return,
 * throw, SIGINT, SIGTERM, SIGHUP, process exit), and a record left by one it did not (SIGKILL,
 * power loss) is applied by the next sweep into that set or by `gpucomm restore DIR`.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { badInput } from '../errors/index.ts'
import type { KnobWrite } from './_knobs.ts'

/** The restore record's file name inside a result set. */
export const RESTORE_FILE = 'host-restore.json'

/** What `host-restore.json` holds. */
export interface RestoreRecord {
  schema: 1
  kind: 'gpucomm-host-restore'
  /** The point whose knob values were applied. */
  point: string
  pid: number
  at: string
  /** Every file written, with the value it had before. */
  writes: KnobWrite[]
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

function writeAtomic(path: string, text: string): void {
  writeFileSync(`${path}.tmp`, text)
  renameSync(`${path}.tmp`, path)
}

/** Puts every `before` value back (the last write first); returns the paths that failed, with why. */
function undo(writes: readonly KnobWrite[]): string[] {
  const failed: string[] = []
  for (const w of [...writes].reverse()) {
    try {
      writeFileSync(w.path, w.before)
    } catch (e) {
      failed.push(`${w.path}: ${(e as Error).message}`)
    }
  }
  return failed
}

/**
 * Applies a restore record left in `dir`, if any: writes the saved values back and removes
 * the record. Returns how many files were restored (0 when there was no record). A value
 * that cannot be written back keeps the record and throws, naming the file.
 */
export function applyPendingRestore(dir: string): { restored: number; point?: string } {
  const file = join(dir, RESTORE_FILE)
  if (!existsSync(file)) return { restored: 0 }
  let rec: RestoreRecord
  try {
    rec = JSON.parse(readFileSync(file, 'utf8')) as RestoreRecord
  } catch (e) {
    throw badInput(`${file}: not a valid restore record (${(e as Error).message})`)
  }
  if (rec.kind !== 'gpucomm-host-restore' || !Array.isArray(rec.writes))
    throw badInput(`${file}: not a gpucomm host restore record`)
  const failed = undo(rec.writes)
  if (failed.length) throw new Error(`restore incomplete, ${file} kept: ${failed.join('; ')}`)
  rmSync(file)
  return { restored: rec.writes.length, point: rec.point }
}

/**
 * Applies `writes` for `point` with a restore record in `dir`; returns the function that
 * undoes them (idempotent). Until it runs, process exit and SIGINT/SIGTERM/SIGHUP undo them
 * too; a signal nobody else listens for is raised again afterwards, so it still ends the process.
 */
export function applyWrites(dir: string, point: string, writes: readonly KnobWrite[]): () => void {
  if (writes.length === 0) return () => {}
  const file = join(dir, RESTORE_FILE)
  const rec: RestoreRecord = {
    schema: 1,
    kind: 'gpucomm-host-restore',
    point,
    pid: process.pid,
    at: new Date().toISOString(),
    writes: [...writes],
  }
  writeAtomic(file, `${JSON.stringify(rec, null, 1)}\n`)
  let done = false
  const restore = (): void => {
    if (done) return
    done = true
    process.off('exit', restore)
    for (const [s, h] of handlers) process.off(s, h)
    const failed = undo(writes)
    if (failed.length === 0) rmSync(file, { force: true })
  }
  const handlers = SIGNALS.map((s) => {
    const alone = process.listenerCount(s) === 0
    const h = (): void => {
      restore()
      if (alone) process.kill(process.pid, s)
    }
    return [s, h] as const
  })
  process.on('exit', restore)
  for (const [s, h] of handlers) process.on(s, h)
  try {
    for (const w of writes) writeFileSync(w.path, w.after)
  } catch (e) {
    restore()
    throw new Error(`host knob for ${point}: ${(e as Error).message}; every change undone`)
  }
  return restore
}
