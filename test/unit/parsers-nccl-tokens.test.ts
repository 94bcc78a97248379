/**
 * The low-level token helpers of the nccl-tests parsers (src/parsers/nccl-tests/_nccl-tokens.ts), each on
 * a table of tokens: prefixes of srun and mpirun, whitespace splitting, the strict number
 * checks and their edges (length limits, characters either side of the digit and letter ranges),
 * exact decimal scaling against JavaScript's own correctly rounded parse, and program names.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { COLLECTIVES } from '../../src/parsers/nccl-tests/_nccl-collective.ts'
import {
  collectiveInText,
  firstNonBlank,
  halfUlp,
  isCellShaped,
  isDigit,
  isInt,
  isUInt,
  isWord,
  num,
  scaledDecimal,
  stripPrefix,
  tokenize,
} from '../../src/parsers/nccl-tests/_nccl-tokens.ts'

test('stripPrefix: ANSI escapes, srun --label and mpirun --tag-output prefixes', () => {
  const s = (line: string) => stripPrefix(line)
  assert.deepEqual(s('  1024  256 float'), { text: '  1024  256 float', tagged: false })
  assert.deepEqual(s('\x1b[1;31m  1024\x1b[0m x'), { text: '  1024 x', tagged: false })
  assert.deepEqual(s('3:   1024 256'), { text: '  1024 256', tagged: false })
  assert.deepEqual(s('[1,0]<stdout>:  1024 256'), { text: '  1024 256', tagged: true })
  assert.deepEqual(s('[12,345]<stderr>:x'), { text: 'x', tagged: true })
  assert.deepEqual(s('[1,0]<stdout>:'), { text: '', tagged: true })
  assert.deepEqual(s('3: [1,0]<stdout>:row'), { text: 'row', tagged: true })
  assert.deepEqual(s('\x1b[32m[1,0]<stdout>:row'), { text: 'row', tagged: true })
  assert.deepEqual(s(' \x1b[0m1024'), { text: ' 1024', tagged: false })
  for (const bad of [
    '[1,0]<stdin>:x',
    '[,0]<stdout>:x',
    '[1,]<stdout>:x',
    '[1 0]<stdout>:x',
    '[1;0]<stdout>:x',
    '[1,0]stdout>:x',
    '[1,0)<stdout>:x',
    '[a,0]<stdout>:x',
    '[1,0]<stdout>x',
    '[1,0]<stdou',
    '[',
    ' [1,0]<stdout>:x',
    'x1,0]<stdout>:x',
    '[1,0]xstdout>:x',
    '(1,0]<stdout>:x',
  ])
    assert.deepEqual(s(bad), { text: bad, tagged: false }, bad)
})

test('tokenize and firstNonBlank: spaces, tabs and stray CRs separate tokens; out is cleared', () => {
  const out = ['stale', 'tokens']
  assert.equal(tokenize('  8 \t 2\tfloat\r', out), out)
  assert.deepEqual(out, ['8', '2', 'float'])
  assert.deepEqual(tokenize('', ['x']), [])
  assert.deepEqual(tokenize(' \t\r ', ['x']), [])
  assert.deepEqual(tokenize('a', []), ['a'])
  assert.deepEqual(tokenize('ab   ', []), ['ab'])
  assert.deepEqual(tokenize('a\r\rb', []), ['a', 'b'])
  assert.deepEqual(tokenize('a\nb c', []), ['a\nb', 'c'])
  assert.equal(firstNonBlank(''), -1)
  assert.equal(firstNonBlank(' \t\r'), -1)
  assert.equal(firstNonBlank('x'), 0)
  assert.equal(firstNonBlank(' \t\rx '), 3)
  assert.equal(firstNonBlank('\nx'), 0)
})

test('isDigit, isUInt, isInt: digits only, at most 20, one leading minus for isInt', () => {
  assert.deepEqual(
    [47, 48, 53, 57, 58].map((c) => isDigit(c)),
    [false, true, true, true, false],
  )
  const u = (t: string) => isUInt(t)
  for (const t of ['0', '7', '1024', '12345678901234567890']) assert.equal(u(t), true, t)
  for (const t of ['', '-1', '+1', '1.0', '12a', 'a12', '1/2', '1:2', '123456789012345678901', ' 1'])
    assert.equal(u(t), false, t)
  for (const t of ['0', '-1', '-12', '42']) assert.equal(isInt(t), true, t)
  for (const t of ['', '-', '--1', '-a', '1-', '+1', '-1.5']) assert.equal(isInt(t), false, t)
})

test('num: printf numbers; NaN for N/A, nan, inf, hex, empty, no digits, too long, overflow', () => {
  const ok: [string, number][] = [
    ['40.12', 40.12],
    ['16330', 16330],
    ['1.2e+06', 1.2e6],
    ['1E3', 1000],
    ['-1', -1],
    ['+5', 5],
    ['0e+00', 0],
    ['.5', 0.5],
    ['1'.repeat(40), Number('1'.repeat(40))],
  ]
  for (const [t, v] of ok) assert.equal(num(t), v, t)
  for (const t of [
    '',
    'N/A',
    'nan',
    'inf',
    '-inf',
    '0x10',
    '.',
    '-',
    'e',
    '+-.',
    '1.2.3',
    '1e999',
    '1'.repeat(41),
    '1 2',
  ])
    assert.ok(Number.isNaN(num(t)), t)
})

test('scaledDecimal: the same double as Number(tok + "e" + exp), fast path and slow path', () => {
  const toks = [
    '40.12',
    '16330',
    '0.57',
    '-40.12',
    '0',
    '1',
    '123456789012345',
    '1234567890123456',
    '0.000000000000000000000001',
    '103.8',
    '1181.6',
    '230.72',
    '99999.99',
    '.5',
    '5.',
  ]
  for (const t of toks)
    for (const e of [-30, -25, -23, -22, -9, -6, -3, 0, 3, 6, 9, 22, 23, 25]) {
      const want = Number(`${t}e${e}`)
      assert.equal(scaledDecimal(t, e), want, `${t} e${e}`)
    }
  // Exponent forms take the slow path: value × 10^exp.
  assert.equal(scaledDecimal('1.2e+06', -6), 1.2e6 * 1e-6)
  assert.equal(scaledDecimal('2E3', 0), 2000)
  for (const [t, e] of [
    ['N/A', 0],
    ['', 0],
    ['-', 0],
    ['.', -6],
    ['1.2.3', 0],
    ['x1', 0],
    ['5', 400],
    ['1e300', 100],
    ['0x10', 0],
    ['1'.repeat(41), 0],
  ] as [string, number][])
    assert.ok(Number.isNaN(scaledDecimal(t, e)), `${t} e${e}`)
})

test('isCellShaped: N/A or a number-shaped token of at most 40 characters', () => {
  for (const t of ['N/A', '0', '9', '0.00', '9.99', '1e-07', '-1', '+3.5E+02', '1'.repeat(40)])
    assert.equal(isCellShaped(t), true, t)
  for (const t of ['', 'n/a', 'NA', '+', '.', '-e', 'abc', '1,0', '1x', '1/2', '1'.repeat(41), '2024-05-01T12']) {
    assert.equal(isCellShaped(t), false, t)
  }
})

test('halfUlp: half a unit in the last printed place; 5 % of an exponent-form value', () => {
  const cases: [string, number][] = [
    ['0.57', 0.005],
    ['16330', 0.5],
    ['103.8', 0.05],
    ['7.', 0.5],
    ['0.125', 0.0005],
    ['.5', 0.05],
    ['2e-07', 2e-7 * 0.05],
    ['1E3', 50],
    ['-1.5e2', 7.5],
  ]
  for (const [t, v] of cases) assert.ok(Math.abs(halfUlp(t) - v) <= v * 1e-12, `${t}: ${halfUlp(t)}`)
})

test('isWord: an ASCII letter, then letters, digits and _, at most 24', () => {
  for (const t of ['a', 'A', 'z', 'Z', 'float', 'bfloat16', 'f8e4m3', 'a_b', 'aZ9', 'x'.repeat(24)])
    assert.equal(isWord(t), true, t)
  for (const t of [
    '',
    '_x',
    '1a',
    '@a',
    '[a',
    '`a',
    '{a',
    'a-b',
    'a@',
    'a[',
    'a`',
    'a{',
    'a/',
    'a:',
    'a b',
    'x'.repeat(25),
  ])
    assert.equal(isWord(t), false, t)
})

test('collectiveInText: the identifier before _perf in a program name, the first one that is a collective', () => {
  const c = (s: string) => collectiveInText(s, COLLECTIVES)
  assert.equal(c('./build/all_reduce_perf_mpi -b 8'), 'all_reduce')
  assert.equal(c('reduce_perf'), 'reduce')
  assert.equal(c('/opt/nccl-tests/build/sendrecv_perf -g 8'), 'sendrecv')
  assert.equal(c('# foo_perf then all_gather_perf'), 'all_gather')
  assert.equal(c('my_perf_perf'), undefined)
  assert.equal(c('xall_reduce_perf'), undefined)
  assert.equal(c('ALL_REDUCE_perf'), undefined)
  assert.equal(c('_perf'), undefined)
  assert.equal(c('all_reduce perf'), undefined)
  assert.equal(c('9all_reduce_perf'), 'all_reduce')
  assert.equal(c('_perf all_reduce_perf'), 'all_reduce')
  assert.equal(c('~all_reduce_perf'), 'all_reduce')
  assert.equal(collectiveInText('./fizz_perf', new Set(['fizz'])), 'fizz')
})
