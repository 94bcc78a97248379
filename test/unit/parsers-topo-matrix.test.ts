/**
 * The shared pieces of the nvidia-smi matrix readers (src/parsers/system/_topo-matrix.ts), one
 * function at a time on GENERATED lines written after the fixtures' shapes (raw TABs with an
 * empty field before "GPU NUMA ID", space padding, ANSI underlining through a TTY, the command
 * and the header on one line): header and row splitting, cell counting, the line-by-line
 * reader, self cells, repeated pairs and the end-of-text diagnostics.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Diagnostic } from '../../src/model/index.ts'
import type { MatrixHeader } from '../../src/parsers/system/_topo-matrix.ts'
import {
  countValidCells,
  eachPairCell,
  findHeader,
  gpuIndex,
  isGpuLabel,
  MatrixReader,
  matrixEndError,
  missingRowWarning,
  parseMatrixHeader,
  replacePair,
  splitMatrixRow,
  stripAnsi,
} from '../../src/parsers/system/_topo-matrix.ts'

const AFF = ['CPU Affinity', 'NUMA Affinity', 'GPU NUMA ID']

test('stripAnsi: CSI sequences with digits and semicolons go, other brackets stay', () => {
  assert.equal(stripAnsi('\x1b[4mGPU0\x1b[0m\t\x1b[1;31mGPU1\x1b[m'), 'GPU0\tGPU1')
  assert.equal(stripAnsi('a\x1b[12;34Hb\x1b[2Kc'), 'abc')
  assert.equal(stripAnsi('[4m GPU0 \x1b'), '[4m GPU0 \x1b')
  assert.equal(stripAnsi('\x1b[4m\x1b[4m'), '')
})

test('parseMatrixHeader: devices in order, the affinity labels in the order printed, the layout', () => {
  assert.deepEqual(parseMatrixHeader('\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID'), {
    devices: ['GPU0', 'GPU1'],
    extras: AFF,
    tabs: true,
  })
  assert.deepEqual(parseMatrixHeader('        GPU0    GPU1    NIC0    mlx5_1  CPU Affinity    NUMA Affinity'), {
    devices: ['GPU0', 'GPU1', 'NIC0', 'mlx5_1'],
    extras: ['CPU Affinity', 'NUMA Affinity'],
    tabs: false,
  })
  // Labels printed in another order are kept in that order, and the devices end at the first.
  assert.deepEqual(parseMatrixHeader('GPU0 GPU1 GPU NUMA ID  NUMA Affinity  CPU Affinity'), {
    devices: ['GPU0', 'GPU1'],
    extras: ['GPU NUMA ID', 'NUMA Affinity', 'CPU Affinity'],
    tabs: false,
  })
  assert.deepEqual(parseMatrixHeader('GPU0 GPU1 NUMA Affinity'), {
    devices: ['GPU0', 'GPU1'],
    extras: ['NUMA Affinity'],
    tabs: false,
  })
  assert.deepEqual(parseMatrixHeader('GPU0'), { devices: ['GPU0'], extras: [], tabs: false })
  assert.deepEqual(parseMatrixHeader('\x1b[4m  GPU0  GPU1\x1b[0m'), {
    devices: ['GPU0', 'GPU1'],
    extras: [],
    tabs: false,
  })
  for (const no of [
    'GPU1 GPU0',
    'GPU0x GPU1',
    'GPU01 GPU1',
    'x GPU0 GPU1',
    'GPU0 GPU1 foo',
    'GPU0 XGPU1',
    'GPU0 GPU1x',
  ])
    assert.equal(parseMatrixHeader(no), undefined, no)
  for (const no of ['GPU0 NIC', 'GPU0 MLX5_0', 'GPU0 mlx5_', 'GPU0 5mlx_0', 'GPU0 NICx', 'GPU0 Gpu1', 'GPU0 GPU'])
    assert.equal(parseMatrixHeader(no), undefined, no)
  // A label glued to GPU0 (a lost TAB) is not a header, even with a GPU0 further on.
  for (const no of ['GPU0CPU Affinity', 'GPU0NUMA Affinity GPU0 ']) assert.equal(parseMatrixHeader(no), undefined, no)
  assert.deepEqual(parseMatrixHeader('GPU0 GPU1 GPU10 GPU11')?.devices, ['GPU0', 'GPU1', 'GPU10', 'GPU11'])
  assert.deepEqual(parseMatrixHeader('GPU0 mlx5_0 mlx5_11 NIC12')?.devices, ['GPU0', 'mlx5_0', 'mlx5_11', 'NIC12'])
  // Other RDMA drivers' device names (Broadcom, Intel, QLogic) name old NIC columns too.
  const rdma = parseMatrixHeader('GPU0\tGPU1\tbnxt_re0\tirdma1\tqedr0\tCPU Affinity')
  assert.deepEqual(rdma?.devices, ['GPU0', 'GPU1', 'bnxt_re0', 'irdma1', 'qedr0'])
})

test('parseMatrixHeader: a command on the header line is cut off (topo -m, --matrix, -p2p r|w|n|a|p)', () => {
  const dev = (l: string) => parseMatrixHeader(l)?.devices.join(' ')
  assert.equal(dev('$ nvidia-smi topo -m\tGPU0\tGPU1\tCPU Affinity'), 'GPU0 GPU1')
  assert.equal(parseMatrixHeader('$ nvidia-smi topo -m\tGPU0\tGPU1')?.tabs, true)
  assert.equal(dev('# nvidia-smi topo --matrix  GPU0  GPU1'), 'GPU0 GPU1')
  for (const c of 'rwnap') assert.equal(dev(`nvidia-smi topo -p2p  ${c}   GPU0   GPU1`), 'GPU0 GPU1', c)
  assert.equal(dev('nvidia-smi   topo \t -m \t GPU0 GPU1'), 'GPU0 GPU1')
  for (const no of [
    'nvidia-smi topo -p2p x GPU0 GPU1',
    'nvidia-smi topo -p2p GPU0 GPU1',
    'nvidia-smi xtopo -m GPU0 GPU1',
    'nvidia-smi topo -m GPU0x GPU1',
    'nvidia-smi topo -m GPU1 GPU0',
    'nvidia-smi topo -mGPU0 GPU1',
    'nvidia-smi topo -x GPU0 GPU1',
  ])
    assert.equal(parseMatrixHeader(no), undefined, no)
})

const tabs: MatrixHeader = { devices: ['GPU0', 'GPU1'], extras: AFF, tabs: true }
const spaces: MatrixHeader = { devices: ['GPU0', 'GPU1'], extras: [], tabs: false }

test('splitMatrixRow: raw TABs keep empty fields, trailing empties beyond the devices are dropped', () => {
  assert.deepEqual(splitMatrixRow('GPU0\t X \tNODE\t0-63\t0\t\tN/A', tabs), {
    label: 'GPU0',
    fields: ['X', 'NODE', '0-63', '0', '', 'N/A'],
  })
  assert.deepEqual(splitMatrixRow('\tGPU1\tNODE\t X \t\t', tabs), { label: 'GPU1', fields: ['NODE', 'X'] })
  assert.deepEqual(splitMatrixRow('GPU1\tNODE\t\t\t', tabs), { label: 'GPU1', fields: ['NODE', ''] })
  assert.deepEqual(splitMatrixRow('GPU1\t\t\t', tabs), { label: 'GPU1', fields: ['', ''] })
  assert.deepEqual(splitMatrixRow('GPU1\t\tSYS\t\t', tabs), { label: 'GPU1', fields: ['', 'SYS'] })
  // A TAB header but a space-padded row (and the reverse): split on blanks.
  assert.deepEqual(splitMatrixRow(' GPU0   X    PIX   0-7 ', tabs), { label: 'GPU0', fields: ['X', 'PIX', '0-7'] })
  assert.deepEqual(splitMatrixRow('GPU0\t X \tPIX\t\t', spaces), { label: 'GPU0', fields: ['X', 'PIX'] })
  assert.deepEqual(splitMatrixRow('\x1b[1mGPU1\x1b[0m  PIX  X', spaces), { label: 'GPU1', fields: ['PIX', 'X'] })
  assert.deepEqual(splitMatrixRow('GPU1', spaces), { label: 'GPU1', fields: [] })
  for (const no of ['GPU2 X PIX', 'Legend:', '', '   ', 'X GPU0', '\t\tGPU0\tX'])
    assert.equal(splitMatrixRow(no, tabs), undefined, JSON.stringify(no))
})

test('countValidCells: leading valid cells, at most n, at most the fields there are', () => {
  const up = (c: string) => /^[A-Z]+$/.test(c)
  assert.equal(countValidCells(['A', 'B', 'c', 'D'], 4, up), 2)
  assert.equal(countValidCells(['A', 'B', 'C'], 2, up), 2)
  assert.equal(countValidCells(['A'], 3, up), 1)
  assert.equal(countValidCells([], 2, up), 0)
  assert.equal(countValidCells(['a', 'B'], 2, up), 0)
  // Past the last field nothing is asked, even of a test that would accept a missing cell.
  assert.equal(
    countValidCells(['A'], 3, (c) => c !== 'x'),
    1,
  )
  let calls = 0
  countValidCells(['A', 'B', 'C'], 2, (c) => (calls++, up(c)))
  assert.equal(calls, 2)
})

test('findHeader and MatrixReader: the first header, its rows, and the first other line ends the matrix', () => {
  assert.deepEqual(findHeader(['x', 'GPU1 GPU0', ' GPU0 GPU1', 'GPU0 GPU1 GPU2']), {
    header: { devices: ['GPU0', 'GPU1'], extras: [], tabs: false },
    index: 2,
  })
  assert.equal(findHeader(['GPU0 junk', 'Legend:']), undefined)
  assert.equal(findHeader([]), undefined)
  const r = new MatrixReader()
  const seen = ['nvidia-smi topo -m', 'GPU1 X', 'GPU0 GPU1', 'GPU0 X NV4', 'GPU2 X', 'GPU1 NV4 X', 'GPU0 GPU1'].map(
    (l) => r.read(l),
  )
  assert.deepEqual(seen, [
    'before',
    'before',
    'header',
    { label: 'GPU0', fields: ['X', 'NV4'] },
    'after',
    'after',
    'after',
  ])
  assert.deepEqual(r.header?.devices, ['GPU0', 'GPU1'])
  const q = new MatrixReader()
  assert.deepEqual(
    ['GPU0 GPU1', 'GPU1 NV4 X', 'GPU0 X NV4', '', 'GPU0 X NV4'].map((l) => q.read(l)),
    ['header', { label: 'GPU1', fields: ['NV4', 'X'] }, { label: 'GPU0', fields: ['X', 'NV4'] }, 'after', 'after'],
  )
})

test('eachPairCell: every off-diagonal cell in column order; a self cell other than X is a warning', () => {
  const diagnostics: Diagnostic[] = []
  const cells: string[] = []
  const devices = ['GPU0', 'GPU1', 'GPU2']
  eachPairCell(
    { label: 'GPU1', fields: ['OK', 'NS', 'CNS', 'extra'] },
    devices,
    { file: 'f', line: 7, diagnostics },
    (b, v) => cells.push(`${b}=${v}`),
  )
  assert.deepEqual(cells, ['GPU0=OK', 'GPU2=CNS'])
  assert.deepEqual(diagnostics, [
    { file: 'f', line: 7, severity: 'warn', code: 'bad-self', message: 'row GPU1: self cell is NS, expected X' },
  ])
  eachPairCell({ label: 'GPU2', fields: ['A', 'B', 'X'] }, devices, { file: 'f', line: 8, diagnostics }, (b, v) =>
    cells.push(`${b}=${v}`),
  )
  assert.deepEqual(cells.slice(2), ['GPU0=A', 'GPU1=B'])
  assert.equal(diagnostics.length, 1)
})

test('replacePair: the later item for an ordered pair replaces the earlier one, at the end', () => {
  const list = [
    { a: 'GPU0', b: 'GPU1', v: 1 },
    { a: 'GPU1', b: 'GPU0', v: 2 },
    { a: 'GPU0', b: 'GPU2', v: 3 },
  ]
  assert.deepEqual(replacePair(list, { a: 'GPU0', b: 'GPU1', v: 9 }), [
    { a: 'GPU1', b: 'GPU0', v: 2 },
    { a: 'GPU0', b: 'GPU2', v: 3 },
    { a: 'GPU0', b: 'GPU1', v: 9 },
  ])
  assert.deepEqual(replacePair(list, { a: 'GPU2', b: 'GPU0', v: 4 }), [...list, { a: 'GPU2', b: 'GPU0', v: 4 }])
  assert.equal(list.length, 3)
})

test('matrixEndError, missingRowWarning, isGpuLabel, gpuIndex', () => {
  const h: MatrixHeader = { devices: ['GPU0'], extras: [], tabs: false }
  assert.deepEqual(matrixEndError('f.txt', 3, undefined, 0, 'topo -m'), {
    file: 'f.txt',
    line: 3,
    severity: 'error',
    code: 'no-matrix',
    message: 'no nvidia-smi topo -m matrix found (a header line starting with GPU0 was expected)',
  })
  assert.deepEqual(matrixEndError('f.txt', 4, h, 0, 'topo -p2p'), {
    file: 'f.txt',
    line: 4,
    severity: 'error',
    code: 'no-rows',
    message: 'the topo -p2p matrix has a header but no usable row',
  })
  assert.equal(matrixEndError('f.txt', 4, h, 1, 'topo -m'), undefined)
  assert.deepEqual(missingRowWarning('g.txt', 9, ['GPU0', 'GPU1', 'GPU2'], new Set(['GPU1'])), {
    file: 'g.txt',
    line: 9,
    severity: 'warn',
    code: 'missing-row',
    message: 'no usable row for GPU0, GPU2',
  })
  assert.equal(missingRowWarning('g.txt', 9, ['GPU0'], new Set(['GPU0', 'NIC0'])), undefined)
  assert.equal(missingRowWarning('g.txt', 9, [], new Set()), undefined)
  assert.deepEqual(['GPU3', 'GPU12', 'NIC0', 'GPU', 'xGPU1', 'GPU1x', 'mlx5_0'].map(isGpuLabel), [
    true,
    true,
    false,
    false,
    false,
    false,
    false,
  ])
  assert.deepEqual([gpuIndex('GPU0'), gpuIndex('GPU12')], [0, 12])
})
