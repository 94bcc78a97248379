/**
 * The `nvidia-smi topo -m` reader (src/parsers/system/nvidia-smi-topo-m.ts) on GENERATED matrices
 * written after the fixtures' shapes: the affinity columns with raw TABs and with spaces (an
 * empty CPU affinity, N/A, negative and malformed NUMA ids), link cells and classes, repeated
 * and short rows, the legends, the end-of-text diagnostics and the detection scores.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Parser, TopoMatrix } from '../../src/parsers/index.ts'
import { parserById, parseText } from '../../src/parsers/index.ts'

const p = parserById('nvidia-smi-topo-m') as Parser
const parse = (lines: string[]) => parseText(p, `${lines.join('\n')}\n`, { file: 'generated-topo-m.txt' })
const topo = (lines: string[]) => parse(lines).meta.topology as TopoMatrix
const codes = (lines: string[]) => parse(lines).diagnostics.map((d) => [d.line, d.severity, d.code, d.message])
const gpus = (t: TopoMatrix) => t.gpus.map((g) => ({ ...g }))

test('topo -m, raw TABs: CPU and NUMA affinity by position, GPU NUMA ID the last field', () => {
  const t = topo([
    '\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID',
    'GPU0\t X \tNV4\t0-7\t1\t\t3',
    'GPU1\tNV4\t X \t8-15\tN/A\t\tN/A',
  ])
  assert.deepEqual(gpus(t), [
    { index: 0, line: 2, cpuAffinity: '0-7', numa: 1, gpuNumaId: 3 },
    { index: 1, line: 3, cpuAffinity: '8-15', numa: null, gpuNumaId: null },
  ])
  const noId = topo(['\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity', 'GPU0\tX\tSYS\t0-7\t-1\t\t5', 'GPU1\tSYS\tX\t\t1x'])
  assert.deepEqual(gpus(noId), [
    { index: 0, line: 2, cpuAffinity: '0-7', numa: -1 },
    { index: 1, line: 3 },
  ])
})

test('topo -m, spaces: labels mapped from the right, so an empty CPU affinity leaves the others in place', () => {
  const t = topo([
    '        GPU0    GPU1    CPU Affinity    NUMA Affinity   GPU NUMA ID',
    'GPU0     X      PIX     24-47           1               N/A',
    'GPU1    PIX      X      0               7',
    'GPU1    PIX      X      N/A',
  ])
  assert.deepEqual(gpus(t), [
    { index: 0, line: 2, cpuAffinity: '24-47', numa: 1, gpuNumaId: null },
    { index: 1, line: 4, gpuNumaId: null },
  ])
  const two = topo(['GPU0  GPU1  NUMA Affinity  CPU Affinity', 'GPU0  X  NV2  3  0-3', 'GPU1  NV2  X  x1'])
  assert.deepEqual(gpus(two), [
    { index: 0, line: 2, numa: 3, cpuAffinity: '0-3' },
    { index: 1, line: 3, cpuAffinity: 'x1' },
  ])
  // No affinity columns at all: only the links.
  const bare = topo(['GPU0 GPU1', 'GPU0 X NV1 9', 'GPU1 NV1 X'])
  assert.deepEqual(gpus(bare), [
    { index: 0, line: 2 },
    { index: 1, line: 3 },
  ])
})

test('topo -m: links of every device pair; NIC rows have no affinity; unknown classes warned', () => {
  const lines = [
    'GPU0  GPU1  NIC0  CPU Affinity  NUMA Affinity',
    'GPU0   X    NV12  SOC   0-3  0',
    'GPU1  NV12   X    NV    4-7  0',
    'NIC0  SOC   NV    X',
  ]
  const t = topo(lines)
  assert.deepEqual(t.devices, ['GPU0', 'GPU1', 'NIC0'])
  assert.deepEqual(
    t.links.map((l) => `${l.a}-${l.b}:${l.link}@${l.line}`),
    ['GPU0-GPU1:NV12@2', 'GPU0-NIC0:SOC@2', 'GPU1-GPU0:NV12@3', 'GPU1-NIC0:NV@3', 'NIC0-GPU0:SOC@4', 'NIC0-GPU1:NV@4'],
  )
  assert.deepEqual(
    t.gpus.map((g) => g.index),
    [0, 1],
  )
  assert.deepEqual(codes(lines), [
    [3, 'warn', 'unknown-link', 'row GPU1, column NIC0: unknown link class NV'],
    [4, 'warn', 'unknown-link', 'row NIC0, column GPU1: unknown link class NV'],
  ])
  for (const cls of ['NV4X', 'XNV4', 'NVX', 'PIXX', 'XSYS', 'FOO'])
    assert.equal(codes(['GPU0 GPU1', `GPU0 X ${cls}`, 'GPU1 SYS X'])[0]?.[2], 'unknown-link', cls)
  for (const cls of ['NV1', 'NV18', 'PIX', 'PXB', 'PHB', 'NODE', 'SYS', 'SOC'])
    assert.deepEqual(codes(['GPU0 GPU1', `GPU0 X ${cls}`, `GPU1 ${cls} X`]), [], cls)
})

test('topo -m: a cell that is not a link class makes a short row, which is skipped', () => {
  for (const cell of ['nv4', 'N/A', '4NV', 'NV4x', 'N-V', '-'])
    assert.deepEqual(
      codes(['GPU0 GPU1 GPU2', `GPU0 X ${cell} SYS`, 'GPU1 SYS X SYS', 'GPU2 SYS SYS X']),
      [
        [2, 'error', 'short-row', 'row GPU0: 3 device cells expected, found 1 (a missing column?); row skipped'],
        [4, 'warn', 'missing-row', 'no usable row for GPU0'],
      ],
      cell,
    )
  const t = topo(['GPU0 GPU1', 'GPU0 X', 'GPU1 PIX X'])
  assert.deepEqual(
    t.links.map((l) => `${l.a}-${l.b}`),
    ['GPU1-GPU0'],
  )
  assert.deepEqual(
    t.gpus.map((g) => g.index),
    [1],
  )
})

test('topo -m: a repeated row is warned and the later one is used, its links and affinity alike', () => {
  const lines = ['GPU0 GPU1 CPU Affinity', 'GPU0 X PIX 0-3', 'GPU1 PIX X 4-7', 'GPU0 X SYS 8-9']
  const t = topo(lines)
  assert.deepEqual(
    t.links.map((l) => `${l.a}-${l.b}:${l.link}@${l.line}`),
    ['GPU1-GPU0:PIX@3', 'GPU0-GPU1:SYS@4'],
  )
  assert.deepEqual(gpus(t), [
    { index: 1, line: 3, cpuAffinity: '4-7' },
    { index: 0, line: 4, cpuAffinity: '8-9' },
  ])
  assert.deepEqual(codes(lines), [[4, 'warn', 'repeated-row', 'row GPU0 repeated; the later one is used']])
})

test('topo -m: legends after the matrix only; NIC names only under "NIC Legend:"', () => {
  const t = topo([
    'Legend:',
    'NIC0: early',
    'GPU0 NIC0',
    'GPU0 X PIX',
    'NIC0 PIX X',
    '  NIC0: before_legend',
    ' Legend: x',
    '  NIC Legend:  ',
    '  NIC0: mlx5_0  ',
    'NIC1:mlx5_1',
    'NIC2: a b',
    ' nic3: c',
    'NICX: d',
  ])
  assert.equal(t.legend, false)
  assert.deepEqual(t.nics, { NIC0: 'mlx5_0', NIC1: 'mlx5_1' })
  assert.equal(topo(['GPU0 GPU1', 'GPU0 X PIX', 'GPU1 PIX X', '', '  Legend:  ']).legend, true)
  assert.equal(topo(['GPU0 GPU1', 'GPU0 X PIX', 'GPU1 PIX X', 'Legend:']).legend, true)
  assert.equal(topo(['GPU0 GPU1', 'GPU0 X PIX', 'GPU1 PIX X', 'NIC Legend:']).legend, false)
})

test('topo -m at the end: no header, a header without rows, missing GPU rows (NIC rows are not required)', () => {
  assert.deepEqual(
    parseText(p, '', { file: 'e.txt' }).diagnostics.map((d) => [d.line, d.code]),
    [[1, 'no-matrix']],
  )
  const headerOnly = parse(['x', 'GPU0 GPU1', 'GPU0 X', 'y'])
  assert.deepEqual(
    headerOnly.diagnostics.map((d) => [d.line, d.code]),
    [
      [3, 'short-row'],
      [4, 'no-rows'],
    ],
  )
  assert.deepEqual(headerOnly.meta, {})
  assert.deepEqual(codes(['GPU0 GPU1 NIC0', 'GPU0 X PIX PIX', 'GPU1 PIX X PIX', 'x']), [])
  assert.deepEqual(codes(['GPU0 GPU1 NIC0', 'GPU0 X PIX PIX', 'NIC0 PIX PIX X', 'x', 'y']), [
    [5, 'warn', 'missing-row', 'no usable row for GPU1'],
  ])
})

const score = (text: string) => p.detect(text)

test('topo -m detection: affinity columns 0.95; known link cells 0.9; only the command 0.8; else 0', () => {
  assert.equal(score('GPU0 GPU1 CPU Affinity\nGPU0 X FOO\n'), 0.95)
  assert.equal(score('\x1b[4mGPU0 GPU1 NUMA Affinity\x1b[0m\n'), 0.95)
  assert.equal(score('GPU0 GPU1\nGPU0 X NV4\n'), 0.9)
  assert.equal(score('GPU0 GPU1\nGPU0 X \x1b[1mPIX\x1b[0m\n'), 0.9)
  assert.equal(score('GPU0 GPU1\r\nGPU0 X SYS\r\n'), 0.9)
  assert.equal(score('GPU0 GPU1\nGPU0 X OK\n'), 0)
  assert.equal(score('GPU0 GPU1\nGPU0 X NV4 OK\n'), 0.9)
  assert.equal(score('GPU0 GPU1\nGPU0 X PIX\nGPU1 OK X\n'), 0.9)
  assert.equal(score('GPU0 GPU1\nGPU0 X OK\n$ nvidia-smi  topo  -m\n'), 0.8)
  assert.equal(score('$ nvidia-smi topo --matrix\nGPU0\nGPU0 X\n'), 0.8)
  assert.equal(score('GPU0 GPU1\nGPU0 X OK\n\x1b[1mnvidia-smi\x1b[0m topo -m\n'), 0.8)
  assert.equal(score('GPU0\nGPU0 X\n'), 0)
  assert.equal(score('GPU0 GPU1\n'), 0)
  assert.equal(score('nvidia-smi topo -m\n'), 0)
  assert.equal(score('nvidia-smi topo -mx\nGPU0 GPU1\n'), 0)
  assert.equal(score('nvidia-smi topo -p2p r\nGPU0 GPU1\n'), 0)
  assert.equal(score('GPU0 GPU1\nGPU2 X NV4\n'), 0)
  // Only the first 16 KiB is read.
  assert.equal(score(`${'#'.repeat(16384)}\nGPU0 GPU1 CPU Affinity\n`), 0)
  assert.equal(score(`${'#'.repeat(16000)}\nGPU0 GPU1 CPU Affinity\n`), 0.95)
})

test('topo -m: NUMA ids are whole numbers only; a number of two digits is kept', () => {
  const t = topo([
    '\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID',
    'GPU0\tX\tSYS\t0-7\tx1\t\t12',
    'GPU1\tSYS\tX\t8-15\t10\t\t1-2',
  ])
  assert.deepEqual(gpus(t), [
    { index: 0, line: 2, cpuAffinity: '0-7', gpuNumaId: 12 },
    { index: 1, line: 3, cpuAffinity: '8-15', numa: 10 },
  ])
})

test('topo -m: NIC names only from a line that is exactly "NIC Legend:", labels NIC<digits> at the line start', () => {
  const t = topo([
    'GPU0 NIC0',
    'GPU0 X PIX',
    'NIC0 PIX X',
    '  NIC5: before_legend',
    'See the NIC Legend:',
    'NIC6: after_a_sentence',
    'NIC Legend: below',
    'NIC7: after_a_longer_line',
    '  NIC Legend:',
    '  NIC10: mlx5_10',
    ' xNIC11: bad',
    'NIC2: mlx5_2',
  ])
  assert.deepEqual(t.nics, { NIC10: 'mlx5_10', NIC2: 'mlx5_2' })
})

test('topo -m: a self cell other than X is warned at its line, the row still used', () => {
  const lines = ['GPU0 GPU1', 'GPU0 NV4 PIX', 'GPU1 PIX X']
  assert.deepEqual(codes(lines), [[2, 'warn', 'bad-self', 'row GPU0: self cell is NV4, expected X']])
  assert.deepEqual(
    topo(lines).links.map((l) => `${l.a}-${l.b}:${l.link}`),
    ['GPU0-GPU1:PIX', 'GPU1-GPU0:PIX'],
  )
})

test('topo -m detection: 0.9 only when every device cell of the first row is a link class', () => {
  assert.equal(score('GPU0 GPU1 GPU2\nGPU0 X NV4 OK\n'), 0)
  assert.equal(score('GPU0 GPU1 GPU2\nGPU0 X NV4 SYS\n'), 0.9)
})
