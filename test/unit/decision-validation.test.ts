/**
 * docs/serving-validation.md: the table equals what the code computes, every validation row is
 * within ±35 % of its published measurement or says why not, and the communication-only
 * ceiling is never below a measurement.
 */
import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { PUBLISHED_ROWS, TOLERANCE, validation, validationMarkdown } from '../../src/decision/index.ts'
import { ROOT } from '../helpers.ts'

const DOC = join(ROOT, 'docs', 'serving-validation.md')
const BEGIN = '<!-- validation:begin -->\n'
const END = '<!-- validation:end -->'

test('docs/serving-validation.md holds the table the code computes', () => {
  const doc = readFileSync(DOC, 'utf8')
  const [a, b] = [doc.indexOf(BEGIN), doc.indexOf(END)]
  assert.ok(a >= 0 && b > a, 'the validation markers are missing')
  const want = validationMarkdown()
  if (process.env.UPDATE_GOLDEN === '1') {
    writeFileSync(DOC, doc.slice(0, a + BEGIN.length) + want + doc.slice(b))
    return
  }
  assert.equal(
    doc.slice(a + BEGIN.length, b),
    want,
    'the table differs from the code (UPDATE_GOLDEN=1 rewrites it; read it)',
  )
})

test('at least six published rows; each validation row within ±35 % or it says why not', () => {
  assert.ok(PUBLISHED_ROWS.length >= 6)
  const v = validation()
  for (const x of v) {
    if (x.row.role === 'calibration') continue
    assert.ok(
      x.within || x.row.caveat,
      `${x.row.id}: ratio ${x.ratio.toFixed(2)} outside ±${TOLERANCE * 100} % with no reason`,
    )
  }
  assert.ok(v.filter((x) => x.row.role === 'validation' && x.within).length >= 5)
})

test('the communication-only ceiling (batch / collectives) is never below a measurement', () => {
  for (const x of validation()) {
    const ceiling = x.row.plan.batch / x.prediction.comm
    assert.ok(ceiling >= x.row.measured, `${x.row.id}: ceiling ${ceiling} < measured ${x.row.measured}`)
  }
})

test('P2P off minus P2P on, Kimi K2.5 at batch 1 from the published collectives: within ±40 % of +7.3 ms', () => {
  const v = validation()
  const on = v.find((x) => x.row.id === 'kimi-p2p')
  const off = v.find((x) => x.row.id === 'kimi-nop2p')
  assert.ok(on && off)
  const d = off.prediction.comm - on.prediction.comm
  assert.ok(d > 0.6 * 7.3e-3 && d < 1.4 * 7.3e-3, `${(d * 1e3).toFixed(2)} ms`)
})
