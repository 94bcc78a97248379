import { closeSync, openSync, writeSync } from 'node:fs'
import { StringDecoder } from 'node:string_decoder'
import { execa } from 'execa'
import type { Command } from '../launch/index.ts'
import { guardGroup } from './_reaper.ts'

/** One process to run under the watchdog. */
export interface ExecRequest {
  command: Command
  /** Kill when nothing arrives on stdout or stderr for this long. */
  noOutputMs: number
  /** Kill when the process runs longer than this. */
  hardMs: number
  /** Raw output files (every byte, as it arrives). */
  stdoutPath: string
  stderrPath: string
  /** Each complete line (without its newline), as it arrives. */
  onLine?: (stream: 'stdout' | 'stderr', line: string) => void
  /** Aborting kills the process group (SIGINT of the sweep). */
  signal?: AbortSignal
  /** Time between SIGTERM and SIGKILL of the group. */
  killGraceMs?: number
}

/** How one launch ended. */
export interface ExecResult {
  exitCode: number | null
  /** When the process was started (ms since the epoch). */
  startedMs: number
  /** Signal that ended the process, e.g. "SIGSEGV". */
  signal: string | null
  wallS: number
  /** Why the watchdog (or an abort) killed it. */
  killed?: 'no-output' | 'hard-cap' | 'abort'
  /** The process could not be started (e.g. ENOENT). */
  spawnError?: string
  stdoutBytes: number
  stderrBytes: number
}

/**
 * Runs a process in its own process group (detached), streams its output to raw files
 * and line callbacks, and kills the whole group (SIGTERM, then SIGKILL) when it is silent
 * for too long, runs past the hard cap, or the sweep is aborted. mpirun's and srun's
 * children live in that group too, so nothing is left behind; the reaper kills the group
 * if this process dies first (SIGKILL).
 */
export async function execWatched(req: ExecRequest): Promise<ExecResult> {
  const out = openSync(req.stdoutPath, 'w')
  const err = openSync(req.stderrPath, 'w')
  const t0 = performance.now()
  const startedMs = Date.now()
  const sub = execa(req.command.file, req.command.args, {
    env: req.command.env,
    extendEnv: true,
    detached: true,
    reject: false,
    stdin: 'ignore',
    buffer: false,
    cleanup: false,
  })
  // If this process dies without cleaning up (SIGKILL), the reaper kills the group.
  const unguard = guardGroup(sub.pid)
  const res: ExecResult = { exitCode: null, startedMs, signal: null, wallS: 0, stdoutBytes: 0, stderrBytes: 0 }
  let last = performance.now()
  let exited = false
  const kill = (why: NonNullable<ExecResult['killed']>): void => {
    if (res.killed || exited) return
    res.killed = why
    killGroup(sub.pid, 'SIGTERM')
    setTimeout(() => killGroup(sub.pid, 'SIGKILL'), req.killGraceMs ?? 2000).unref()
  }
  const seen = (): void => void (last = performance.now())
  const fo = lineFeed('stdout', out, req, res, seen)
  const fe = lineFeed('stderr', err, req, res, seen)
  sub.stdout?.on('data', fo.data)
  sub.stderr?.on('data', fe.data)
  const unwatch = watchdog(req, t0, () => last, kill)
  sub.on('exit', () => {
    exited = true
    res.wallS = (performance.now() - t0) / 1000
    // Whatever the main process left in its group (ranks, helpers) goes with it.
    killGroup(sub.pid, 'SIGKILL')
    // A grandchild that escaped the group could hold the pipes open forever.
    setTimeout(() => {
      sub.stdout?.destroy()
      sub.stderr?.destroy()
    }, req.killGraceMs ?? 2000).unref()
  })
  try {
    const r = await sub
    if (!exited) res.wallS = (performance.now() - t0) / 1000
    res.exitCode = typeof r.exitCode === 'number' ? r.exitCode : null
    res.signal = r.signal ?? null
    if (r.failed && r.exitCode === undefined && r.signal === undefined && !res.killed) {
      res.spawnError = r.code ? `${r.code}: cannot start ${req.command.file}` : r.shortMessage
    }
  } finally {
    unwatch()
    unguard()
    fo.end()
    fe.end()
    closeSync(out)
    closeSync(err)
  }
  return res
}

/**
 * Calls `kill` when the process runs past `req.hardMs`, has been silent (since `lastOutput()`)
 * for `req.noOutputMs`, or `req.signal` aborts; the function returned stops watching.
 */
function watchdog(
  req: ExecRequest,
  t0: number,
  lastOutput: () => number,
  kill: (why: NonNullable<ExecResult['killed']>) => void,
): () => void {
  const tick = setInterval(
    () => {
      const now = performance.now()
      if (now - t0 > req.hardMs) kill('hard-cap')
      else if (now - lastOutput() > req.noOutputMs) kill('no-output')
    },
    Math.max(20, Math.min(250, req.noOutputMs / 4)),
  )
  const onAbort = (): void => kill('abort')
  req.signal?.addEventListener('abort', onAbort)
  if (req.signal?.aborted) onAbort()
  return () => {
    clearInterval(tick)
    req.signal?.removeEventListener('abort', onAbort)
  }
}

/**
 * One output stream of a watched process: each chunk goes to its raw file as it arrives (and
 * `seen` is told), each complete line (without its newline, or \r\n) to `req.onLine`; `end`
 * hands over a last line without a newline.
 */
function lineFeed(
  stream: 'stdout' | 'stderr',
  fd: number,
  req: ExecRequest,
  res: ExecResult,
  seen: () => void,
): { data: (chunk: Buffer) => void; end: () => void } {
  const dec = new StringDecoder('utf8')
  let partial = ''
  return {
    data(chunk: Buffer) {
      seen()
      writeSync(fd, chunk)
      if (stream === 'stdout') res.stdoutBytes += chunk.length
      else res.stderrBytes += chunk.length
      partial += dec.write(chunk)
      let nl: number
      while ((nl = partial.indexOf('\n')) >= 0) {
        const line = partial.slice(0, nl)
        partial = partial.slice(nl + 1)
        req.onLine?.(stream, line.endsWith('\r') ? line.slice(0, -1) : line)
      }
    },
    end() {
      partial += dec.end()
      if (partial !== '') req.onLine?.(stream, partial)
      partial = ''
    },
  }
}

function killGroup(pid: number | undefined, sig: NodeJS.Signals): void {
  if (pid === undefined) return
  try {
    process.kill(-pid, sig)
  } catch {
    // already gone
  }
}
