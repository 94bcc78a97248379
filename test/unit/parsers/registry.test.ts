/**
 * The parser registry and its entry points (issue 18, mutation testing of scope parsers-rest):
 * detectParser's threshold, ties, kinds and failing detectors (the registry's detectors are
 * replaced for the length of a test), parserById, splitLines, parseText and the bounds of an
 * `srun --label` prefix (its common shapes: parsers-srun-label.test.ts).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Diagnostic, Row } from '../../../src/model/index.ts'
import { srunLabelEnd } from '../../../src/parsers/_text.ts'
import type { LineParser, Parser } from '../../../src/parsers/index.ts'
import { detectParser, PARSERS, parserById, parseText, splitLines } from '../../../src/parsers/index.ts'

type Detect = (h: string) => number
/** Runs `body` with the detectors replaced: `scores[id]` (a number or a function), 0 for the rest. */
function withScores(scores: Record<string, number | Detect>, body: () => void): void {
  const real = PARSERS.map((p) => p.detect)
  PARSERS.forEach((p) => {
    const s = scores[p.id] ?? 0
    ;(p as { detect: Detect }).detect = typeof s === 'function' ? s : () => s
  })
  try {
    body()
  } finally {
    PARSERS.forEach((p, i) => {
      ;(p as { detect: Detect }).detect = real[i] as Detect
    })
  }
}
const ids = PARSERS.map((p) => p.id)
const first = ids[0] as string
const last = ids[ids.length - 1] as string

test('detectParser: 0.5 is enough, less is not; the highest wins, the first of equals', () => {
  withScores({ [last]: 0.5 }, () => assert.equal(detectParser('x')?.id, last))
  withScores({ [last]: 0.4999 }, () => assert.equal(detectParser('x'), undefined))
  withScores({}, () => assert.equal(detectParser('x'), undefined))
  withScores({ [first]: 0.7, [last]: 0.7 }, () => assert.equal(detectParser('x')?.id, first))
  withScores({ [first]: 0.7, [last]: 0.71 }, () => assert.equal(detectParser('x')?.id, last))
  withScores({ [first]: 0.9, [last]: 0.71 }, () => assert.equal(detectParser('x')?.id, first))
  let seen = ''
  withScores({ [first]: (h) => ((seen = h), 0.6) }, () => assert.equal(detectParser('head')?.id, first))
  assert.equal(seen, 'head')
})

test('detectParser: only the kinds asked for compete', () => {
  const topo = PARSERS.find((p) => p.kind === 'topology') as Parser
  const meas = PARSERS.find((p) => p.kind === 'measurement') as Parser
  withScores({ [topo.id]: 0.9, [meas.id]: 0.6 }, () => {
    assert.equal(detectParser('x')?.id, topo.id)
    assert.equal(detectParser('x', ['measurement'])?.id, meas.id)
    assert.equal(detectParser('x', ['topology'])?.id, topo.id)
    assert.equal(detectParser('x', [])?.id, undefined)
  })
})

test('detectParser: a failing detector, an Error or not, is named; with a sink the rest still compete', () => {
  const cause = new RangeError('bad index')
  withScores(
    {
      [first]: () => {
        throw cause
      },
      [last]: 0.8,
    },
    () => {
      assert.throws(
        () => detectParser('x'),
        (e: Error) => e.message === `the ${first} parser's format detection failed: bad index` && e.cause === cause,
      )
      const diagnostics: Diagnostic[] = []
      assert.equal(detectParser('x', undefined, { file: 'f.txt', diagnostics })?.id, last)
      assert.deepEqual(diagnostics, [
        {
          file: 'f.txt',
          line: 1,
          severity: 'error',
          code: 'detect-failed',
          message: `the ${first} parser's format detection failed: bad index`,
        },
      ])
    },
  )
  withScores(
    {
      [last]: () => {
        throw 'text'
      },
    },
    () => assert.throws(() => detectParser('x'), { message: `the ${last} parser's format detection failed: text` }),
  )
})

test('parserById: every registered parser by its id, nothing else; the ids are unique', () => {
  for (const p of PARSERS) assert.equal(parserById(p.id), p)
  assert.equal(parserById('nope'), undefined)
  assert.equal(new Set(ids).size, ids.length)
  assert.ok(ids.includes('nvbandwidth') && ids.includes('native') && ids.includes('nccl-tests-text'))
})

test('splitLines and parseText: CRLF and a final newline, 1-based line numbers, rows, meta and diagnostics', () => {
  assert.deepEqual(splitLines('a\r\nb\n'), ['a', 'b'])
  assert.deepEqual(splitLines('a\n\n'), ['a', ''])
  assert.deepEqual(splitLines('a\rb\r'), ['a\rb'])
  assert.deepEqual(splitLines('\n'), [''])
  assert.deepEqual(splitLines(''), [])
  assert.deepEqual(splitLines('a'), ['a'])
  const seen: [string, number][] = []
  const stub: Parser = {
    id: 'stub',
    description: 'stub',
    kind: 'measurement',
    detect: () => 0,
    open: (origin, emit): LineParser => ({
      line(raw, no) {
        seen.push([raw, no])
        emit({ bench: raw, trial: origin.trial ?? -1 } as Row)
      },
      end: () => ({ meta: { file: origin.file }, diagnostics: [] }),
    }),
  }
  const out = parseText(stub, 'x\r\ny\n', { file: 'f', trial: 3 })
  assert.deepEqual(seen, [
    ['x', 1],
    ['y', 2],
  ])
  assert.deepEqual(
    out.rows.map((r) => [r.bench, r.trial]),
    [
      ['x', 3],
      ['y', 3],
    ],
  )
  assert.deepEqual([out.meta, out.diagnostics], [{ file: 'f' }, []])
})

test('srunLabelEnd: the colon within 18 characters, up to 7 digits, a digit 9, what may follow P', () => {
  assert.equal(srunLabelEnd(`${' '.repeat(17)}0: x`), 20)
  assert.equal(srunLabelEnd(`${' '.repeat(18)}0: x`), 0)
  assert.equal(srunLabelEnd(`P${'1'.repeat(20)} 0: x`), 0)
  assert.equal(srunLabelEnd('1234567: x'), 9)
  assert.equal(srunLabelEnd('9: x'), 3)
  assert.equal(srunLabelEnd('P9 0: x'), 6)
  for (const no of ['P 3: x', 'P1x3: x', ' : x', '1x : y', '12345678: x'])
    assert.equal(srunLabelEnd(no), 0, JSON.stringify(no))
})
