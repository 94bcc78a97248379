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
export function mockExecutor(answer: (command: Command) => Reply | Promise<Reply>): Executor & {
  requests: ExecRequest[]
} {
  const requests: ExecRequest[] = []
  return {
    requests,
    async run(req) {
      requests.push(req)
      const startedMs = Date.now()
      const r = await answer(req.command)
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
 * CLI in-process: the bytes a spawned simulator would print, without a process. A hang or a
 * crash (SIGABRT to itself) cannot be answered in-process and is refused.
 */
export const simExecutor = (): ReturnType<typeof mockExecutor> =>
  mockExecutor(async (command) => {
    const args = command.args.slice(1)
    if (args[0] !== 'sim') throw new Error(`simExecutor answers only gpucomm sim, not ${command.args.join(' ')}`)
    const fault = args[args.indexOf('--fault') + 1]
    if (args.includes('--fault') && (fault === 'hang' || fault === 'crash'))
      throw new Error(`simExecutor cannot ${fault} in-process; use the process executor`)
    const r = await cli(args)
    return { stdout: r.stdout, stderr: r.stderr, exitCode: r.code }
  })
