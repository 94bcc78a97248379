/**
 * detectParser with a detector that throws: a bug in that parser is never read as "not this
 * format". Without a sink the error propagates naming the parser; with one it is an error
 * diagnostic and the other parsers still compete.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import type { Diagnostic } from '../../src/model/index.ts'
import { detectParser, PARSERS } from '../../src/parsers/index.ts'
import { FIXTURES } from '../helpers.ts'

const text = readFileSync(join(FIXTURES, 'nccl-tests', 'dgx2-12gpu-v100-allreduce-v2.0-error-column.txt'), 'utf8')

/** Runs `body` while the nvbandwidth parser's detector throws. */
function withBrokenDetector(body: () => void): void {
  const p = PARSERS.find((x) => x.id === 'nvbandwidth') as { detect: (h: string) => number }
  const real = p.detect
  p.detect = () => {
    throw new TypeError('boom')
  }
  try {
    body()
  } finally {
    p.detect = real
  }
}

test('a healthy registry detects the fixture as nccl-tests text', () => {
  assert.equal(detectParser(text)?.id, 'nccl-tests-text')
})

test('a throwing detector propagates without a sink, naming the parser and the cause', () => {
  withBrokenDetector(() => {
    assert.throws(() => detectParser(text), /nvbandwidth parser's format detection failed: boom/)
  })
})

test('with a sink, a throwing detector is an error diagnostic and the right parser still wins', () => {
  withBrokenDetector(() => {
    const diagnostics: Diagnostic[] = []
    assert.equal(detectParser(text, undefined, { file: 'x.txt', diagnostics })?.id, 'nccl-tests-text')
    assert.deepEqual(
      diagnostics.map((d) => [d.file, d.severity, d.code]),
      [['x.txt', 'error', 'detect-failed']],
    )
    assert.match(diagnostics[0]?.message ?? '', /nvbandwidth.*boom/)
  })
})
