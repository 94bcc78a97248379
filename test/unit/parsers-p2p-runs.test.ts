/**
 * p2pBandwidthLatencyTest runs as a whole, on generated text (test/p2p-gen.ts: the real line
 * shapes, made-up numbers): how many matrices a run needs (8, 11 with --p2p_read), which
 * diagnostic says what is missing and where, bad rows and cells, orphan headers, the
 * connectivity matrix, peer access and copy kind per row, options per run, trials, how many
 * runs and CUDA lines the meta keeps, detection scores and the device limit.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Row } from '../../src/model/index.ts'
import { SIM_MARKER } from '../../src/model/index.ts'
import type { ParseOutput, Parser } from '../../src/parsers/index.ts'
import { parserById, parseText } from '../../src/parsers/index.ts'
import { cellText, p2pRun } from '../p2p-gen.ts'

const P2P = parserById('p2pBandwidthLatencyTest') as Parser
const parse = (lines: string[], trial?: number): ParseOutput =>
  parseText(P2P, lines.join('\n'), { file: 'g.txt', ...(trial === undefined ? {} : { trial }) })
const diags = (o: ParseOutput): string[] => o.diagnostics.map((d) => `${d.line} ${d.severity} ${d.code}: ${d.message}`)
const at = (lines: string[], text: string): number => lines.indexOf(text) + 1

test('a complete generated run: 8 matrices of 2×2, 32 rows, every cell where it was printed, no diagnostics', () => {
  const lines = p2pRun()
  const out = parse(lines)
  assert.deepEqual(diags(out), [])
  assert.equal(out.rows.length, 32)
  assert.equal(out.meta.complete, true)
  assert.equal(out.meta.runs, 1)
  assert.equal(out.meta.firstLine, 1)
  const m = out.meta.matrices as { timer: string | null; line: number; rows: number; columns: number }[]
  assert.deepEqual(
    m.map((x) => [x.timer, x.rows, x.columns]),
    [
      ...Array(4).fill([null, 2, 2]),
      ...Array(2)
        .fill(['gpu', 2, 2])
        .flatMap((g) => [g, ['cpu', 2, 2]]),
    ],
  )
  for (let k = 0; k < 8; k++)
    for (const [i, j] of [
      [0, 0],
      [0, 1],
      [1, 0],
      [1, 1],
    ] as const) {
      const line = (m[k]?.line ?? 0) + 1 + i
      const r = out.rows.find((x) => x.source.line === line && x.src === i && x.dst === j) as Row
      assert.equal(r.value, Number(`${cellText(k, i, j)}e${k < 4 ? 9 : -6}`), `${k} ${i} ${j}`)
      assert.equal(r.timer, k < 4 ? null : k % 2 ? 'cpu' : 'gpu')
      assert.equal(r.peerAccess, r.p2p === 'enabled' && i !== j ? true : undefined)
      assert.deepEqual([r.copy, r.sizeBytes, r.trial], ['ce', null, 0])
    }
})

test('what a run lacks: matrices (with or without the NOTE), the NOTE alone, --p2p_read sections', () => {
  const noNote = p2pRun({ footer: false })
  assert.deepEqual(diags(parse(noNote)), [
    `${noNote.length} info no-footer: p2pBandwidthLatencyTest run from line 1 has every matrix but no final NOTE line`,
  ])
  const cut = p2pRun({ footer: false, skip: [5] })
  assert.deepEqual(diags(parse(cut)), [
    `${cut.length} warn incomplete: p2pBandwidthLatencyTest run from line 1 has 6 of 8 matrices (no final NOTE line)`,
  ])
  const gap = p2pRun({ skip: [0] })
  assert.deepEqual(diags(parse(gap)), [
    `${gap.length} warn incomplete: p2pBandwidthLatencyTest run from line 1 has 7 of 8 matrices`,
  ])
  // --p2p_read on the command line asks for 11; so does a "(P2P Reads)" section seen.
  const asked = p2pRun({ cmd: './p2pBandwidthLatencyTest --p2p_read' })
  assert.deepEqual(diags(parse(asked)), [
    `${asked.length} warn incomplete: p2pBandwidthLatencyTest run from line 2 has 8 of 11 matrices`,
  ])
  const reads = parse(p2pRun({ reads: true }))
  assert.deepEqual([diags(reads), reads.rows.length], [[], 44])
  const readsCut = p2pRun({ reads: true, skip: [7] })
  assert.deepEqual(diags(parse(readsCut)), [
    `${readsCut.length} warn incomplete: p2pBandwidthLatencyTest run from line 1 has 9 of 11 matrices`,
  ])
  // A CUDA failure after every matrix: not complete, but no "no NOTE" info on top of the error.
  const failed = [...p2pRun({ footer: false }), 'Cuda failure x.cu:1: out of memory']
  const f = parse(failed)
  assert.deepEqual(diags(f), [
    `${failed.length} error cuda-failure: p2pBandwidthLatencyTest stopped: Cuda failure x.cu:1: out of memory`,
  ])
  assert.equal(f.meta.complete, false)
})

test('a second banner ends the run before it at the line above; options belong to the run they precede', () => {
  const first = p2pRun({ cmd: './p2pBandwidthLatencyTest --sm_copy --numElems=25', skip: [1, 2, 3, 4, 5] })
  const second = p2pRun()
  const out = parse([...first, ...second], 7)
  assert.deepEqual(diags(out), [
    `${first.length} warn incomplete: p2pBandwidthLatencyTest run from line 2 has 1 of 8 matrices`,
  ])
  assert.equal(out.meta.runs, 2)
  assert.deepEqual([...new Set(out.rows.map((r) => r.trial))], [7, 8])
  const [a, b] = [out.rows.filter((r) => r.trial === 7), out.rows.filter((r) => r.trial === 8)]
  assert.deepEqual([...new Set(a.map((r) => r.sizeBytes))], [100])
  assert.ok(b.every((r) => r.sizeBytes === null && r.copy === 'ce'))
  const other = out.meta.otherRuns as { options: { smCopy: boolean }; copy: string; firstLine: number }[]
  assert.deepEqual([out.meta.copy, other[0]?.copy, other[0]?.options.smCopy], ['sm', 'ce', false])
  assert.equal(other[0]?.firstLine, first.length + 1)
})

test('--sm_copy: peer copies are sm unless the pair cannot access; --numElems sizes bandwidth rows only', () => {
  const lines = p2pRun({ n: 3, cmd: './p2pBandwidthLatencyTest -sm_copy --numElems=1000' }).map((l) =>
    l === 'Device=0 CAN Access Peer Device=2' ? 'Device=0 CANNOT Access Peer Device=2' : l,
  )
  const out = parse(lines)
  for (const r of out.rows) {
    const peer = r.p2p === 'enabled' && r.src !== r.dst
    const denied = r.src === 0 && r.dst === 2
    assert.equal(r.copy, peer && !denied ? 'sm' : 'ce', JSON.stringify(r))
    assert.equal(r.peerAccess, peer ? !denied : undefined)
    assert.equal(r.sizeBytes, r.metric === 'bandwidth' ? 4000 : null)
  }
  // Without access lines or a connectivity matrix the pair's access is unknown: sm, and no peerAccess.
  const blind = p2pRun({ cmd: './p2pBandwidthLatencyTest --sm_copy' }).filter(
    (l) => !l.startsWith('Device=') && !/^\s+\d\s+1\s+1$/.test(l),
  )
  const o = parse(blind)
  assert.equal(o.meta.peerAccessSource, null)
  assert.equal(o.meta.peerAccess, null)
  assert.equal(o.meta.connectivity, null)
  for (const r of o.rows.filter((x) => x.p2p === 'enabled' && x.src !== x.dst)) {
    assert.equal(r.copy, 'sm')
    assert.ok(!('peerAccess' in r))
  }
})

test('bad rows and cells: long, short, a label that is no device, a cell that is no number', () => {
  const lines = p2pRun({ footer: false, skip: [1, 2, 3, 4, 5] })
  const h = at(lines, 'Unidirectional P2P=Disabled Bandwidth Matrix (GB/s)') + 1
  lines[h] = '     0   1.00   2.00   3.00'
  lines[h + 1] = '     1   4.00'
  lines.splice(h + 2, 0, '   256   1.00   2.00', '     7   N/A   2.00', '     1.5   1.00   2.00')
  const out = parse(lines)
  assert.deepEqual(diags(out).slice(0, 5), [
    `${h + 1} warn long-row: row 0 has 3 cells for 2 columns; extra cells ignored`,
    `${h + 2} warn short-row: row 1 has 1 of 2 cells; its last cell may be cut and is skipped`,
    `${h + 3} warn bad-row: not a matrix row: 256   1.00   2.00`,
    `${h + 4} warn bad-cell: cell (7, 0) of "Unidirectional P2P=Disabled Bandwidth Matrix (GB/s)" is "N/A", not a number; no row`,
    `${h + 5} warn bad-row: not a matrix row: 1.5   1.00   2.00`,
  ])
  assert.deepEqual(
    out.rows.map((r) => [r.src, r.dst, r.value]),
    [
      [0, 0, 1e9],
      [0, 1, 2e9],
      [7, 1, 2e9],
    ],
  )
})

test('matrices short of rows, orphan headers, rows after the blank line of a latency section', () => {
  const lines = p2pRun({ skip: [1, 2, 3] })
  // Lines as numbered in the parsed text: two orphan lines come first.
  const bw = at(lines, 'Unidirectional P2P=Disabled Bandwidth Matrix (GB/s)') + 2
  lines.splice(bw, 1) // the bandwidth matrix (header at bw + 1) loses its last row
  const lat = at(lines, 'P2P=Disabled Latency Matrix (us)') + 2
  lines.splice(lat, 1) // the GPU matrix (header at lat + 1) loses its last row: row 0, then the blank
  lines.splice(lat + 1, 0, '     9   1.00   2.00') // a row after the blank line (lat + 4), before the CPU header
  const out = parse(['   D\\D     0      1', '     0   1.00   2.00', ...lines])
  assert.deepEqual(diags(out).slice(0, 3), [
    '1 warn orphan-matrix: matrix header without a title before it; its rows are skipped',
    // Said where the next title closes the matrix (bw + 3), and where the CPU header follows the GPU matrix (lat + 5).
    `${bw + 3} warn incomplete: matrix "Unidirectional P2P=Disabled Bandwidth Matrix (GB/s)" from line ${bw + 1} has 1 of 2 rows`,
    `${lat + 5} warn incomplete: matrix "P2P=Disabled Latency Matrix (us)" (GPU) from line ${lat + 1} has 1 of 2 rows`,
  ])
  assert.ok(!out.rows.some((r) => r.src === 9 || r.dst === 9 || r.source.line === 2))
})

test('peer access: from the CAN/CANNOT lines over the connectivity matrix, null where neither says, mismatches named', () => {
  // Three devices; access lines only between 0 and 1 (0 → 1 CANNOT), the matrix says 0 → 2 cannot and its
  // column 300 is past the device limit; a diagonal CANNOT is no mismatch.
  const lines = p2pRun({ n: 3 })
    .filter((l) => !l.startsWith('Device=') && !/^\s+\d\s+1\s+1\s+1$/.test(l))
    .map((l) => (l.startsWith('     D\\D') && !l.includes('.') ? '     D\\D     0     1     2   300' : l))
  const conn = at(lines, 'P2P Connectivity Matrix') + 1
  lines.splice(
    conn,
    0,
    '     0     1     1     0     1',
    '     1     1     1     1     1',
    '     2     1     1     1     1',
  )
  lines.splice(2, 0, 'Device=0 CANNOT Access Peer Device=1', 'Device=1 CAN Access Peer Device=0')
  lines.splice(2, 0, 'Device=0 CANNOT Access Peer Device=0')
  const out = parse(lines)
  assert.equal(out.meta.peerAccessSource, 'access-lines')
  assert.deepEqual(out.meta.peerAccess, [
    [1, 0, 0],
    [1, 1, 1],
    [1, 1, 1],
  ])
  assert.deepEqual(out.meta.connectivity, [
    [1, 1, 0],
    [1, 1, 1],
    [1, 1, 1],
  ])
  // Said at the run's first line (the banner).
  assert.deepEqual(diags(out), [
    '1 warn peer-access-mismatch: Device=0 CANNOT access Device=1, but the connectivity matrix says 1',
  ])
  const denied = out.rows.filter((r) => r.peerAccess === false).map((r) => `${r.src}→${r.dst}`)
  assert.deepEqual([...new Set(denied)], ['0→1', '0→2'])
  // A blank line ends the connectivity matrix: a digit row after it is nobody's.
  const after = [...lines]
  after.splice(after.indexOf('     2     1     1     1     1') + 1, 0, '', '     1     0     0     0')
  assert.deepEqual(parse(after).meta.connectivity, out.meta.connectivity)
  // Devices only: the matrix is null (nothing stated about access).
  const only = parse(
    p2pRun().filter((l) => !l.startsWith('Device=') && !l.startsWith('     0  ') && !l.startsWith('     1  ')),
  )
  assert.deepEqual([only.meta.peerAccess, only.meta.peerAccessSource], [null, null])
})

test('device indices past 255 are ignored in device, access, connectivity and matrix lines', () => {
  const lines = p2pRun()
  lines.splice(
    2,
    0,
    'Device: 256, X, pciBusID: 1, pciDeviceID: 0, pciDomainID:0',
    'Device=0 CAN Access Peer Device=256',
    'Device=256 CAN Access Peer Device=0',
  )
  const out = parse(lines)
  assert.equal((out.meta.devices as unknown[]).length, 2)
  assert.equal((out.meta.peerAccess as unknown[]).length, 2)
  const high = parse(['P2P=Enabled Latency Matrix (us)', '   GPU     0    255', '   256   1.00   2.00'])
  assert.deepEqual([high.rows.length, diags(high)[0]], [0, '3 warn bad-row: not a matrix row: 256   1.00   2.00'])
  const edge = parse(['P2P=Enabled Latency Matrix (us)', '   GPU     0    255', '   255   1.00   2.00'])
  assert.deepEqual(
    edge.rows.map((r) => [r.src, r.dst, r.timer]),
    [
      [255, 0, 'gpu'],
      [255, 255, 'gpu'],
    ],
  )
})

test('meta: 64 other runs kept (the rest counted), 16 CUDA version lines, the SIMULATED marker', () => {
  const run = p2pRun({ skip: [0, 1, 2, 3, 4, 5] })
  const out = parse(Array.from({ length: 67 }, () => run).flat())
  assert.deepEqual([out.meta.runs, (out.meta.otherRuns as unknown[]).length], [67, 64])
  assert.equal(out.meta.simulated, undefined)
  const cuda = Array.from({ length: 20 }, (_, i) => `CUDA Driver Version / Runtime Version ${i}`)
  const m = parse(['NOCUDA Version 1', 'Version CUDA 2', 'cuda runtime version 3', ...cuda, ...p2pRun()]).meta
  assert.deepEqual(m.cudaVersionLines, ['cuda runtime version 3', ...cuda.slice(0, 15)])
  assert.equal(parse([`${SIM_MARKER} seed=1`, ...p2pRun()]).meta.simulated, true)
  assert.equal(parse([SIM_MARKER, ...p2pRun()]).meta.simulated, true)
})

test('no run: no-data at the last line (line 1 when empty); a NOTE before any run; detection scores', () => {
  assert.deepEqual(diags(parse([''])), ['1 warn no-data: no p2pBandwidthLatencyTest output found'])
  assert.deepEqual(diags(parse(['a', 'b', 'NOTE: The CUDA Samples are not meant for performance measurements.'])), [
    '3 warn no-data: no p2pBandwidthLatencyTest output found',
  ])
  const d = (h: string) => P2P.detect(h)
  assert.equal(d(`x\n[P2P (Peer-to-Peer) GPU Bandwidth Latency Test]\n`), 0.95)
  assert.equal(d('Bidirectional P2P=Enabled Bandwidth Matrix (GB/s)'), 0.85)
  assert.equal(d('Unidirectional P2P=Disabled Bandwidth'), 0.85)
  assert.equal(d('P2P=Disabled Latency Matrix (us)'), 0.85)
  assert.equal(d('Device=0 CANNOT Access Peer Device=12'), 0.7)
  assert.equal(d('Device=0 CAN Access Peer Device=1'), 0.7)
  assert.equal(d('Device=x CAN Access Peer Device=1\nP2P=Maybe Latency'), 0)
})

test('a run with a CUDA failure is not complete even with the NOTE; a latency matrix under D\\D has no timer', () => {
  const failed = p2pRun({ skip: [5] })
  failed.splice(failed.length - 1, 0, 'Cuda failure x.cu:1: out of memory')
  assert.equal(parse(failed).meta.complete, false)
  const lat = parse(['P2P=Enabled Latency Matrix (us)', '   D\\D     0      1', '     0   1.00   2.00'])
  assert.deepEqual(
    lat.rows.map((r) => r.timer),
    [null, null],
  )
  assert.equal((lat.meta.matrices as { timer: unknown }[])[0]?.timer, null)
})

test('the peer-access matrix spans every device the connectivity matrix names, beyond the access lines', () => {
  const lines = p2pRun({ n: 3 }).filter((l) => !l.startsWith('Device'))
  lines.splice(1, 0, 'Device=0 CANNOT Access Peer Device=1') // after the banner
  assert.deepEqual(parse(lines).meta.peerAccess, [
    [1, 0, 1],
    [1, 1, 1],
    [1, 1, 1],
  ])
})
