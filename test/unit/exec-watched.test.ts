/**
 * The watchdog of the real executor (src/exec/_watched.ts) on tiny `sh` processes: a silent
 * process is killed with its whole group (no-output), one that keeps printing past the hard cap
 * is killed (hard-cap), an abort kills (abort), a crash reports its signal, and every byte and
 * line reaches the raw files and the callback. The sweep driver's handling of those results is
 * tested in-process through a mock executor (test/e2e/sweep-faults.test.ts); this is the one
 * place the watchdog itself runs against real processes. The limits are generous: under load a
 * process starts late, which only makes it silent for longer, so each outcome stays the same.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import type { ExecRequest } from '../../src/exec/index.ts'
import { execWatched } from '../../src/exec/index.ts'
import { tmp } from '../helpers.ts'

function req(script: string, o: Partial<ExecRequest> = {}): ExecRequest & { lines: string[] } {
  const dir = tmp()
  const lines: string[] = []
  return {
    command: { file: 'sh', args: ['-c', script], env: {} },
    noOutputMs: 60_000,
    hardMs: 120_000,
    stdoutPath: join(dir, 'out'),
    stderrPath: join(dir, 'err'),
    onLine: (s, l) => lines.push(`${s}:${l}`),
    killGraceMs: 500,
    lines,
    ...o,
  }
}
/** Whether `pid` is a live process (a zombie, killed but not yet reaped by init, is not). */
const alive = (pid: number): boolean => {
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return false
  }
}

test('a silent process is killed at the no-output watchdog with its whole group; its output is kept', {
  timeout: 60_000,
}, async () => {
  // The shell starts a sleeping child in its group, prints its pid, then waits in silence.
  const r = req('sleep 600 & echo "child $!"; printf "partial"; wait', { noOutputMs: 400 })
  const res = await execWatched(r)
  assert.equal(res.killed, 'no-output')
  assert.equal(res.exitCode, null)
  assert.equal(res.signal, 'SIGTERM')
  assert.ok(res.wallS >= 0.4, `killed after ${res.wallS} s, before the 0.4 s watchdog`)
  const out = readFileSync(r.stdoutPath, 'utf8')
  assert.match(out, /^child \d+\npartial$/)
  assert.equal(res.stdoutBytes, Buffer.byteLength(out))
  assert.deepEqual(r.lines.slice(1), ['stdout:partial'], 'the unterminated last line is still handed on')
  const child = Number(/child (\d+)/.exec(out)?.[1])
  assert.equal(alive(child), false, 'the sleeping child in the group is killed too')
})

test('a process that keeps printing is killed at the hard cap, not the no-output watchdog', {
  timeout: 60_000,
}, async () => {
  const r = req('while :; do echo tick; sleep 0.05; done', { noOutputMs: 60_000, hardMs: 500 })
  const res = await execWatched(r)
  assert.equal(res.killed, 'hard-cap')
  assert.ok(res.wallS >= 0.5)
  assert.ok(r.lines.length > 0 && r.lines.every((l) => l === 'stdout:tick'))
})

test('an abort kills the process (abort); an already aborted signal kills at once', { timeout: 60_000 }, async () => {
  const ac = new AbortController()
  const r = req('echo started; exec sleep 600', {
    onLine: (_s, l) => {
      if (l === 'started') ac.abort()
    },
    signal: ac.signal,
  })
  const res = await execWatched(r)
  assert.equal(res.killed, 'abort')
  assert.equal(res.signal, 'SIGTERM')
  const gone = new AbortController()
  gone.abort()
  assert.equal((await execWatched(req('exec sleep 600', { signal: gone.signal }))).killed, 'abort')
})

test('a crash reports its signal, an exit its status, stderr its own file and lines; a missing program is a spawn error', {
  timeout: 60_000,
}, async () => {
  const crash = await execWatched(req('echo before; kill -ABRT $$'))
  assert.deepEqual([crash.exitCode, crash.signal, crash.killed], [null, 'SIGABRT', undefined])
  const r = req('echo out; echo err >&2; exit 3')
  const exit = await execWatched(r)
  assert.deepEqual([exit.exitCode, exit.signal, exit.killed, exit.stderrBytes], [3, null, undefined, 4])
  assert.equal(readFileSync(r.stderrPath, 'utf8'), 'err\n')
  assert.deepEqual(r.lines.sort(), ['stderr:err', 'stdout:out'])
  const none = await execWatched({ ...req(''), command: { file: 'gpucomm-no-such-program', args: [], env: {} } })
  assert.match(none.spawnError ?? '', /ENOENT: cannot start gpucomm-no-such-program/)
})
