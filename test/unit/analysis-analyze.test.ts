/**
 * `analyzeSet` (src/analysis/_analyze.ts) on small hand-made sets whose series lie exactly on
 * α + size/β lines: the fits' order, link classes for cross-GPU pairs only, benches sorted,
 * the mechanism of a bench without a model, the verdict list (floors, classes, notes), the two
 * notes and where each applies, two modes of host-staged floors rebuilt into the verdicts,
 * warnings, cells and the topology line (the fleet and toAnalysisCell: analysis-analyze-fleet-cells).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { TopologyView } from '../../src/analysis/index.ts'
import type { Diagnostic, Row } from '../../src/model/index.ts'
import { indexedRows, makeRow } from '../../src/model/index.ts'
import { analyzeRows as analyze, close, line, SIZES, staged, US } from '../analysis/analyze-rows.ts'

const ar = (group: string, ranks: number): Row[] =>
  line(20, 10, { bench: 'nccl.all_reduce', metric: 'time', group, ranks, placement: 'out-of-place' })
const native = (x: string): Row[] => line(5, 10, { bench: 'native.copy', metric: 'time', env: { X: x } })
/** NODE for GPUs 0 and 1, X on the diagonal (and for no GPU at all), SYS otherwise. */
const topology: TopologyView = {
  source: 'raw/topo-m.txt',
  linkClass: (a, b) => (a + b === 1 ? 'NODE' : a === b ? 'X' : 'SYS'),
  classes: ['NODE', 'SYS'],
}
const NODE_NOTE = /^The '5–8 µs for same-socket NODE pairs' figure matches no published per-pair p2p latency/
const STAGED_NOTE =
  'Host-staged copies (no peer access) cost 10.3–24.8 µs per small copy in the published measurements, in VMs ' +
  'and on bare metal; peer access over PCIe brings it to 0.36–1.69 µs (sources: docs/REFERENCE.md).'

test('fits in order, link classes for cross-GPU pairs only, benches sorted, verdicts, notes, cells, warnings', () => {
  const bw = SIZES.slice(3).map((x) =>
    makeRow({
      bench: 'p2p.bw_uni',
      metric: 'bandwidth',
      unit: 'B/s',
      value: x / (13 * US + x / 25e9),
      sizeBytes: x,
      src: 0,
      dst: 1,
      p2p: 'disabled',
      source: { file: 'raw/b.txt', line: 1 },
    }),
  )
  const rows = [
    ...staged(2, 3, 14),
    ...native('2'),
    ...ar('4-7', 4),
    ...staged(0, 2, 13.5),
    ...ar('0-3', 16),
    ...staged(1, 1, 2),
    ...ar('0-3', 4),
    ...staged(0, 1, 13),
    ...bw,
    ...native('1'),
  ]
  const gpus = [{ index: 0, name: 'NVIDIA RTX PRO 6000 Blackwell Workstation Edition' }]
  const diagnostics: Diagnostic[] = [
    { file: 'raw/a.txt', line: 3, severity: 'warn', code: 'corrupt-line', message: 'line 3: bad' },
  ]
  const a = analyze(rows, { topology }, { host: { gpus }, simulated: true }, diagnostics)
  assert.deepEqual(
    a.fits.map((f) => [f.bench, f.src, f.dst, f.group, f.ranks, f.env?.X, f.linkClass]),
    [
      ['native.copy', undefined, undefined, undefined, undefined, '1', undefined],
      ['native.copy', undefined, undefined, undefined, undefined, '2', undefined],
      ['nccl.all_reduce', undefined, undefined, '0-3', 4, undefined, undefined],
      ['nccl.all_reduce', undefined, undefined, '0-3', 16, undefined, undefined],
      ['nccl.all_reduce', undefined, undefined, '4-7', 4, undefined, undefined],
      ['p2p.latency', 0, 1, undefined, undefined, undefined, 'NODE'],
      ['p2p.latency', 0, 2, undefined, undefined, undefined, 'SYS'],
      ['p2p.latency', 1, 1, undefined, undefined, undefined, undefined],
      ['p2p.latency', 2, 3, undefined, undefined, undefined, 'SYS'],
    ],
  )
  const [n1, , , , , p01] = a.fits
  close(p01?.alpha, 13 * US)
  close(p01?.beta ?? undefined, 25e9)
  assert.deepEqual(p01?.benches, ['p2p.bw_uni', 'p2p.latency'])
  assert.equal(p01?.mechanism.id, 'host-staged')
  assert.ok(p01?.bands.length && p01.cited.length && p01.betaBands.length)
  // The cite context reaches the verdict: what peer access would cost on this kind of machine.
  assert.match(
    p01?.verdict ?? '',
    /^GPU0→GPU1 p2p\.latency p2p=disabled: host-staged .*with peer access this kind of machine copies in /,
  )
  assert.deepEqual(
    [n1?.mechanism, n1?.evidence, n1?.cited, n1?.conflicts, n1?.bands, n1?.betaBands],
    [{ id: 'undetermined', text: 'no mechanism model for this bench' }, [], [], [], [], []],
  )
  assert.match(n1?.verdict ?? '', /^native\.copy: floor 5 µs .*; no published band for this bench$/)
  const floors = a.verdicts.filter((v) => v.kind === 'floor')
  assert.deepEqual(
    floors.map((v) => v.subject),
    [
      'native.copy',
      'native.copy',
      'nccl.all_reduce group 0-3 (4 ranks)',
      'nccl.all_reduce group 0-3 (16 ranks)',
      'nccl.all_reduce group 4-7 (4 ranks)',
      'GPU0→GPU1 p2p.latency p2p=disabled',
      'GPU0→GPU2 p2p.latency p2p=disabled',
      'GPU1→GPU1 p2p.latency p2p=disabled',
      'GPU2→GPU3 p2p.latency p2p=disabled',
    ],
  )
  a.fits.forEach((f, i) => {
    const v = floors[i]
    assert.ok(f.verdict.length > 0)
    assert.deepEqual(
      [v?.text, v?.mechanism, v?.evidence, v?.conflicts, v?.bands],
      [f.verdict, f.mechanism, f.evidence, f.conflicts, f.cited],
    )
  })
  // After the floors: the link-class lines, then the notes.
  assert.deepEqual(
    a.verdicts.slice(floors.length).map((v) => v.kind),
    ['class', 'class', 'note', 'note'],
  )
  assert.equal(a.notes.length, 2)
  assert.match(a.notes[0] ?? '', NODE_NOTE)
  assert.equal(a.notes[1], STAGED_NOTE)
  assert.deepEqual(
    a.verdicts.slice(-2),
    a.notes.map((text) => ({ subject: 'note', kind: 'note', text, bands: [] })),
  )
  assert.deepEqual(
    a.classes.map((c) => [c.linkClass, c.pairs]),
    [
      ['NODE', 1],
      ['SYS', 2],
    ],
  )
  assert.deepEqual([a.dir, a.id, a.simulated, a.warnings], ['sets/one', 'set-1', true, ['line 3: bad']])
  assert.deepEqual(a.topology, { source: 'raw/topo-m.txt', note: 'pairs aggregated by link class' })
  assert.equal('fleet' in a, false)
  // One cell per bench, series, size (and bw_uni's metric): 9 series × 5 sizes + 2 bw_uni sizes.
  assert.equal(a.cells.length, 47)
  const cell = a.cells.find(
    (c) => c.config.bench === 'native.copy' && c.config.env?.X === '1' && c.config.sizeBytes === 8,
  )
  assert.equal(cell?.n, 3)
  close(cell?.median, 5 * US + 8 / 10e9)
  assert.deepEqual(analyze(rows, { topology, cells: false }).cells, [])
})

test('the order: bench, then source GPU (groups first), destination and ranks as numbers, then the rest', () => {
  // In the input, the later of two fits is often the one to come first; ties the other way round.
  const nat = (over: Partial<Row>): Row[] => line(5, 10, { bench: 'native.copy', metric: 'time', ...over })
  const a = analyze([
    ...staged(0, 2, 13),
    ...staged(0, 10, 13),
    ...nat({ src: 0, dst: 3 }),
    ...nat({ src: 10, dst: 0 }),
    ...nat({ src: 2, dst: 0 }),
    ...nat({ group: '0-1', ranks: 2 }),
    ...nat({ group: '0-1', ranks: 16 }),
    ...nat({ group: '2-3', ranks: 2 }),
  ])
  assert.deepEqual(
    a.fits.map((f) => [f.bench, f.src ?? f.group, f.dst ?? f.ranks]),
    [
      ['native.copy', '0-1', 2],
      ['native.copy', '0-1', 16],
      ['native.copy', '2-3', 2],
      ['native.copy', 0, 3],
      ['native.copy', 2, 0],
      ['native.copy', 10, 0],
      ['p2p.latency', 0, 2],
      ['p2p.latency', 0, 10],
    ],
  )
})

test('the notes where they apply: NODE pairs or 4 GPUs without NVLink; host-staged floors; nothing to fit', () => {
  const four = [...staged(0, 1, 13), ...staged(2, 3, 13)]
  const plain = analyze(four)
  assert.equal(plain.notes.length, 2)
  assert.match(plain.notes[0] ?? '', NODE_NOTE)
  assert.deepEqual(plain.topology, { source: null, note: 'no topology capture: pairs aggregated as one class' })
  assert.deepEqual(analyze(four, { topologyNote: 'capture unreadable' }).topology, {
    source: null,
    note: 'capture unreadable',
  })
  // Three GPUs, no link class: only the host-staged note.
  assert.deepEqual(analyze([...staged(0, 1, 13), ...staged(1, 2, 13)]).notes, [STAGED_NOTE])
  // NVLink in the capture: no NODE note, though a pair is NODE.
  const nv = { ...topology, classes: ['NODE', 'NV12'] }
  assert.deepEqual(analyze(four, { topology: nv }).notes, [STAGED_NOTE])
  // Two GPUs whose pair is NODE; three GPUs and a group (not a GPU).
  const node = analyze(staged(0, 1, 13), { topology })
  assert.match(node.notes[0] ?? '', NODE_NOTE)
  assert.equal(node.notes.length, 2)
  assert.deepEqual(analyze([...staged(0, 1, 13), ...staged(1, 2, 13), ...ar('0-3', 4)]).notes, [STAGED_NOTE])
  // Only a floor slower than any published host-staged one: the host-staged note all the same.
  const slow = analyze(staged(0, 1, 40))
  assert.deepEqual([slow.fits[0]?.mechanism.id, slow.notes], ['host-staged-slow', [STAGED_NOTE]])
  // Same-GPU copies and groups are not pairs: no GPU count, no NODE note, no host-staged note.
  const same = [...staged(0, 0, 2), ...staged(1, 1, 2), ...staged(2, 2, 2), ...staged(3, 3, 2), ...ar('0-3', 4)]
  assert.deepEqual(analyze(same).notes, [])
  // P2P on, 1 µs, two GPUs: no note at all.
  assert.deepEqual(analyze(line(1, 25, { src: 0, dst: 1, p2p: 'enabled' })).notes, [])
  const busbw = makeRow({
    bench: 'nccl.all_reduce',
    metric: 'busbw',
    unit: 'B/s',
    value: 1e9,
    sizeBytes: 8,
    source: { file: 'raw/a.txt', line: 1 },
  })
  const none = analyze([busbw], {}, {}, [{ file: 'raw/a.txt', line: 2, severity: 'warn', code: 'x', message: 'first' }])
  assert.deepEqual(none.warnings, ['first', 'no time or latency rows with message sizes: nothing to fit'])
  assert.deepEqual([none.fits, none.verdicts, none.notes], [[], [], []])
  assert.deepEqual(analyze(four).warnings, [])
  // Times of 0 (one in a fitted series, two in a series of nothing else, dropped): all counted.
  const zeros = [0, 0, 0].map((value, i) => ({ ...(line(1, 25, {})[0] as Row), value, src: i < 1 ? 0 : 2, dst: 1 }))
  const withZeros = analyze([...line(1, 25, { src: 0, dst: 1 }), ...zeros])
  assert.deepEqual(withZeros.warnings, [
    '3 time value(s) ≤ 0 or not a number left out of the fits: not a measured time',
  ])
  assert.equal(withZeros.fits.length, 1)
})

test('two modes of host-staged floors: the slower pairs read host-staged-slow in their verdicts, the note after the others', () => {
  const rows = [...staged(0, 1, 12), ...staged(0, 2, 13), ...staged(1, 3, 30), ...staged(2, 3, 31)]
  const a = analyze(rows, { topology: { ...topology, linkClass: () => 'PHB', classes: ['PHB'] } })
  assert.deepEqual(
    a.fits.map((f) => f.mechanism.id),
    ['host-staged', 'host-staged', 'host-staged-slow', 'host-staged-slow'],
  )
  assert.match(
    a.fits[2]?.verdict ?? '',
    /^GPU1→GPU3 p2p\.latency p2p=disabled: host-staged copy, slower than any published/,
  )
  // Four GPUs on PCIe: the NODE note, the host-staged note, then the two groups.
  assert.equal(a.notes.length, 3)
  assert.equal(a.notes[1], STAGED_NOTE)
  assert.match(
    a.notes[2] ?? '',
    /^p2p\.latency host-staged floors fall in two groups: 2 pairs near 12\.5 µs and 2 near 30\.5 µs/,
  )
  assert.deepEqual(a.verdicts.at(-1), { subject: 'note', kind: 'note', text: a.notes[2], bands: [] })
})

test("a simulated set's time scale is passed on; an imported file that ran on two hosts makes a fleet, a sweep's does not", () => {
  const rows = line(5, 10, { src: 0, dst: 1 })
  assert.equal(analyze(rows, {}, { simulated: true, simScale: 2 }).simScale, 2)
  assert.ok(!('simScale' in analyze(rows)))
  const sources = [{ raw: 'raw/a.txt', format: 'nccl-tests', meta: { hosts: ['n1', 'n2'] } }] as never
  const imported = analyze(rows, {}, { sources })
  assert.deepEqual(imported.fleet?.nodes, ['n1', 'n2'])
  assert.deepEqual(
    imported.fleet?.launches?.map((l) => [l.source, l.bench, l.hosts]),
    [['raw/a.txt', 'p2p.latency', 2]],
  )
  // The same rows as IndexedRows (each row its own representative): the same launch.
  const ix = indexedRows(
    rows,
    Int32Array.from(rows.keys()),
    Float64Array.from(rows, (r) => r.value),
    rows.length,
  )
  assert.deepEqual(
    analyze(ix as unknown as Row[], { cells: false }, { sources }).fleet?.launches?.map((l) => [l.source, l.hosts]),
    [['raw/a.txt', 2]],
  )
  assert.ok(!('fleet' in analyze(rows, {}, { sources, origin: 'sweep' })))
  assert.ok(!('fleet' in analyze(rows, {}, { sources: [] })))
})
