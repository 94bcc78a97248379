/**
 * p2pBandwidthLatencyTest edges the line and run tests leave open, on GENERATED text (test/p2p-gen.ts
 * and hand-written lines in the real shapes): which first characters make a matrix row, banner
 * variants, device-like lines that are no device, access lines past the device limit, connectivity
 * rows (missing, cut and bad cells, columns past the limit, the blank line that ends the matrix),
 * the timer and direction of each row, the read orientation, and detection of two-digit devices.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { ParseOutput, Parser } from '../../src/parsers/index.ts'
import { parserById, parseText } from '../../src/parsers/index.ts'
import { accessOf, deviceOf, sectionOf } from '../../src/parsers/p2p/_p2p-sections.ts'
import { p2pRun } from '../p2p-gen.ts'

const P2P = parserById('p2pBandwidthLatencyTest') as Parser
const parse = (lines: string[]): ParseOutput => parseText(P2P, lines.join('\n'), { file: 'g.txt' })
const diags = (o: ParseOutput): string[] => o.diagnostics.map((d) => `${d.line} ${d.severity} ${d.code}: ${d.message}`)
const UNI = 'Unidirectional P2P=Disabled Bandwidth Matrix (GB/s)'
const cut = (n: number, line: number, first = 1) =>
  `${line} warn incomplete: p2pBandwidthLatencyTest run from line ${first} has ${n} of 8 matrices (no final NOTE line)`

test('a matrix row starts with a digit 0-9; a line of dashes or signs inside a matrix is no row', () => {
  const out = parse([UNI, '   D\\D     9', '     9   1.50', '-----', '+ 1.00', '/ 2.00'])
  assert.deepEqual(
    out.rows.map((r) => [r.src, r.dst, r.value]),
    [[9, 9, 1.5e9]],
  )
  assert.deepEqual(diags(out), [cut(1, 6)])
})

test('a line starting with the banner text starts a run there, even with more after it', () => {
  const lines = [
    '[P2P (Peer-to-Peer) GPU Bandwidth Latency Test] (cut here)',
    'Device: 0, G, pciBusID: 1, pciDeviceID: 0, pciDomainID:0',
  ]
  assert.deepEqual(diags(parse(lines)), [cut(0, 2)])
})

test('lines starting with Device that are no device line: nothing read, a CUDA version kept, no error', () => {
  const out = parse([
    'Device 0 has no peer here',
    'Device Driver CUDA Version 12.4',
    'Device: 0, CUDA Version 9 GPU, pciBusID: 1, pciDeviceID: 0, pciDomainID:0',
  ])
  assert.deepEqual(out.meta.cudaVersionLines, ['Device Driver CUDA Version 12.4'])
  assert.deepEqual(
    (out.meta.devices as { name: string }[]).map((d) => d.name),
    ['CUDA Version 9 GPU'],
  )
  assert.deepEqual(diags(out), [cut(0, 3, 3)])
})

test('an access line naming device 256 says nothing about the pair (0, 256) of a matrix', () => {
  const out = parse([
    'Device=0 CANNOT Access Peer Device=256',
    'P2P=Enabled Latency Matrix (us)',
    '   GPU     0   256',
    '     0   1.00   2.00',
  ])
  assert.deepEqual(
    out.rows.map((r) => [r.src, r.dst, r.peerAccess, r.copy]),
    [
      [0, 0, undefined, 'ce'],
      [0, 256, undefined, 'ce'],
    ],
  )
})

test('connectivity rows: a cell that is no integer, a column past 255 and the cut last cell are not kept', () => {
  const out = parse([
    'P2P Connectivity Matrix',
    '     D\\D     1     2   256',
    '     0     1     0     1',
    '     1     1     x     1',
    '     2     1     0',
    '',
  ])
  assert.deepEqual(out.meta.connectivity, [
    [null, 1, 0],
    [null, 1],
    [null, 1],
  ])
  assert.deepEqual(out.meta.peerAccess, [
    [1, 1, 0],
    [null, 1, null],
    [null, 1, 1],
  ])
  assert.deepEqual(diags(out)[0], '5 warn short-row: row 2 has 2 of 3 cells; its last cell may be cut and is skipped')
})

test('a blank line ends the connectivity matrix: a header after it is an orphan and its rows are nobody’s', () => {
  const out = parse([
    'P2P Connectivity Matrix',
    '     D\\D     0     1',
    '     0     1     1',
    '',
    '     D\\D     0     1',
    '     1     0     0',
  ])
  assert.deepEqual(out.meta.connectivity, [[1, 1]])
  assert.deepEqual(diags(out), [
    '5 warn orphan-matrix: matrix header without a title before it; its rows are skipped',
    cut(0, 6),
  ])
})

test('a short row keeps every cell but the last; a bad row is quoted up to 80 characters', () => {
  const long = `256${' 1.00'.repeat(30)}`
  const out = parse([UNI, '   D\\D     0     1     2', '     0   1.00   2.00', long])
  assert.deepEqual(
    out.rows.map((r) => [r.src, r.dst, r.value]),
    [[0, 0, 1e9]],
  )
  assert.deepEqual(diags(out).slice(0, 2), [
    '3 warn short-row: row 0 has 2 of 3 cells; its last cell may be cut and is skipped',
    `4 warn bad-row: not a matrix row: 256${' 1.00'.repeat(15)} 1`,
  ])
})

test('a bandwidth matrix under a GPU corner has no timer, in its rows and in the meta', () => {
  const out = parse([UNI, '   GPU     0', '     0   1.00'])
  assert.deepEqual(
    out.rows.map((r) => r.timer),
    [null],
  )
  assert.equal((out.meta.matrices as { timer: unknown }[])[0]?.timer, null)
})

test('direction: set only under (P2P Writes) and (P2P Reads); reads go column → row', () => {
  const lines = p2pRun({ reads: true })
  const out = parse(lines)
  const first = out.rows[0]
  assert.deepEqual(first, {
    bench: 'p2p.bw_uni',
    metric: 'bandwidth',
    unit: 'B/s',
    value: 0,
    sizeBytes: null,
    ranks: null,
    src: 0,
    dst: 0,
    placement: null,
    p2p: 'disabled',
    timer: null,
    trial: 0,
    source: { file: 'g.txt', line: lines.indexOf(UNI) + 3 },
    copy: 'ce',
  })
  // Writes: the unidirectional bandwidth matrix and the latency section (GPU and CPU): 4 + 8 rows.
  assert.equal(out.rows.filter((r) => r.direction === 'write').length, 12)
  assert.deepEqual(
    out.rows.filter((r) => r.direction === 'read' && r.metric === 'bandwidth').map((r) => [r.src, r.dst, r.value]),
    [
      [0, 0, 4e9],
      [1, 0, 4.01e9],
      [0, 1, 4.1e9],
      [1, 1, 4.11e9],
    ],
  )
})

test('the SIMULATED flag only with the marker; access lines with two-digit devices are detected', () => {
  assert.equal(parse(['$ ./p2pBandwidthLatencyTest', ...p2pRun()]).meta.simulated, undefined)
  assert.equal(P2P.detect('Device=10 CAN Access Peer Device=11'), 0.7)
  assert.equal(P2P.detect('Device=10 CANNOT Access Peer Device=2\n'), 0.7)
})

const dev = (i: number) => `Device: ${i}, G, pciBusID: ${i + 1}, pciDeviceID: 0, pciDomainID:0`

test('peer access from access lines alone: unstated pairs null, the size taken from the device lines too', () => {
  const lone = parse(['Device=1 CAN Access Peer Device=2'])
  assert.deepEqual(
    [lone.meta.peerAccess, lone.meta.peerAccessSource],
    [
      [
        [1, null],
        [null, 1],
      ],
      'access-lines',
    ],
  )
  assert.deepEqual(diags(lone), [cut(0, 1)])
  const three = parse([dev(0), dev(1), dev(2), 'Device=0 CAN Access Peer Device=1'])
  assert.deepEqual(three.meta.peerAccess, [
    [1, 1, null],
    [null, 1, null],
    [null, null, 1],
  ])
})

test('access lines against the connectivity matrix: pairs one side leaves unstated, and agreeing CANNOTs, are no mismatch', () => {
  const out = parse([
    'Device=0 CAN Access Peer Device=2',
    'Device=1 CANNOT Access Peer Device=0',
    'Device=2 CANNOT Access Peer Device=0',
    'P2P Connectivity Matrix',
    '     D\\D     0     1     2',
    '     0     1     0     1',
    '     1     0     1     1',
  ])
  assert.deepEqual(diags(out), [cut(0, 7)])
  assert.deepEqual(out.meta.peerAccess, [
    [1, 0, 1],
    [0, 1, 1],
    [0, null, 1],
  ])
})

test('a connectivity row never printed is an empty row in the meta', () => {
  const out = parse(['P2P Connectivity Matrix', '     D\\D     0     1', '     0     1     1', '     2     1     1'])
  assert.deepEqual(out.meta.connectivity, [[1, 1], [], [1, 1]])
})

test('titles, device and access lines: any run of blanks between words, none needed after a comma; nothing after the unit', () => {
  assert.equal(sectionOf('Unidirectional P2P=Disabled Bandwidth Matrix (GB/s) (cut)'), undefined)
  assert.equal(sectionOf('P2P=Enabled Latency Matrix (us) (cut)'), undefined)
  const bw = sectionOf('Unidirectional  P2P=Enabled  Bandwidth  (P2P  Reads)  Matrix (GB/s)')
  assert.deepEqual([bw?.bench, bw?.p2p, bw?.direction], ['p2p.bw_uni', 'enabled', 'read'])
  const lat = sectionOf('P2P=Enabled  Latency  (P2P  Writes)  Matrix (us)')
  assert.deepEqual([lat?.bench, lat?.p2p, lat?.direction], ['p2p.latency', 'enabled', 'write'])
  assert.deepEqual(deviceOf('Device: 0,Tesla V100,pciBusID: 1b,pciDeviceID: 0,pciDomainID:0  '), {
    index: 0,
    name: 'Tesla V100',
    pciBusId: '1b',
    pciDeviceId: '0',
    pciDomainId: '0',
    busId: '0000:1b:00.0',
  })
  assert.deepEqual(accessOf('Device=0  CAN  Access  Peer  Device=1'), { from: 0, to: 1, can: true })
})
