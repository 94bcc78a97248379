import { closeSync, existsSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { badInput } from '../errors/index.ts'

/** Name of the lock file inside a result set being written by a sweep. */
export const LOCK_FILE = 'sweep.lock'

interface LockInfo {
  pid: number
  host: string
  started: string
}

/** Lock state of a directory: the holder when a live sweep holds it. */
export function lockHolder(dir: string): LockInfo | undefined {
  const path = join(dir, LOCK_FILE)
  if (!existsSync(path)) return undefined
  let info: LockInfo
  try {
    info = JSON.parse(readFileSync(path, 'utf8')) as LockInfo
  } catch {
    return undefined
  }
  // A lock left by a process of this host that is gone (SIGKILL, power loss) is stale.
  if (info.host === hostname() && !alive(info.pid)) return undefined
  return info
}

/**
 * Takes the lock of a result set so two sweeps never write one set; a stale lock (its
 * process is gone) is taken over. Returns the release function. Refusal is bad input
 * naming the holder, and nothing is written.
 */
export function acquireLock(dir: string): () => void {
  const path = join(dir, LOCK_FILE)
  const held = lockHolder(dir)
  if (held) {
    throw badInput(
      `${dir}: another sweep is writing this result set (pid ${held.pid} on ${held.host}, since ${held.started}); wait for it, or delete ${path} if that process is gone`,
    )
  }
  rmSync(path, { force: true })
  let fd: number
  try {
    fd = openSync(path, 'wx')
  } catch {
    throw badInput(`${dir}: another sweep took the lock ${path} just now`)
  }
  writeSync(fd, `${JSON.stringify({ pid: process.pid, host: hostname(), started: new Date().toISOString() })}\n`)
  closeSync(fd)
  return () => rmSync(path, { force: true })
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}
