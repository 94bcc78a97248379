import { randomBytes } from 'node:crypto'
import { existsSync, linkSync, mkdirSync, readFileSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { badInput } from '../errors/index.ts'

/** Name of the lock file inside a result set being written (by a sweep or an import --append). */
export const LOCK_FILE = 'sweep.lock'

/** Who holds a set's lock. */
export interface LockInfo {
  pid: number
  host: string
  started: string
  /** The writer: a sweep or an import (locks written before imports took them say nothing: a sweep). */
  by?: 'sweep' | 'import'
  /** Tells this holder's lock from a later one of the same pid. */
  token?: string
}

/** How long a stale-lock breaker may hold `sweep.lock.break` before it counts as dead itself. */
const BREAK_STALE_MS = 10_000
const POLL_MS = 25

function readLock(path: string): { info?: LockInfo; text: string } | undefined {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
  try {
    return { info: JSON.parse(text) as LockInfo, text }
  } catch {
    return { text }
  }
}

/** A lock left by a process of this host that is gone (SIGKILL, power loss) is stale. */
const stale = (info: LockInfo): boolean => info.host === hostname() && !alive(info.pid)

/** Lock state of a directory: the holder when a live writer holds it. */
export function lockHolder(dir: string): LockInfo | undefined {
  const l = readLock(join(dir, LOCK_FILE))
  if (!l?.info || stale(l.info)) return undefined
  return l.info
}

/** Options of acquireLock. */
export interface LockOptions {
  /** Who writes (named in the holder's record and in a refusal). */
  by?: 'sweep' | 'import'
  /** Wait up to this long for a live import holding the lock to finish (0: refuse at once; a sweep is never waited for). */
  waitMs?: number
}

/**
 * Takes the lock of a result set so two writers never write one set. The lock file is
 * created atomically with its whole content (a complete temp file hard-linked to
 * `sweep.lock`, which fails if the name exists), so a lock is never seen half written and
 * two writers can never both succeed. A stale lock (its process is gone) is broken by one
 * process at a time (under `sweep.lock.break`, made with mkdir) and only if it is still the
 * same stale lock. Returns the release function, which removes the lock only while it is
 * still this holder's. Refusal is bad input naming the holder, and nothing is written.
 */
export function acquireLock(dir: string, opts: LockOptions = {}): () => void {
  const path = join(dir, LOCK_FILE)
  const mine: LockInfo = {
    pid: process.pid,
    host: hostname(),
    started: new Date().toISOString(),
    by: opts.by ?? 'sweep',
    token: randomBytes(8).toString('hex'),
  }
  const text = `${JSON.stringify(mine)}\n`
  const tmp = join(dir, `.${LOCK_FILE}.${process.pid}.${mine.token}`)
  writeFileSync(tmp, text)
  const deadline = Date.now() + (opts.waitMs ?? 0)
  try {
    for (;;) {
      if (tryLink(tmp, path)) return () => releaseIfMine(path, text)
      const held = readLock(path)
      if (!held) {
        if (!existsSync(path)) continue // released between the link and the read: try again at once
        throw badInput(`${dir}: cannot read the lock ${path}`)
      }
      if (held.info && stale(held.info)) {
        breakStale(path, held.text)
        continue
      }
      // Only a short writer (an import) is waited for; a sweep may run for hours.
      if (Date.now() >= deadline || held.info?.by !== 'import') throw refusal(dir, path, held.info)
      sleepSync(POLL_MS)
    }
  } finally {
    rmSync(tmp, { force: true })
  }
}

function tryLink(from: string, to: string): boolean {
  try {
    linkSync(from, to)
    return true
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw e
  }
}

/** Removes a stale lock whose content is still `text`, one breaker at a time. */
function breakStale(path: string, text: string): void {
  const breaker = `${path}.break`
  try {
    mkdirSync(breaker)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
    // Another process is breaking it; a breaker that died leaves its directory behind.
    if (ageMs(breaker) > BREAK_STALE_MS) rmSync(breaker, { recursive: true, force: true })
    else sleepSync(POLL_MS)
    return
  }
  try {
    if (readLock(path)?.text === text) rmSync(path, { force: true })
  } finally {
    rmdirSync(breaker)
  }
}

function releaseIfMine(path: string, text: string): void {
  if (readLock(path)?.text === text) rmSync(path, { force: true })
}

function refusal(dir: string, path: string, info: LockInfo | undefined): Error {
  if (!info) return badInput(`${dir}: ${path} is not a gpucomm lock; delete it if no gpucomm process writes this set`)
  return badInput(
    `${dir}: another ${info.by ?? 'sweep'} is writing this result set (pid ${info.pid} on ` +
      `${info.host}, since ${info.started}); wait for it, or delete ` +
      `${path} if that process is gone`,
  )
}

function ageMs(p: string): number {
  try {
    return Date.now() - statSync(p).mtimeMs
  } catch {
    return 0
  }
}

const SLEEPER = new Int32Array(new SharedArrayBuffer(4))
function sleepSync(ms: number): void {
  Atomics.wait(SLEEPER, 0, 0, ms)
}

/** True when a process with this pid exists (EPERM: it exists but is not ours). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}
