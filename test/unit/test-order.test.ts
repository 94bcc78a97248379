/** The run's file order and shared groups from earlier runs' per-file seconds (scripts/test-order.mjs). */
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { balance, longestFirst, readPast, savePast } from '../../scripts/test-order.mjs'
import { tmp } from '../helpers.ts'

test('longest first; a file without a past time starts first, and with none known the listed order stays', () => {
  const past = { 'a.ts': 1, 'b.ts': 9, 'c.ts': 4 }
  assert.deepEqual(longestFirst(['a.ts', 'b.ts', 'new.ts', 'c.ts', 'new2.ts'], past), [
    'new.ts',
    'new2.ts',
    'b.ts',
    'c.ts',
    'a.ts',
  ])
  assert.deepEqual(longestFirst(['z.ts', 'y.ts', 'x.ts'], {}), ['z.ts', 'y.ts', 'x.ts'])
})

test('groups of about equal seconds: each file once, longest first to the lightest group', () => {
  const past = { a: 10, b: 9, c: 2, d: 2, e: 2, f: 1 }
  const files = Object.keys(past)
  // Round robin in listed order gave a, c, e (14 s) and b, d, f (12 s).
  assert.deepEqual(balance(files, past, 2), [
    ['a', 'd', 'f'],
    ['b', 'c', 'e'],
  ])
  const three = balance([...files, 'g'], past, 3)
  assert.deepEqual(three.flat().sort(), [...files, 'g'].sort())
  // g is unknown: it counts as the median (2 s), so no group is left empty or doubled up.
  assert.deepEqual(
    three.map((g) => g.reduce((s, f) => s + (past[f as keyof typeof past] ?? 2), 0)),
    [10, 9, 9],
  )
})

test('past times: this run is merged in by relative path, other files keep theirs; a corrupt file reads as none', () => {
  const dir = tmp('gpucomm-test-order-')
  const file = join(dir, 'cache', 'times.json')
  assert.deepEqual(readPast(file), {})
  savePast(file, dir, { [join(dir, 'test', 'a.test.ts')]: 3.456, [join(dir, 'test', 'b.test.ts')]: 2 })
  assert.deepEqual(readPast(file), { 'test/a.test.ts': 3.46, 'test/b.test.ts': 2 })
  savePast(file, dir, { [join(dir, 'test', 'a.test.ts')]: 5 })
  assert.deepEqual(readPast(file), { 'test/a.test.ts': 5, 'test/b.test.ts': 2 })
  writeFileSync(file, '{ not json')
  assert.deepEqual(readPast(file), {})
  writeFileSync(file, '[1, 2]')
  assert.deepEqual(readPast(file), {})
})
