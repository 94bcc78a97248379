/**
 * The line scanning behind the nvbandwidth -j parser (issue 18, mutation testing of scope
 * parsers-nvbw): where a JSON document ends in a stream of lines (brackets inside strings and
 * escapes do not count), and on which line each matrix cell sits. The documents are made up
 * for the test (generated); the expected lines are counted by hand.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { JsonDocScanner, matrixCellLines } from '../../src/parsers/nvbandwidth/_nvbw-json-scan.ts'

test('JsonDocScanner: a document ends at the bracket that closes it, not at brackets inside strings', () => {
  const s = new JsonDocScanner(5)
  assert.equal(s.startLine, 5)
  assert.equal(s.push('{ "a": "}{]", '), -1)
  assert.equal(s.push('  "b": "\\"}", '), -1) // an escaped quote does not end the string
  assert.equal(s.chars, 15 + 15)
  assert.equal(s.push('  "c": [1, {"d": 2}] } trailing {'), 22)
  assert.deepEqual(s.lines, ['{ "a": "}{]", ', '  "b": "\\"}", ', '  "c": [1, {"d": 2}] }'])
  assert.equal(s.chars, 30) // the closing line is not counted

  const one = (line: string): number => new JsonDocScanner(1).push(line)
  assert.equal(one('{"a": [1, 2]}'), 13)
  assert.equal(one('{}'), 2)
  assert.equal(one('[{}]'), 4) // `[` opens too
  assert.equal(one('[1] tail'), 3)
  assert.equal(one('{"a": "x\\\\"}'), 12) // an escaped backslash, then the closing quote
  assert.equal(one('{"a": "x\\\\\\"}"}'), 15)
  assert.equal(one('{"a": "\\\\\\\\"}'), 13)
  assert.equal(one('{"a": "{"'), -1)
  assert.equal(one('{"": "}"}'), 9) // an empty string first: its closing quote is not escaped
  assert.equal(one('{"a": "]"'), -1)
  assert.equal(one('{"a": ["}"]'), -1)
  assert.equal(one('{"a": 1'), -1)
  assert.equal(one('}'), 1) // a stray closer ends it at once
  assert.equal(one('x ] y'), 3)
  assert.equal(one('"]" ]'), 5)
  const t = new JsonDocScanner(1)
  assert.equal(t.push('{"a": "x'), -1) // a string may not span lines in JSON, but the scanner keeps its state
  assert.equal(t.push('}" }'), 4)
  const u = new JsonDocScanner(1)
  assert.equal(u.push('{"a": "x\\'), -1) // an escape at the end of a line carries over
  assert.equal(u.push('"}" }'), 5)
  // A string open at a line's end without an escape: the next line's first character, a quote,
  // closes it (it is not taken as escaped, and a quote at column 0 is found).
  const v = new JsonDocScanner(1)
  assert.equal(v.push('{"a": "x'), -1)
  assert.equal(v.push('"}'), 2)
  const w = new JsonDocScanner(1)
  assert.equal(w.push('{"a": "x'), -1)
  assert.equal(w.push('\\""}'), 4) // an escape at column 0: the quote after it stays in the string
})

test('matrixCellLines: the line of every cell of every bandwidth_matrix, in document order', () => {
  const doc = [
    '{',
    ' "testcases": [ {',
    '  "name": "a",',
    '  "bandwidth_matrix": [',
    '   [ "1.5", "N/A",',
    '     "2" ],',
    '   [ -3.25e2, 17 ]',
    '  ],',
    '  "x": 1 }, {',
    '  "bandwidth_matrix" : [["a\\"]b", "c"], [ ] ]',
    ' } ]',
    '}',
  ]
  assert.deepEqual(matrixCellLines(doc), [
    [
      [4, 4, 5],
      [6, 6],
    ],
    [[9, 9], []],
  ])
  assert.deepEqual(matrixCellLines(['{"x": 1}']), [])
})

test('matrixCellLines: numbers in every JSON shape count once; what is not a cell is left out', () => {
  const one = (line: string): number[][] => matrixCellLines([line])[0] as number[][]
  // Each number, however long, is one cell: digits 0 and 9, sign, fraction and exponent with either case and sign.
  assert.deepEqual(one('"bandwidth_matrix": [[0, 9, -1, 1.5, 1e5, 1E5, 1e+3, 2e-3, 10.25E+12]]'), [
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
  ])
  assert.deepEqual(one('"bandwidth_matrix":[[0,9,-1,1.5,1e5,1E+5,"7"]]'), [[0, 0, 0, 0, 0, 0, 0]])
  // Digits inside a number, 0 and 9 included, do not start another cell.
  assert.deepEqual(one('"bandwidth_matrix": [[100, 199, 1009]]'), [[0, 0, 0]])
  // An empty string first, then more rows: each string ends where it should.
  assert.deepEqual(one('"bandwidth_matrix": [["", "1"], ["2"]]'), [[0, 0], [0]])
  // A value right after a string, no blank between: both count.
  assert.deepEqual(one('"bandwidth_matrix": [["a","b"]]'), [[0, 0]])
  // Values outside a row (depth 1) or inside a nested array (depth 3) are not cells.
  assert.deepEqual(one('"bandwidth_matrix": [["1"], "x", 5]'), [[0]])
  assert.deepEqual(one('"bandwidth_matrix": [["1", ["2", 3]], ["4"]]'), [[0], [0]])
  // An object where a row should be: not a matrix after all; what was read so far stays.
  assert.deepEqual(one('"bandwidth_matrix": [["1"], {"a": [2]}, ["3"]]'), [[0]])
  assert.deepEqual(one('"bandwidth_matrix": [["1"]}, ["3"]]'), [[0]])
  // Text before the key on its line is not read; the matrix ends where its bracket closes.
  assert.deepEqual(one('[9], "bandwidth_matrix": [["1"]], "other": [["2"]]'), [[0]])
  assert.deepEqual(one('"bandwidth_matrix": [["1"]], [["2"]]'), [[0]])
  // Cut short: what was read.
  assert.deepEqual(one('"bandwidth_matrix": [["1", "2'), [[0, 0]])
  assert.deepEqual(matrixCellLines(['"bandwidth_matrix": [', '["1",', '2', ']']), [[[1, 2]]])
})
