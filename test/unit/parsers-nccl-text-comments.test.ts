/**
 * The `#` lines around an nccl-tests table (src/parsers/nccl-tests/_nccl-text-rows.ts): the header lines
 * that begin a new run after rows or a footer, and near-misses of every other kind (one word
 * off, generated from the printf formats of nccl-tests' src/common.cu) that must change nothing; message texts cut
 * at their limits. Real lines are the a100 fixture's (test/nccl-text.ts).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { BASE, HEAD, parse, ROWS } from '../nccl-text.ts'

const GROUPS = HEAD[13] as string
const SIZE = HEAD[14] as string
const runs = (lines: string[]): number => parse(lines).meta.runs?.length ?? 1

test('a header line after rows or after a footer begins a new run; before any row it does not', () => {
  for (const h of [GROUPS, SIZE]) {
    assert.equal(runs([...HEAD, ...ROWS, h]), 2, h)
    assert.equal(runs([...BASE, h]), 2, h)
  }
  assert.equal(runs([...HEAD, GROUPS, SIZE, ...ROWS]), 1)
  // After the group line the run has started: a banner line begins the next one.
  const version = '# nccl-tests version 2.17.8 nccl-headers=22703 nccl-library=22703'
  assert.equal(runs([version, GROUPS, '# Collective test starting: all_gather_perf']), 2)
  assert.equal(runs([...BASE, '# Using devices']), 2)
  assert.equal(runs([HEAD[1] as string, '# Out of bounds values : 0 OK', '# Using devices']), 2)
  assert.equal(runs([...ROWS, '# Using devices']), 2)
  assert.equal(runs([...HEAD, '# Using x', '# x devices']), 1)
})

test('near-misses of the mode, memory, JSON, compiled-with and error lines set nothing', () => {
  const base = parse(HEAD.slice(1, 3))
  for (const l of [
    '# Using x',
    '# x devices',
    '# Reducing x to 8',
    '# x maxBytes to 8',
    '# Writing x output to /tmp/y',
    '# x JSON output to /tmp/y',
    '# GPU x : 1 GiB',
    '# x memory usage : 1 GiB',
    '# NCCL x compiled with NCCL 2.18',
    '# x Tests compiled with NCCL 2.18',
    '# NCCL Tests x with NCCL 2.18',
    '# (B) (elements) (us)',
    '# error:',
  ]) {
    const o = parse([...HEAD.slice(1, 3), l])
    const codes = (x: { diags: string[] }) => x.diags.map((d) => d.replace(/^\d+ /, ''))
    assert.deepEqual([o.meta, codes(o)], [base.meta, codes(base)], l)
  }
  const us = parse([HEAD[1] as string, '# Blocking Enabled: x', ...HEAD.slice(12), ROWS[0] as string])
  assert.equal(us.rows[0]?.value, 40.12e-6)
  const notUnits = parse([HEAD[1] as string, '# x (ms)', ...HEAD.slice(12), ROWS[0] as string])
  assert.equal(notUnits.rows[0]?.value, 40.12e-6)
})

test('message texts: an error line after "error: " up to 300 characters, glued text up to 200', () => {
  const long = 'x'.repeat(400)
  const e = parse([...BASE, `# error: unhandled cuda error ${long}`])
  assert.equal(e.messages[0], `nccl-tests reported: unhandled cuda error ${long}`.slice(0, 21 + 293))
  const g = parse([...HEAD, `${(ROWS[0] as string).slice(0, 85)} ${long}`])
  assert.equal(g.messages[0], `unreadable cells in a result row: ${long.slice(0, 200)}`)
})
