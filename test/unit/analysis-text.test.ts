/**
 * The human text of `analyze` and `compare` (src/analysis/_text.ts) on a hand-made analysis and
 * comparison: the heading (SIMULATED first), the fits table (subject, mechanism, link, α and its
 * CI with open ends, β, segments, bands; - for unknowns), the verdicts with alike pairs folded
 * ("and N more alike"), the link-class and outlier lines, the fleet part, notes and warnings;
 * compare's table per bench, conclusions, the decode model (plans, the p2p floor's two
 * readings, notes) and warnings. The tables' column widths are written out (two spaces apart).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { fewLaunchesNote, renderAnalysis, renderComparison } from '../../src/analysis/_text.ts'
import type { Analysis, Fit, Verdict } from '../../src/analysis/_types.ts'
import type { Fleet } from '../../src/analysis/fleet/_fleet.ts'
import { comparison, DECODE, decode } from '../analysis/compare-made.ts'

const US = 1e-6
const pair = (src: number, dst: number, over: Partial<Fit> = {}): Fit =>
  ({
    bench: 'p2p.latency',
    src,
    dst,
    p2p: 'enabled',
    linkClass: 'NODE',
    mechanism: { id: 'p2p-pcie', text: 'P2P over PCIe' },
    alpha: 2 * US,
    alphaCi: [1.9 * US, 2.1 * US],
    beta: 25e9,
    segments: [{}, {}],
    bands: ['a', 'b'],
    conflicts: [],
    verdict: `GPU${src}→GPU${dst}: within a`,
    ...over,
  }) as unknown as Fit
const group = (env: Record<string, string>, verdict: string): Fit =>
  ({
    bench: 'nccl.all_reduce',
    group: '0-7',
    ranks: 8,
    grouping: 'tp8',
    env,
    mechanism: { id: 'nccl-p2p', text: 'NCCL P2P' },
    alpha: 20 * US,
    alphaCi: [18 * US, 22 * US],
    beta: null,
    segments: [],
    bands: [],
    conflicts: [],
    verdict,
  }) as unknown as Fit
const verdict = (kind: Verdict['kind'], subject: string, text: string): Verdict => ({ kind, subject, text, bands: [] })

const analysis = (over: Partial<Analysis> = {}): Analysis => ({
  dir: 'sets/b',
  id: 'set-b',
  simulated: true,
  fits: [
    pair(0, 1),
    pair(1, 0),
    pair(0, 0, { verdict: 'GPU0→GPU0: same GPU' }),
    pair(2, 3, {
      p2p: 'disabled',
      peerAccess: false,
      linkClass: undefined,
      mechanism: { id: 'host-staged', text: 'staged' },
      alpha: 8 * US,
      alphaCi: [7 * US, 9 * US],
      beta: null,
      segments: [{} as Fit['segments'][number]],
      bands: [],
      verdict: 'GPU2→GPU3: staged',
    }),
    group({ NCCL_PROTO: 'LL' }, 'tp8 LL: v1'),
    group({ NCCL_PROTO: 'Simple' }, 'tp8 Simple: v2'),
    group({ NCCL_PROTO: 'LL' }, 'tp8 LL again'),
  ],
  cells: [],
  verdicts: [
    verdict('floor', 'GPU0→GPU1', 'not listed'),
    verdict('class', 'NODE pairs', 'median α 2 µs'),
    verdict('note', 'n', 'not listed either'),
    verdict('outlier', 'GPU 3', '1.9× its class'),
  ],
  classes: [],
  outliers: [],
  topology: { source: null, note: 'from topo.txt' },
  notes: ['note one', 'note two'],
  warnings: ['warning one'],
  ...over,
})

test('analyze text: heading, fits table, folded verdicts, classes and outliers, notes, warnings', () => {
  assert.equal(
    renderAnalysis(analysis()),
    [
      'SIMULATED analysis of result set set-b (sets/b)',
      '',
      'α–β fits (time = α + size/β; α 95% bootstrap CI; topology: from topo.txt)',
      'subject                                              mechanism    link  α (floor)  α CI              β        segs  bands',
      '---------------------------------------------------  -----------  ----  ---------  ----------------  -------  ----  -----',
      'GPU0→GPU1 p2p.latency p2p=enabled                    p2p-pcie     NODE  2 µs       [1.9 µs, 2.1 µs]  25 GB/s  2     a b',
      'GPU1→GPU0 p2p.latency p2p=enabled                    p2p-pcie     NODE  2 µs       [1.9 µs, 2.1 µs]  25 GB/s  2     a b',
      'GPU0→GPU0 p2p.latency p2p=enabled                    p2p-pcie     NODE  2 µs       [1.9 µs, 2.1 µs]  25 GB/s  2     a b',
      'GPU2→GPU3 p2p.latency p2p=disabled (no peer access)  host-staged  -     8 µs       [7 µs, 9 µs]      -        1     -',
      'nccl.all_reduce group 0-7 (8 ranks) tp8              nccl-p2p     -     20 µs      [18 µs, 22 µs]    -        0     -',
      'nccl.all_reduce group 0-7 (8 ranks) tp8              nccl-p2p     -     20 µs      [18 µs, 22 µs]    -        0     -',
      'nccl.all_reduce group 0-7 (8 ranks) tp8              nccl-p2p     -     20 µs      [18 µs, 22 µs]    -        0     -',
      '',
      'Verdicts',
      '- GPU0→GPU1: within a (and 1 more alike)',
      '- GPU0→GPU0: same GPU',
      '- GPU2→GPU3: staged',
      '- tp8 LL: v1 (and 1 more alike)',
      '- tp8 Simple: v2',
      '',
      'By link class',
      '- NODE pairs: median α 2 µs',
      '- GPU 3: 1.9× its class',
      '',
      'Notes',
      '- note one',
      '- note two',
      '',
      'Warnings',
      '- warning one',
      '',
    ].join('\n'),
  )
})

test('analyze text: bare metal, no classes, notes or warnings; a fleet with and without scaling', () => {
  const plain = renderAnalysis(analysis({ simulated: false, fits: [], verdicts: [], notes: [], warnings: [] }))
  assert.equal(
    plain,
    'analysis of result set set-b (sets/b)\n\nα–β fits (time = α + size/β; α 95% bootstrap CI; topology: from topo.txt)\n' +
      'subject  mechanism  link  α (floor)  α CI  β  segs  bands\n' +
      '-------  ---------  ----  ---------  ----  -  ----  -----\n\nVerdicts\n\n',
  )
  const fleet: Fleet = {
    nodes: ['n01', 'n02', 'n03'],
    outliers: [],
    pairs: [{ hosts: ['n01', 'n02'], busbwBps: 1e9 }],
    scaling: [],
    notes: ['fleet note'],
  }
  const fleetPart =
    '\nFleet: 3 nodes (n01…n03), 1 node pairs measured (node × node bandwidth: gpucomm plot DIR --kind node-heatmap)\n' +
    'Outliers\n- no node or link is an outlier: every one within the fleet (median, MAD, Mann-Whitney as diff)\n'
  const none = renderAnalysis(analysis({ fits: [], verdicts: [], fleet }))
  assert.ok(none.includes(`\nVerdicts\n\n${fleetPart}- fleet note\n\nNotes\n- note one\n`), none)
  const scaling = [
    {
      nodes: 2,
      gpusPerNode: 8,
      busbwBps: 4e10,
      latencyS: 3e-5,
      sizeBytes: 1 << 30,
      vsModel: 0.8,
      model: { busbwBps: 5e10, ringS: 2.5e-5, treeS: 2e-5, algorithm: 'tree' as const, latencyS: 2e-5 },
      gap: { busbw: -0.2, ring: 0.2, tree: 0.5, latency: 0.5 },
    },
  ]
  const scaled = renderAnalysis(analysis({ fits: [], verdicts: [], fleet: { ...fleet, scaling } }))
  assert.ok(
    scaled.includes(`${fleetPart}\nScaling: all_reduce against NCCL's model (gap = measured / model − 1)\nnodes  `),
    scaled,
  )
  assert.ok(scaled.includes('\n2 × 8 GPUs  40 GB/s'), scaled)
})

test('compare text: heading and note, the table per bench, conclusions, decode model, warnings', () => {
  assert.equal(
    renderComparison(comparison({ decode: decode(true) })),
    [
      'comparison by grouping of result set set-a (sets/a)',
      "tp4: concurrent groups, one value per trial, the slowest group's (a step waits for the slowest group; --pool pools them instead)",
      '',
      'nccl.all_reduce (time per call; median [95% CI])',
      'size   tp4                      tp8                     ratio  winner  p',
      '-----  -----------------------  ----------------------  -----  ------  ------',
      '8 B    10 µs [9 µs, 11 µs] n=6  16 µs [-∞, ∞] n=3       1.60×  tp4     0.0022',
      '1 MiB  -                        2.5 ms [2.4 ms, ∞] n=3  -      -       -',
      '',
      'tp4 is 1.60 ± 0.02× faster than tp8 at 8 B (latency-bound)',
      ...DECODE,
      '',
      'From the p2p floor α = 2 µs (one reading; docs/REFERENCE.md, decode model):',
      '- per-hop: 2(n−1)·α: TP8 28 µs → 4.48 ms/step, 223 tok/s; TP4 12 µs → 1.92 ms/step, 521 tok/s',
      '- the data supports: per-hop (the measured all-reduce is nearer)',
      '- decode note',
      '',
      'Warnings',
      '- nccl.all_gather: only tp8 measured; nothing to compare it with',
      '',
    ].join('\n'),
  )
})

test('compare text: SIMULATED, no note, no conclusions, decode without readings, no warnings', () => {
  const c = comparison({ simulated: true, decode: decode(false), warnings: [], pool: false })
  const b = c.benches[0]!
  b.conclusions = []
  b.sizes = [b.sizes[1]!]
  b.groupings = ['tp8']
  assert.equal(
    renderComparison(c),
    [
      'SIMULATED comparison by grouping of result set set-a (sets/a)',
      '',
      'nccl.all_reduce (time per call; median [95% CI])',
      'size   tp8                     ratio  winner  p',
      '-----  ----------------------  -----  ------  -',
      '1 MiB  2.5 ms [2.4 ms, ∞] n=3  -      -       -',
      ...DECODE,
      '- decode note',
      '',
    ].join('\n'),
  ) // Without a decode model the text ends with the bench.
  c.decode = null
  assert.ok(renderComparison(c).endsWith('\n1 MiB  2.5 ms [2.4 ms, ∞] n=3  -      -       -\n'))
})

test('the few-launches note names each launch count from 2 to 5 once, in order; none from 6 on, 1 or 0', () => {
  const fits: Pick<Fit, 'launches'>[] = [5, 2, 5, 6, 1, 0, 3, 12].map((launches) => ({ launches }))
  assert.match(fewLaunchesNote(fits) ?? '', /^α CI from 2, 3, 5 launches is approximate: .* 6 or more launches/)
  assert.match(fewLaunchesNote([{ launches: 10 }, { launches: 2 }]) ?? '', /^α CI from 2 launches /)
  const none: Pick<Fit, 'launches'>[][] = [[], [{ launches: 6 }, { launches: 1 }, { launches: 0 }]]
  for (const fits of none) assert.equal(fewLaunchesNote(fits), null)
})

test('analyze text: a point α CI says why there is no interval; groups fold by group, not as pairs; launch lines of a fleet', () => {
  const point = pair(0, 1, { alphaCi: [2 * US, 2 * US] })
  const one = pair(0, 2, { alphaCi: [2 * US, 2 * US], launches: 1 } as Partial<Fit>)
  const text = renderAnalysis(analysis({ fits: [point, one], verdicts: [] }))
  assert.match(text, /\nGPU0→GPU1 .* 2 µs +\(no interval\) /)
  assert.match(text, /\nGPU0→GPU2 .* 2 µs +\(one launch: no interval\) /)
  // Two groups alike in all but their GPUs: two verdict lines, not one "and 1 more alike".
  const g4 = { ...group({}, 'tp4 group 0-3: within x'), group: '0-3', ranks: 4, grouping: 'tp4' } as Fit
  const groups = renderAnalysis(analysis({ fits: [group({}, 'tp8 group 0-7: within x'), g4], verdicts: [] }))
  assert.ok(groups.includes('- tp8 group 0-7: within x\n- tp4 group 0-3: within x\n'), groups)
  const launches = [
    {
      source: 'raw/a.txt',
      bench: 'nccl.all_reduce',
      ranks: 16,
      hosts: 2,
      named: ['n01', 'n02'],
      hostsFrom: 'x',
      busbwBps: 4e10,
      latencyS: 3e-5,
    },
  ]
  const fleet: Fleet = { nodes: ['n01', 'n02'], outliers: [], pairs: [], scaling: [], notes: [], launches }
  assert.match(
    renderAnalysis(analysis({ fits: [], verdicts: [], fleet })),
    /\n- nccl\.all_reduce, 16 ranks over 2 hosts: busbw 40 GB\/s at the largest sizes, time 30 µs at the smallest\n/,
  )
})

test('compare text: the decode model from two p2p floor readings says so', () => {
  const c = comparison({ decode: decode(true) })
  const r = c.decode?.p2pReadings
  assert.ok(r?.readings[0])
  r.readings.push({ ...r.readings[0], reading: 'whole-transfer' })
  assert.match(renderComparison(c), /From the p2p floor α = 2 µs \(two readings; /)
})
