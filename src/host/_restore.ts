/**
 * Applying knob writes so that they are always undone: before the first write a restore
 * record (`host-restore.json`, the values to put back) is written into the result set; the
 * writes are undone after the point, on every exit path this process lives through (return,
 * throw, SIGINT, SIGTERM, SIGHUP, process exit), and a record left by one it did not (SIGKILL,
 * power loss) is applied by the next sweep into that set or by `gpucomm restore DIR`.
 */
import { existsSync, lstatSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative, resolve, sep } from 'node:path'
import { badInput } from '../errors/index.ts'
import { KNOB_FILE, KNOB_VALUES, type KnobWrite } from './_knobs.ts'

/** The restore record's file name inside a result set. */
export const RESTORE_FILE = 'host-restore.json'

/** What `host-restore.json` holds. */
export interface RestoreRecord {
  schema: 1
  kind: 'gpucomm-host-restore'
  /** The point whose knob values were applied. */
  point: string
  /** The sysfs root the writes were made under (`/`, or --sysfs-root). */
  root: string
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
 * Why one recorded write may not be undone under `root`, or undefined when it may: only a
 * knob file gpucomm itself writes (KNOB_FILE, below the root, no link on the way) and only
 * a value a knob records (KNOB_VALUES). A result set is data that may be hostile; its record
 * must not be a way to write anything else.
 */
function refusal(w: unknown, root: string): string | undefined {
  if (typeof w !== 'object' || w === null) return 'an entry is not an object'
  const { path, before } = w as Record<string, unknown>
  if (typeof path !== 'string') return 'an entry has no path'
  const rel = relative(root, path)
  if (!KNOB_FILE.test(rel.split(sep).join('/')) || resolve(root, rel) !== path)
    return `${JSON.stringify(path)} is not a knob file gpucomm changes under ${root}`
  if (typeof before !== 'string' || !KNOB_VALUES.includes(before))
    return `${JSON.stringify(path)}: ${JSON.stringify(before)} is not a value gpucomm records`
  try {
    if (!lstatSync(path).isFile() || realpathSync(path) !== join(realpathSync(root), rel))
      return `${JSON.stringify(path)} is a link or not a plain file`
  } catch {
    return `${JSON.stringify(path)} does not exist`
  }
  return undefined
}

/**
 * Applies a restore record left in `dir`, if any: writes the saved values back and removes
 * the record. Returns how many files were restored (0 when there was no record). The record
 * must name the sysfs root in use (`root`: `/`, or --sysfs-root) and only knob files under it
 * with values a knob records; anything else refuses the whole record before a byte is written.
 * A value that cannot be written back keeps the record and throws, naming the file.
 */
export function applyPendingRestore(dir: string, root = '/'): { restored: number; point?: string } {
  const file = join(dir, RESTORE_FILE)
  if (!existsSync(file)) return { restored: 0 }
  let rec: RestoreRecord
  try {
    rec = JSON.parse(readFileSync(file, 'utf8')) as RestoreRecord
  } catch (e) {
    throw badInput(`${file}: not a valid restore record (${(e as Error).message})`)
  }
  if (rec?.kind !== 'gpucomm-host-restore' || !Array.isArray(rec.writes))
    throw badInput(`${file}: not a gpucomm host restore record`)
  const at = resolve(root)
  if ((rec.root ?? '/') !== at)
    throw badInput(
      `${file}: recorded for sysfs root ${JSON.stringify(rec.root ?? '/')}, not ${at} (give --sysfs-root ${rec.root ?? '/'} if that is the root in use); nothing restored`,
    )
  for (const w of rec.writes) {
    const why = refusal(w, at)
    if (why) throw badInput(`${file}: refused, ${why}; nothing restored`)
  }
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
export function applyWrites(dir: string, point: string, writes: readonly KnobWrite[], root = '/'): () => void {
  if (writes.length === 0) return () => {}
  const file = join(dir, RESTORE_FILE)
  const rec: RestoreRecord = {
    schema: 1,
    kind: 'gpucomm-host-restore',
    point,
    root: resolve(root),
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
