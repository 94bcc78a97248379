/**
 * The topology join (src/analysis/_join.ts) on hand-made pair fits: which pairs make one link
 * class, its floor median and range, the mechanism most of them share, which GPU is slower than
 * the rest of its class, and the verdict lines a user reads.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { gpuOutliers, joinVerdicts, linkClasses } from '../../src/analysis/_join.ts'
import type { Fit, LinkClassSummary, Mechanism } from '../../src/analysis/index.ts'

const US = 1e-6
const PCIE: Mechanism = { id: 'p2p-pcie', text: 'P2P over PCIe' } as Mechanism
const STAGED: Mechanism = { id: 'host-staged', text: 'staged through host memory' } as Mechanism
/** A pair fit with only what the join reads. */
const fit = (src: number, dst: number, alpha: number, more: Partial<Fit> = {}): Fit =>
  ({ bench: 'p2p.latency', p2p: 'enabled', src, dst, alpha, mechanism: PCIE, ...more }) as Fit
const us = (s: number): string => `${Math.round(s / US)} µs`

test('link classes: pairs grouped by class, bench, P2P mode, copy, env; median, range and the common mechanism', () => {
  const fits = [
    fit(0, 1, 2 * US, { linkClass: 'NODE', mechanism: STAGED }),
    fit(0, 2, 1 * US, { linkClass: 'NODE' }),
    fit(1, 2, 5 * US, { linkClass: 'NODE' }),
    fit(0, 3, 9 * US, { linkClass: 'SYS' }),
    fit(0, 3, 8 * US, { linkClass: 'SYS', copy: 'sm' }),
    fit(0, 3, 7 * US, { linkClass: 'SYS', env: { NCCL_P2P_DISABLE: '1' } }),
    fit(0, 3, 6 * US, { linkClass: 'SYS', bench: 'p2p.bw_uni' }),
    fit(0, 3, 5 * US, { linkClass: 'SYS', p2p: 'disabled', staging: 'bounce' }),
    fit(0, 3, 4 * US, { linkClass: 'SYS', peerAccess: false }),
    fit(4, 5, 3 * US),
    fit(2, 2, 1, { linkClass: 'NODE' }),
    { ...fit(0, 0, 1), src: undefined, dst: undefined, group: '0-7' } as Fit,
  ]
  const c = linkClasses(fits)
  assert.deepEqual(
    c.map((x) => [x.linkClass, x.bench, x.p2p, x.pairs, x.medianAlpha / US, x.minAlpha / US, x.maxAlpha / US]),
    [
      ['NODE', 'p2p.latency', 'enabled', 3, 2, 1, 5],
      ['SYS', 'p2p.latency', 'enabled', 1, 9, 9, 9],
      ['SYS', 'p2p.latency', 'enabled', 1, 8, 8, 8],
      ['SYS', 'p2p.latency', 'enabled', 1, 7, 7, 7],
      ['SYS', 'p2p.bw_uni', 'enabled', 1, 6, 6, 6],
      ['SYS', 'p2p.latency', 'disabled', 1, 5, 5, 5],
      ['SYS', 'p2p.latency', 'enabled', 1, 4, 4, 4],
      ['all', 'p2p.latency', 'enabled', 1, 3, 3, 3],
    ],
  )
  // Two of the three NODE pairs over PCIe: that is the class's mechanism.
  assert.equal(c[0]?.mechanism, PCIE)
  assert.deepEqual(Object.keys(c[0] as object).sort(), [
    'bench',
    'linkClass',
    'maxAlpha',
    'mechanism',
    'medianAlpha',
    'minAlpha',
    'p2p',
    'pairs',
  ])
  assert.equal(c[2]?.copy, 'sm')
  assert.equal(c[5]?.staging, 'bounce')
  assert.equal(c[6]?.peerAccess, false)
  // Two settings of one variable are two groups.
  const envs = linkClasses([
    fit(0, 1, US, { env: { NCCL_ALGO: 'Ring' } }),
    fit(0, 1, 2 * US, { env: { NCCL_ALGO: 'Tree' } }),
  ])
  assert.deepEqual(
    envs.map((x) => x.medianAlpha / US),
    [1, 2],
  )
  // A tie: the first pair's mechanism.
  const tie = linkClasses([fit(0, 1, US, { mechanism: STAGED }), fit(0, 2, US), fit(1, 2, US, { mechanism: STAGED })])
  assert.equal(tie[0]?.mechanism, STAGED)
  assert.equal(linkClasses([fit(0, 1, US, { mechanism: STAGED }), fit(0, 2, US)])[0]?.mechanism, STAGED)
})

test('GPU outliers: a GPU whose pairs are 1.5× or more slower than the class pairs without it', () => {
  // GPU2's pairs 3 µs, the others 1 µs: 3.0× against the 3 pairs without GPU2.
  const nodes = [fit(0, 1, US), fit(0, 2, 3 * US), fit(0, 3, US), fit(1, 2, 3 * US), fit(1, 3, US), fit(2, 3, 3 * US)]
  const node = nodes.map((f) => ({ ...f, linkClass: 'NODE' }))
  assert.deepEqual(gpuOutliers(node), [{ gpu: 2, bench: 'p2p.latency', linkClass: 'NODE', ratio: 3, pairs: 3 }])
  assert.deepEqual(
    gpuOutliers(nodes).map((o) => o.linkClass),
    ['all'],
  )
  // Exactly 1.5×: an outlier; 1.4×: not.
  const at = (r: number) => gpuOutliers(nodes.map((f) => (f.alpha > US ? { ...f, alpha: r * US } : f)))
  assert.deepEqual(
    at(1.5).map((o) => [o.gpu, o.ratio]),
    [[2, 1.5]],
  )
  assert.deepEqual(at(1.4), [])
  // A class of 2 pairs is not judged; a GPU in every pair has no others to compare with.
  assert.deepEqual(gpuOutliers([fit(0, 1, US), fit(0, 2, 9 * US)]), [])
  const star = gpuOutliers([fit(0, 1, 9 * US), fit(0, 2, 9 * US), fit(0, 3, US)])
  // GPU1: 9 µs against the median of 9 and 1 µs, 1.8×; GPU0 is in every pair.
  assert.deepEqual(
    star.map((o) => [o.gpu, o.ratio.toFixed(6), o.pairs]),
    [
      [1, '1.800000', 1],
      [2, '1.800000', 1],
    ],
  )
  // Ordered by GPU within a class, whatever order the pairs came in.
  assert.deepEqual(
    gpuOutliers([fit(3, 5, 9 * US), fit(1, 5, 9 * US), fit(1, 3, US), fit(0, 1, US), fit(0, 3, US)]).map((o) => o.gpu),
    [5],
  )
  assert.deepEqual(
    gpuOutliers([fit(9, 10, 9 * US), fit(0, 1, 9 * US), fit(2, 3, US)]).map((o) => o.gpu),
    [0, 1, 9, 10],
  )
})

test('verdict lines: the class subject with its P2P mode, copy and peer access; the floor range; the outlier', () => {
  const c = (more: Partial<LinkClassSummary>): LinkClassSummary => ({
    linkClass: 'NODE',
    bench: 'p2p.latency',
    p2p: 'enabled',
    mechanism: PCIE,
    pairs: 3,
    medianAlpha: 2 * US,
    minAlpha: US,
    maxAlpha: 5 * US,
    ...more,
  })
  const v = joinVerdicts(
    [
      c({}),
      c({ copy: 'sm', peerAccess: false, linkClass: 'all', mechanism: undefined }),
      c({ p2p: 'disabled', staging: 'bounce', copy: 'ce', peerAccess: false }),
      c({ p2p: null, peerAccess: true }),
    ],
    [
      { gpu: 2, bench: 'p2p.latency', linkClass: 'NODE', ratio: 3, pairs: 3 },
      { gpu: 5, bench: 'p2p.bw_uni', linkClass: 'all', ratio: 1.54, pairs: 7 },
    ],
    us,
  )
  assert.deepEqual(
    v.map((x) => [x.kind, x.subject, x.text]),
    [
      ['class', 'p2p.latency p2p=enabled NODE pairs', '3 pairs, floor median 2 µs (range 1 µs – 5 µs): P2P over PCIe'],
      [
        'class',
        'p2p.latency p2p=enabled sm (no peer access) all pairs',
        '3 pairs, floor median 2 µs (range 1 µs – 5 µs)',
      ],
      ['class', 'p2p.latency p2p=bounce NODE pairs', '3 pairs, floor median 2 µs (range 1 µs – 5 µs): P2P over PCIe'],
      ['class', 'p2p.latency NODE pairs', '3 pairs, floor median 2 µs (range 1 µs – 5 µs): P2P over PCIe'],
      ['outlier', 'GPU2', "GPU2's pairs are 3.0× slower than their class (NODE) (3 pairs, p2p.latency)"],
      ['outlier', 'GPU5', "GPU5's pairs are 1.5× slower than the other pairs (7 pairs, p2p.bw_uni)"],
    ],
  )
  assert.equal(v[0]?.mechanism, PCIE)
  assert.equal('mechanism' in (v[1] as object), false)
  for (const x of v) assert.deepEqual(x.bands, [])
})
