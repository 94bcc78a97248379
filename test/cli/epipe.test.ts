/**
 * `gpucomm … | head`: a reader that goes away ends the command quietly (exit 0, nothing on
 * stderr), as Unix tools do, instead of an unhandled `write EPIPE` stack trace (issue 15 item 9).
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { test } from 'node:test'
import { BIN, ROOT } from '../helpers.ts'
import { simSet } from '../simset.ts'

/** Runs the CLI, reads its first chunk of stdout, closes the pipe, and returns exit code and stderr. */
function headOne(args: readonly string[]): Promise<{ code: number | null; stderr: string; first: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    let stderr = ''
    let first = ''
    child.stderr.on('data', (c: Buffer) => {
      stderr += c
    })
    child.stdout.once('data', (c: Buffer) => {
      first = String(c)
      child.stdout.destroy()
    })
    child.on('error', fail)
    child.on('close', (code) => done({ code, stderr, first }))
  })
}

const bench = { sizes: [8, 64, 512, 4096, 32768], iters: 20 }
// diff prints one row per cell: enough sizes that its JSON outgrows a pipe's 64 KiB buffer.
const many = { sizes: Array.from({ length: 14 }, (_, i) => 8 * 2 ** i), iters: 3 }

for (const [name, args] of [
  ['sim', () => ['sim', '--preset', 'seed-vm', '--format', 'p2p-bench', '--iters', '2']],
  ['show', async () => ['show', await simSet({ preset: 'seed-vm', seed: 1, groups: [], bench })]],
  [
    'export',
    async () => ['export', await simSet({ preset: 'seed-vm', seed: 2, groups: [], bench }), '--format', 'jsonl'],
  ],
  [
    'diff',
    async () => [
      'diff',
      await simSet({ preset: 'seed-vm', seed: 3, groups: [], bench: many }),
      await simSet({ preset: 'baremetal-turin', seed: 3, groups: [], bench: many }),
      '--format',
      'json',
    ],
  ],
] as const) {
  test(`${name} | head: a closed pipe ends it quietly, exit 0, no stack trace`, async () => {
    const r = await headOne(await args())
    assert.ok(r.first.length > 0, 'it printed something first')
    assert.equal(r.stderr.includes('EPIPE'), false, r.stderr)
    assert.equal(r.stderr.includes('    at '), false, r.stderr)
    assert.equal(r.code, 0, r.stderr)
  })
}
