/**
 * Executors for driver tests (the Executor seam of src/exec): nothing is spawned. A mock
 * answers each request with a Reply; it writes the raw files and feeds the lines exactly as
 * the process executor would, and records every request.
 */
import { writeFileSync } from 'node:fs'
import type { ExecRequest, ExecResult, Executor } from '../src/exec/index.ts'
import type { Command } from '../src/launch/index.ts'
import { cli } from './helpers.ts'

/** What a mocked process printed and how it ended. */
export interface Reply {
  stdout: string
  stderr?: string
  exitCode?: number | null
  signal?: string | null
  killed?: ExecResult['killed']
  wallS?: number
}

/** A mock executor answering with `answer`, plus the requests it got. */
export function mockExecutor(answer: (command: Command, req: ExecRequest) => Reply | Promise<Reply>): Executor & {
  requests: ExecRequest[]
} {
  const requests: ExecRequest[] = []
  return {
    requests,
    async run(req) {
      requests.push(req)
      const startedMs = Date.now()
      const r = await answer(req.command, req)
      const stderr = r.stderr ?? ''
      writeFileSync(req.stdoutPath, r.stdout)
      writeFileSync(req.stderrPath, stderr)
      for (const [stream, text] of [
        ['stdout', r.stdout],
        ['stderr', stderr],
      ] as const) {
        const lines = text.split('\n')
        if (lines.at(-1) === '') lines.pop()
        for (const l of lines) req.onLine?.(stream, l.endsWith('\r') ? l.slice(0, -1) : l)
      }
      const res: ExecResult = {
        exitCode: r.exitCode === undefined ? 0 : r.exitCode,
        signal: r.signal ?? null,
        startedMs,
        wallS: r.wallS ?? 0.01,
        stdoutBytes: Buffer.byteLength(r.stdout),
        stderrBytes: Buffer.byteLength(stderr),
      }
      if (r.killed) res.killed = r.killed
      return res
    },
  }
}

/**
 * The sim instrument's commands (`node bin/gpucomm.js sim …`) answered by running the same
 * CLI in-process: the bytes a spawned simulator would print, without a process. The two faults
 * that are process behaviour are acted out as the watchdog (src/exec/_watched.ts, tested on real
 * processes in test/unit/exec-watched.test.ts) would end them, on a fake clock: a hang prints
 * the simulator's banner (its `#` lines) and is killed with SIGTERM at the request's no-output
 * or hard limit, whichever is shorter, after exactly that long; a crash prints the first half of
 * its lines and dies of SIGABRT.
 */
export const simExecutor = (): ReturnType<typeof mockExecutor> =>
  mockExecutor(async (command, req) => {
    const args = command.args.slice(1)
    if (args[0] !== 'sim') throw new Error(`simExecutor answers only gpucomm sim, not ${command.args.join(' ')}`)
    const at = args.indexOf('--fault')
    const fault = at >= 0 ? args[at + 1] : undefined
    if (fault !== 'hang' && fault !== 'crash') {
      const r = await cli(args)
      return { stdout: r.stdout, stderr: r.stderr, exitCode: r.code }
    }
    const whole = await cli(args.filter((_, i) => i !== at && i !== at + 1))
    const lines = whole.stdout.split('\n')
    if (fault === 'crash')
      return { stdout: lines.slice(0, Math.floor(lines.length / 2)).join('\n'), exitCode: null, signal: 'SIGABRT' }
    const banner = lines.slice(
      0,
      lines.findIndex((l) => !l.startsWith('#')),
    )
    const noOutput = req.noOutputMs <= req.hardMs
    return {
      stdout: banner.map((l) => `${l}\n`).join(''),
      exitCode: null,
      signal: 'SIGTERM',
      killed: noOutput ? 'no-output' : 'hard-cap',
      wallS: Math.min(req.noOutputMs, req.hardMs) / 1000,
    }
  })
