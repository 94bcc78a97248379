/**
 * The reaper: one small process per harness that kills the benchmark process groups the
 * harness left running when the harness itself dies without cleaning up (SIGKILL, the OOM
 * killer, a crash in native code). The harness holds the write end of the reaper's stdin
 * and tells it which groups are running (`+PGID` / `-PGID` lines); the kernel closes that
 * pipe however the harness ends, and on end of input the reaper SIGKILLs every group still
 * listed. It runs in its own process group, so a signal to the harness's group (Ctrl-C in a
 * terminal) does not take it away first. A parent-death signal (prctl PR_SET_PDEATHSIG,
 * `setpriv --pdeathsig`) would reach only the direct child, not mpirun's ranks, and would turn
 * a missing benchmark binary into setpriv's exit code instead of a spawn error.
 */
import type { ChildProcess } from 'node:child_process'
import { execa } from 'execa'

/** The reaper's program (node -e): reads +PGID/-PGID lines; on end of input kills what is left. */
const PROGRAM = `
const groups = new Set()
let buf = ''
const reap = () => {
  for (const g of groups) { try { process.kill(-g, 'SIGKILL') } catch {} }
  process.exit(0)
}
process.stdin.setEncoding('utf8')
process.stdin.on('data', (d) => {
  buf += d
  let i
  while ((i = buf.indexOf('\\n')) >= 0) {
    const l = buf.slice(0, i)
    buf = buf.slice(i + 1)
    const g = Number(l.slice(1))
    if (!Number.isInteger(g) || g <= 1) continue
    if (l[0] === '+') groups.add(g)
    else groups.delete(g)
  }
})
process.stdin.on('end', reap)
process.stdin.on('error', reap)
for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(s, reap)
`

let reaper: ChildProcess | undefined

function start(): ChildProcess | undefined {
  if (process.platform === 'win32') return undefined
  const sub = execa(process.execPath, ['-e', PROGRAM], {
    stdin: 'pipe',
    stdout: 'ignore',
    stderr: 'ignore',
    detached: true,
    reject: false,
    cleanup: false,
    buffer: false,
  })
  // Neither the reaper nor its pipe keeps the harness alive; the pipe closing is its signal.
  sub.unref()
  const stdin = sub.stdin as (NodeJS.WritableStream & { unref?: () => void }) | null
  stdin?.unref?.()
  stdin?.on('error', () => {})
  sub.catch(() => {})
  void sub.then(() => {
    if (reaper === sub) reaper = undefined
  })
  return sub
}

function tell(line: string): void {
  reaper ??= start()
  reaper?.stdin?.write(`${line}\n`)
}

/**
 * Puts process group `pgid` under the reaper until the returned function is called (after
 * the group is gone): if this process dies meanwhile, the reaper kills the group.
 */
export function guardGroup(pgid: number | undefined): () => void {
  if (pgid === undefined) return () => {}
  tell(`+${pgid}`)
  let done = false
  return () => {
    if (done) return
    done = true
    if (reaper) tell(`-${pgid}`)
  }
}
