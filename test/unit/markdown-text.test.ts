/**
 * Text from a set in Markdown (issue #35 item 8): a label that is HTML prints as text, a line
 * break cannot start a new line of the document, a backtick cannot close a code span early.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { diffMarkdown } from '../../src/diff/index.ts'
import { mdCode, mdText } from '../../src/text/index.ts'
import { diffCell, diffResult, diffSide } from '../diff-cells.ts'

const HOSTILE = '<img src=x onerror=alert(1)>'

test('mdText: a tag, a comment and a closing tag are escaped; comparisons and | as before', () => {
  assert.equal(mdText(HOSTILE), '\\<img src=x onerror=alert(1)>')
  assert.equal(mdText('<!-- x --></td><?php'), '\\<!-- x -->\\</td>\\<?php')
  assert.equal(mdText('p > 0.05; n = 2 < 6; a|b'), 'p > 0.05; n = 2 < 6; a\\|b')
  assert.equal(mdText('one\r\n\n## two'), 'one ## two')
})

test('mdCode: a fence longer than any backtick run inside, on one line', () => {
  assert.equal(mdCode('runs/a'), '`runs/a`')
  assert.equal(mdCode('a`b``c'), '``` a`b``c ```')
  assert.equal(mdCode('x\n# y'), '`x # y`')
})

test('diff --format md: a hostile grouping, note and set path print as text', () => {
  const r = diffResult([diffCell({ src: 0, dst: 1, grouping: HOSTILE, sizeBytes: 8 })], {
    a: diffSide({ dir: 'runs/`a`\n# forged' }),
    warnings: [`${HOSTILE}\n# forged`],
  })
  const md = diffMarkdown(r)
  assert.doesNotMatch(md, /(^|[^\\])<img/)
  assert.doesNotMatch(md, /^# forged/m)
  assert.match(md, /^- A: `` runs\/`a` # forged ``/m)
})
