/**
 * The `nvidia-smi topo -p2p` reader (src/parsers/system/nvidia-smi-topo-p2p.ts) on GENERATED matrices
 * written after the fixtures' shapes: the capability from the command line (before or on the
 * header line) or the file name, statuses, short and missing rows, the legend, the end-of-text
 * diagnostics and the detection scores.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { P2PMatrix, Parser } from '../../src/parsers/index.ts'
import { parserById, parseText } from '../../src/parsers/index.ts'

const p = parserById('nvidia-smi-topo-p2p') as Parser
const parse = (lines: string[], file = 'generated-p2p.txt') => parseText(p, `${lines.join('\n')}\n`, { file })
const topo = (lines: string[], file?: string) => parse(lines, file).meta.topology as P2PMatrix
const codes = (lines: string[], file?: string) =>
  parse(lines, file).diagnostics.map((d) => [d.line, d.severity, d.code, d.message])
const M = ['        GPU0    GPU1', ' GPU0   X       OK', ' GPU1   CNS     X']
const cap = (lines: string[], file?: string) => {
  const t = topo(lines, file)
  return [t.capability, t.capabilityFrom]
}

test('topo -p2p: the capability from the command line before the matrix or on the header line', () => {
  const names = { r: 'read', w: 'write', n: 'nvlink', a: 'atomics', p: 'pci' }
  for (const [c, name] of Object.entries(names))
    assert.deepEqual(cap([`$ nvidia-smi  topo  -p2p  ${c}`, ...M]), [name, 'command line:1'], c)
  assert.deepEqual(cap(['x', `# nvidia-smi topo -p2p w${M[0]}`, ...M.slice(1)]), ['write', 'command line:2'])
  // The command line wins over the file name; a later one before the header wins over an earlier.
  assert.deepEqual(cap(['nvidia-smi topo -p2p n', 'nvidia-smi topo -p2p a', ...M], 'p2p-r.txt'), [
    'atomics',
    'command line:2',
  ])
  // After the matrix, or not a capability letter: not read.
  assert.deepEqual(cap([...M, 'nvidia-smi topo -p2p r'], 'x-p2p-w.txt'), ['write', 'file name'])
  for (const no of [
    'nvidia-smi topo -p2p x',
    'nvidia-smi topo -p2p rw',
    'nvidia-smi topo -p2pr',
    'nvidia-smi topo p2p r',
  ])
    assert.deepEqual(cap([no, ...M]), ['unknown', 'not stated'], no)
})

test('topo -p2p: the capability from the file name (base name only), else unknown with one warning', () => {
  const named = {
    'p2p-read.txt': 'read',
    'topo_p2p_w.txt': 'write',
    'P2P.N.txt': 'nvlink',
    'p2patomics.log': 'atomics',
    'dir/p2p-pci': 'pci',
    'C:\\runs\\p2p_a.txt': 'atomics',
    'p2p-r': 'read',
    'nvidia-smi-topo-p2p-p.txt': 'pci',
  }
  for (const [f, c] of Object.entries(named)) assert.deepEqual(cap(M, f), [c, 'file name'], f)
  for (const f of ['p2p-pcie.txt', 'p2p-ready.txt', 'p2p--r.txt', 'p2p-r/x.txt', 'p2p-x.txt', 'r.txt', 'p-r.txt'])
    assert.deepEqual(cap(M, f), ['unknown', 'not stated'], f)
  assert.deepEqual(codes(M, 'x.txt'), [
    [
      1,
      'warn',
      'capability-unknown',
      'which capability (r, w, n, a, p) this -p2p matrix shows is not stated; its statuses are kept under "unknown" ' +
        '(name the file e.g. topo-p2p-r.txt or keep the command line)',
    ],
  ])
  assert.deepEqual(codes(M, 'p2p-r.txt'), [])
})

test('topo -p2p: every off-diagonal status in order; the legend after the matrix only', () => {
  const t = topo(
    ['Legend:', '  GPU0 GPU1 GPU2', 'GPU0 X OK GNS', 'GPU1 TNS X NS', 'GPU2 DR U X', '', ' Legend: '],
    'p2p-r',
  )
  assert.deepEqual(t.devices, ['GPU0', 'GPU1', 'GPU2'])
  assert.deepEqual(
    t.cells.map((c) => `${c.a}-${c.b}:${c.status}@${c.line}`),
    ['GPU0-GPU1:OK@3', 'GPU0-GPU2:GNS@3', 'GPU1-GPU0:TNS@4', 'GPU1-GPU2:NS@4', 'GPU2-GPU0:DR@5', 'GPU2-GPU1:U@5'],
  )
  assert.equal(t.legend, true)
  assert.equal(topo(['Legend:', ...M], 'p2p-r').legend, false)
  assert.equal(topo([...M, 'Legend: x'], 'p2p-r').legend, false)
  // A repeated row: the later cells are used.
  const r = topo([...M, ' GPU0   X       NS'], 'p2p-r')
  assert.deepEqual(
    r.cells.map((c) => `${c.a}-${c.b}:${c.status}@${c.line}`),
    ['GPU1-GPU0:CNS@3', 'GPU0-GPU1:NS@4'],
  )
})

test('topo -p2p: a short row says which cell is wrong, and is skipped; missing rows are warned at the end', () => {
  const lines = ['GPU0 GPU1 GPU2', 'GPU0 X OK', 'GPU1 OK X ok', 'GPU2 OK OK X', 'GPU0 X OK PIX', 'Legend:']
  assert.deepEqual(codes(lines, 'p2p-r'), [
    [2, 'error', 'short-row', 'row GPU0: 3 status cells expected, found 2 (a missing column?); row skipped'],
    [3, 'error', 'short-row', 'row GPU1: 3 status cells expected, found 2 (unexpected "ok"); row skipped'],
    [5, 'error', 'short-row', 'row GPU0: 3 status cells expected, found 2 (unexpected "PIX"); row skipped'],
    [6, 'warn', 'missing-row', 'no usable row for GPU0, GPU1'],
  ])
  const tabs = ['\tGPU0\tGPU1', 'GPU0\tX\t\tOK', 'GPU1\tOK\tX']
  assert.deepEqual(
    codes(tabs, 'p2p-r').map((d) => d[3]),
    ['row GPU0: 2 status cells expected, found 1 (a missing column?); row skipped', 'no usable row for GPU0'],
  )
  assert.deepEqual(
    topo(tabs, 'p2p-r').cells.map((c) => `${c.a}-${c.b}`),
    ['GPU1-GPU0'],
  )
})

test('topo -p2p at the end: no header, or a header without usable rows, is one error and no topology', () => {
  const none = parse([], 'p2p-r.txt')
  assert.deepEqual(
    none.diagnostics.map((d) => [d.line, d.code]),
    [[1, 'no-matrix']],
  )
  assert.deepEqual(none.meta, {})
  const empty = parse(['x', 'GPU0 GPU1', 'GPU0 X', 'y'], 'p2p-r.txt')
  assert.deepEqual(
    empty.diagnostics.map((d) => [d.line, d.code]),
    [
      [3, 'short-row'],
      [4, 'no-rows'],
    ],
  )
  assert.deepEqual(empty.meta, {})
  assert.deepEqual(
    parse(['hello'], 'x.txt').diagnostics.map((d) => d.code),
    ['no-matrix'],
  )
})

const score = (text: string) => p.detect(text)

test('topo -p2p detection: statuses in the first row 0.95; only X with the command or legend 0.9; else 0', () => {
  assert.equal(score(`${M.join('\n')}\n`), 0.95)
  assert.equal(score('GPU0 GPU1\nGPU0 X \x1b[1mNS\x1b[0m\n'), 0.95)
  assert.equal(score('GPU0 GPU1\nGPU0 X NS PIX\n'), 0.95)
  assert.equal(score('GPU0 GPU1 CPU Affinity\nGPU0 X OK\n'), 0)
  assert.equal(score('GPU0 GPU1\nGPU0 X PIX\n'), 0)
  assert.equal(score('GPU0 GPU1\nGPU0 X PIX\nnvidia-smi topo -p2p r\n'), 0)
  assert.equal(score('GPU0\nGPU0 X\n'), 0)
  assert.equal(score('nvidia-smi topo -p2p r\nGPU0\nGPU0 X\n'), 0.9)
  assert.equal(score('\x1b[1mnvidia-smi\x1b[0m topo -p2p n\nGPU0\nGPU0 X\n'), 0.9)
  assert.equal(score('GPU0\nGPU0 X\n\n  OK   = Status Ok\n'), 0.9)
  assert.equal(score('GPU0\nGPU0 X\n\n  OK = Status OK\n'), 0)
  assert.equal(score('GPU0\nGPU0 X\n\n  xOK   = Status Ok\n'), 0)
  assert.equal(score('nvidia-smi topo -p2p r\nGPU0 GPU1\n'), 0.9)
  assert.equal(score('nvidia-smi topo -p2p r\nGPU0 GPU1\nGPU0 X FOO\n'), 0)
  assert.equal(score('nvidia-smi topo -p2p r\nGPU0 GPU1\nGPU2 X OK\n'), 0.9)
  assert.equal(score('GPU0 GPU1\nGPU1 OK X\n'), 0.95)
  assert.equal(score('nvidia-smi topo -p2p r\n'), 0)
  assert.equal(score(`${'#'.repeat(16384)}\nGPU0 GPU1\nGPU0 X OK\n`), 0)
  assert.equal(score(`${'#'.repeat(16000)}\nGPU0 GPU1\nGPU0 X OK\n`), 0.95)
})

test('topo -p2p: a self cell other than X is warned; Legend only as a whole line; the status legend with any blanks', () => {
  assert.deepEqual(codes(['        GPU0    GPU1', ' GPU0   OK      OK', ' GPU1   CNS     X'], 'p2p-r.txt'), [
    [2, 'warn', 'bad-self', 'row GPU0: self cell is OK, expected X'],
  ])
  assert.equal(topo([...M, 'See the Legend:'], 'p2p-r.txt').legend, false)
  assert.equal(p.detect('GPU0 GPU1\nGPU0 X\n OK  =  Status Ok\n'), 0.9)
})
