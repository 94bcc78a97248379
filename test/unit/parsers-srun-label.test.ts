/**
 * `srun --label` output: Slurm writes `%*d: ` (or `P<offset> %*d: ` in a heterogeneous job)
 * before every line a task prints. Every real text fixture of nccl-tests,
 * p2pBandwidthLatencyTest and nvbandwidth, labelled here the way srun labels it (generated
 * from the fixture at test time), must be detected as the same format and give the same
 * rows and diagnostics as the plain text.
 */

import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { srunLabelEnd } from '../../src/parsers/_text.ts'
import { DETECT_BYTES, detectParser, parseText } from '../../src/parsers/index.ts'
import { FIXTURES } from '../helpers.ts'

const TOOLS = ['nccl-tests', 'p2pBandwidthLatencyTest', 'nvbandwidth']
const fixtures = TOOLS.flatMap((tool) =>
  readdirSync(join(FIXTURES, tool))
    .filter((f) => f.endsWith('.txt') && !f.endsWith('.source.txt'))
    .map((f) => ({ tool, name: f, text: readFileSync(join(FIXTURES, tool, f), 'utf8') })),
)

/** The text as srun --label writes it for `task` of a step whose ids are `width` digits wide. */
function labelled(text: string, task: number, width: number, pack?: number): string {
  const label = `${pack === undefined ? '' : `P${pack} `}${String(task).padStart(width)}: `
  const lines = text.split('\n')
  const last = lines.pop() as string
  return `${lines.map((l) => label + l).join('\n')}\n${last === '' ? '' : label + last}`
}

test('srunLabelEnd: the label lengths Slurm writes, and lookalikes that are no label', () => {
  assert.equal(srunLabelEnd('0: # nThread 1'), 3)
  assert.equal(srunLabelEnd(' 7: #  Rank  0'), 4)
  assert.equal(srunLabelEnd('15:            8'), 4)
  assert.equal(srunLabelEnd('P1  3: Device 0'), 7)
  assert.equal(srunLabelEnd('0:'), 2)
  for (const s of [
    '           8             2     float',
    '12:34:56 started',
    'host:1234:1234 [0] NCCL INFO',
    '10.0.0.1: x',
    'P: x',
    'Device 0: H100',
    '',
    ':',
    '12345678: x',
  ])
    assert.equal(srunLabelEnd(s), 0, JSON.stringify(s))
})

test('every real text fixture, srun-labelled, is detected alike and gives the same rows and diagnostics', () => {
  assert.ok(fixtures.length >= 15, `${fixtures.length} fixtures`)
  for (const f of fixtures) {
    const plain = detectParser(f.text.slice(0, DETECT_BYTES))
    assert.ok(plain, `${f.tool}/${f.name}: detected`)
    const want = parseText(plain, f.text, { file: f.name })
    for (const [task, width, pack] of [
      [0, 1, undefined],
      [3, 2, undefined],
      [0, 1, 1],
    ] as const) {
      const text = labelled(f.text, task, width, pack)
      const p = detectParser(text.slice(0, DETECT_BYTES))
      assert.equal(
        p?.id,
        plain.id,
        `${f.tool}/${f.name}: labelled ${JSON.stringify(text.slice(0, 12))} detected as ${String(p?.id)}`,
      )
      const got = parseText(plain, text, { file: f.name })
      assert.deepEqual(got.rows, want.rows, `${f.tool}/${f.name}: rows`)
      assert.deepEqual(got.diagnostics, want.diagnostics, `${f.tool}/${f.name}: diagnostics`)
      if (plain.id === 'nccl-tests-text' && want.rows.length > 0)
        assert.equal(got.meta.srunLabel, true, `${f.name}: meta says srun --label`)
    }
  }
})
