/**
 * Hardening of the command line against careless and hostile use (issue: hardening): a killed
 * import leaves no half-written set, bad input is one line and exit 2, nothing is written
 * before the input is known good, a closed pipe ends a command quietly.
 */
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { execa } from 'execa'
import { BIN, FIXTURES, ROOT, tmp } from '../helpers.ts'

const A100 = join(FIXTURES, 'nccl-tests', 'a100-sxm4-8gpu-single-process-g8-v2.13.txt')

test('SIGKILL in the middle of an import leaves no set without a manifest', async () => {
  const dir = tmp()
  const big = join(dir, 'big.log')
  const text = readFileSync(A100, 'utf8')
  writeFileSync(big, text.repeat(Math.ceil(40e6 / text.length)))
  const out = join(dir, 'set')
  const child = execa(process.execPath, [BIN, 'import', big, '--out', out], { cwd: ROOT, reject: false })
  // Wait until rows are being written (into the set or wherever it is being built), then kill.
  const writing = (): boolean =>
    readdirSync(dir).some((e) => {
      const s = join(dir, e, 'samples.jsonl')
      return existsSync(s) && statSync(s).size > 0
    })
  for (let i = 0; i < 600 && !writing(); i++) await sleep(50)
  assert.ok(writing(), 'the import never started writing rows')
  child.kill('SIGKILL')
  await child
  assert.ok(!existsSync(out) || existsSync(join(out, 'manifest.json')), `${out} holds rows but no manifest`)
})
