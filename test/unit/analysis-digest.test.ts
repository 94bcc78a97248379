/**
 * The analysis answered first (src/analysis/_digest.ts) on hand-made fits: 6 NODE and 6 SYS
 * pairs with P2P, the same 12 pairs with P2P disabled (host-staged), 4 GPUs to themselves, two
 * TP4 groups and one TP8 group. The answer says what small copies between GPUs cost and why
 * (P2P as asked first), one sentence per collective; the table has one row per kind of pair,
 * link class and mechanism; every fit is left to --all.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Analysis, Fit } from '../../src/analysis/_types.ts'
import { analysisAnswer, analysisAnswerText, groupFits } from '../../src/analysis/index.ts'

const US = 1e-6
const NODE = [
  [0, 1],
  [1, 0],
  [2, 3],
  [3, 2],
  [0, 2],
  [2, 0],
]
const SYS = [
  [0, 4],
  [4, 0],
  [1, 5],
  [5, 1],
  [2, 6],
  [6, 2],
]

const fit = (over: Partial<Fit>): Fit =>
  ({
    bench: 'p2p.latency',
    p2p: 'enabled',
    copy: 'ce',
    mechanism: { id: 'p2p-pcie', text: 'P2P over PCIe' },
    alpha: 0.4 * US,
    alphaCi: [0.39 * US, 0.41 * US],
    beta: 55e9,
    segments: [{}],
    bands: ['p2p-on'],
    conflicts: [],
    verdict: 'v',
    ...over,
  }) as unknown as Fit

function fits(): Fit[] {
  const out: Fit[] = []
  for (const [cls, pairs, alpha] of [
    ['NODE', NODE, 0.4],
    ['SYS', SYS, 0.48],
  ] as const)
    for (const [src = 0, dst = 0] of pairs) {
      const mechanism = { id: 'p2p-pcie' as const, text: `P2P over PCIe (${cls})` }
      out.push(fit({ src, dst, linkClass: cls, mechanism, alpha: (alpha + (src % 2) / 1000) * US }))
      out.push(
        fit({
          src,
          dst,
          linkClass: cls,
          p2p: 'disabled',
          peerAccess: false,
          mechanism: { id: 'host-staged' as const, text: 'host-staged copy through pinned host memory' },
          alpha: 13.6 * US + (src % 2) * 0.3 * US,
          bands: ['p2p-off'],
        }),
      )
    }
  for (const g of [0, 1, 2, 3])
    out.push(fit({ src: g, dst: g, mechanism: { id: 'same-gpu' as const, text: 'same GPU' } }))
  const nccl: Partial<Fit> = {
    bench: 'nccl.all_reduce',
    p2p: null,
    copy: undefined,
    mechanism: { id: 'nccl-shm', text: 'NCCL over SHM' },
  }
  out.push(fit({ ...nccl, group: '0-3', ranks: 4, grouping: 'tp4', alpha: 14 * US }))
  out.push(fit({ ...nccl, group: '4-7', ranks: 4, grouping: 'tp4', alpha: 14.2 * US }))
  out.push(fit({ ...nccl, group: '0-7', ranks: 8, grouping: 'tp8', alpha: 24 * US }))
  return out
}

const analysis = (f: Fit[]): Analysis => ({
  dir: 'sets/bm',
  id: 'set-bm',
  simulated: true,
  fits: f,
  cells: [],
  verdicts: [],
  classes: [],
  outliers: [],
  topology: { source: null, note: 'pairs aggregated by link class' },
  notes: ['a note'],
  warnings: [],
})

test('fits are grouped by kind of pair, link class and mechanism, or by grouping', () => {
  assert.deepEqual(
    groupFits(fits()).map((g) => [g.subject, g.who, g.fits.length]),
    [
      ['p2p.latency p2p=enabled ce', '6 NODE pairs', 6],
      ['p2p.latency p2p=disabled (no peer access) ce', '6 NODE pairs', 6],
      ['p2p.latency p2p=enabled ce', '6 SYS pairs', 6],
      ['p2p.latency p2p=disabled (no peer access) ce', '6 SYS pairs', 6],
      ['p2p.latency p2p=enabled ce', '4 GPUs to itself', 4],
      ['nccl.all_reduce', 'tp4: 2 groups of 4 ranks', 2],
      ['nccl.all_reduce', 'tp8: 1 group of 8 ranks', 1],
    ],
  )
})

test('the answer: copies between GPUs as asked (P2P on) per class, then each collective', () => {
  const a = analysisAnswer(analysis(fits()))
  assert.deepEqual(a.answer, [
    'Small copies between GPUs (p2p.latency p2p=enabled): P2P over PCIe (NODE): floor 400–401 ns over 6 NODE pairs; ' +
      'P2P over PCIe (SYS): floor 480–481 ns over 6 SYS pairs.',
    'nccl.all_reduce: NCCL over SHM; floor tp4 14–14.2 µs, tp8 24 µs.',
  ])
  assert.deepEqual(a.table?.rows[0], [
    'p2p.latency p2p=enabled ce',
    '6 NODE pairs',
    'p2p-pcie',
    'NODE',
    '400–401 ns',
    '55 GB/s',
    'p2p-on',
  ])
  // Without P2P-on pairs the answer is what the set has: host-staged.
  const off = analysisAnswer(analysis(fits().filter((f) => f.p2p !== 'enabled' || f.src === f.dst)))
  assert.match(
    off.answer[0] as string,
    /^Small copies between GPUs \(p2p\.latency p2p=disabled, no peer access\): host-staged copy through pinned host memory: floor 13\.6–13\.9 µs over 6 NODE pairs, 6 SYS pairs\.$/,
  )
})

test('the text: heading, question and answer first, verdict sections after the table; every fit only with --all', () => {
  const t = analysisAnswerText(analysis(fits()))
  const lines = t.split('\n')
  assert.equal(lines[0], 'SIMULATED analysis of result set set-bm (sets/bm)')
  assert.equal(lines[1], 'What sets the cost of moving data between these GPUs, and why?')
  assert.match(t, /\nNotes\n- a note\n/)
  assert.match(
    t,
    /\nLeft out:\n- 31 fits one by one, with α's bootstrap CI and segments \(--all; --json has every fit and cell\)\n$/,
  )
  assert.doesNotMatch(t, /Every fit:/)
  const all = analysisAnswerText(analysis(fits()), true)
  assert.match(all, /\nEvery fit:\n\nα–β fits [^\n]*\nsubject /)
  assert.equal(all.match(/\nNotes\n/g)?.length, 1, 'the verdict sections once')
})
