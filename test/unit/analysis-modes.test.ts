/**
 * Two groups of host-staged floors (src/analysis/fit/_modes.ts) on hand-made pair fits: where the
 * floors split (the largest gap, MODE_GAP× or more, two floors or more on each side), which
 * fits become host-staged-slow and why (cross-socket when exactly the slow pairs are SYS, one
 * GPU's path when every slow pair involves it, per-copy driver overhead when same-GPU copies
 * are slow, else contention), the evidence and the note a user reads. Expected words written out.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { refineHostStaged } from '../../src/analysis/fit/_modes.ts'
import type { Fit, MechanismId } from '../../src/analysis/index.ts'

const US = 1e-6
const fit = (src: number | undefined, dst: number | undefined, alphaUs: number, more: Partial<Fit> = {}): Fit =>
  ({
    bench: 'p2p.latency',
    p2p: 'disabled',
    src,
    dst,
    alpha: alphaUs * US,
    mechanism: { id: 'host-staged', text: 'host-staged' },
    evidence: [],
    ...more,
  }) as Fit
const id = (m: MechanismId): Partial<Fit> => ({ mechanism: { id: m, text: m } })
const SYS = 'cross-socket staging (the pair is SYS)'
const CONTENTION = 'contention (other copies or traffic through the host bridge or host memory at the same time)'
const WDDM = 'per-copy driver overhead such as the WDDM driver model on Windows (the same-GPU copies are slow too)'
const gpu = (n: number): string => `GPU${n}'s own path (every slow pair involves it: slot, link width, its root port)`
/** The fits' mechanism ids (s: host-staged, S: host-staged-slow) and causes. */
const ids = (fits: Fit[]): string =>
  fits.map((f) => ({ 'host-staged': 's', 'host-staged-slow': 'S' })[f.mechanism.id as string] ?? '?').join('')

test('two groups: the slower pairs become host-staged-slow (SYS, one GPU), with the evidence and the note', () => {
  const fits = [
    fit(0, 1, 13, { linkClass: 'NODE' }),
    fit(0, 3, 32, { linkClass: 'SYS' }),
    fit(0, 2, 12, { linkClass: 'NODE' }),
    fit(1, 3, 30, { linkClass: 'sys' }),
    fit(1, 2, 14, { linkClass: 'PHB' }),
    fit(2, 2, 3.6, id('same-gpu')), // within the same-GPU band's tolerance: not slow
    fit(3, 3, 0, { ...id('same-gpu'), alpha: 3.63e-6 }), // 3.3 µs + 10 % exactly: not slow
    fit(undefined, undefined, 50, id('undetermined')), // a group: not a same-GPU copy
  ]
  const notes = refineHostStaged(fits)
  assert.equal(ids(fits), 'sSsSs???')
  for (const f of [fits[1], fits[3]] as Fit[]) {
    assert.deepEqual(f.mechanism.causes, [SYS, gpu(3), CONTENTION])
    assert.deepEqual(f.evidence, [
      {
        strength: 3,
        fact: 'the slower of two groups of host-staged floors: 2 pairs near 31 µs, 3 near 13 µs (2.4×)',
        source: 'this set',
      },
    ])
  }
  assert.equal(fits[1]?.mechanism.linkClass, 'SYS')
  assert.match(fits[1]?.mechanism.text ?? '', /^host-staged copy, slower than .*\(likely: cross-socket staging/)
  assert.deepEqual(fits[0]?.evidence, [])
  assert.deepEqual(notes, [
    'p2p.latency host-staged floors fall in two groups: 3 pairs near 13 µs and 2 near 31 µs (2.4×). ' +
      `Both are host-staged; the slower group most likely: ${SYS}.`,
  ])
})

test('why the slow group is slow: SYS only when no fast pair is SYS, one GPU in either place, slow same-GPU copies', () => {
  // A fast pair is SYS too: not cross-socket; GPU 3 is the source of both slow pairs.
  const a = [
    fit(0, 1, 10, { linkClass: 'SYS' }),
    fit(0, 2, 11),
    fit(3, 1, 20, { linkClass: 'SYS' }),
    fit(3, 2, 21, { linkClass: 'SYS' }),
  ]
  refineHostStaged(a)
  assert.deepEqual(a[2]?.mechanism.causes, [gpu(3), CONTENTION])
  assert.equal(a[2]?.mechanism.linkClass, 'SYS')
  // Not every slow pair is SYS (the other has a class), no GPU in common; a same-GPU copy above 3.3 µs + 10 %.
  const b = [
    fit(0, 1, 10),
    fit(2, 3, 10.5),
    fit(0, 3, 20, { linkClass: 'SYS' }),
    fit(1, 2, 21, { linkClass: 'NODE' }),
    fit(4, 4, 3.7, id('same-gpu')),
  ]
  const notes = refineHostStaged(b)
  assert.equal(ids(b), 'ssSS?')
  assert.deepEqual(b[2]?.mechanism.causes, [WDDM, CONTENTION])
  assert.deepEqual(b[3]?.mechanism.causes, [WDDM, CONTENTION])
  assert.equal(
    b[3]?.evidence[0]?.fact,
    'the slower of two groups of host-staged floors: 2 pairs near 20.5 µs, 2 near 10.25 µs (2.0×)',
  )
  assert.match(
    notes[0] ?? '',
    /2 pairs near 10\.25 µs and 2 near 20\.5 µs \(2\.0×\)\. .* most likely: per-copy driver overhead/,
  )
  // Slow pairs without a link class: not SYS.
  const c = [fit(0, 1, 10), fit(0, 2, 10), fit(1, 3, 30), fit(2, 3, 30)]
  refineHostStaged(c)
  assert.deepEqual(c[3]?.mechanism.causes, [gpu(3), CONTENTION])
})

test('where the floors split: the largest gap, at MODE_GAP exactly, two floors or more on each side', () => {
  const split = (...alphas: number[]): string => {
    const fits = alphas.map((a, i) => fit(i, i + 1, a))
    refineHostStaged(fits)
    return ids(fits)
  }
  assert.equal(split(30, 29, 39, 40), 'ssSS') // 39 / 30 = 1.3 exactly
  assert.equal(split(30, 29, 37.5, 40), 'ssss') // 1.25
  assert.equal(split(10, 20, 21), 'sss') // one fast floor
  assert.equal(split(10, 11, 30), 'sss') // one slow floor
  assert.equal(split(10, 11, 30, 31), 'ssSS')
  assert.equal(split(10, 11, 12, 30, 31), 'sssSS')
  assert.equal(split(10, 11, 22, 44, 45), 'ssSSS') // two gaps of 2×: the first
  assert.equal(split(10, 11, 50, 12, 30, 31), 'ssSsSS') // the largest gap, not the first above 1.3
})

test('groups by bench, P2P mode and env; only cross-GPU host-staged pairs; lone host-staged-slow fits get causes', () => {
  const fits = [
    fit(0, 1, 10, { env: { NCCL_P2P_DISABLE: '1' } }),
    fit(0, 2, 10, { env: { NCCL_P2P_DISABLE: '1' } }),
    fit(0, 3, 30),
    fit(1, 3, 30),
    fit(1, 2, 10, { p2p: 'enabled' }),
    fit(2, 3, 10, { p2p: 'enabled' }),
    fit(0, 1, 30, { bench: 'p2p.bw_uni', p2p: 'enabled' }),
    fit(0, 2, 30, { bench: 'p2p.bw_uni', p2p: 'enabled' }),
    fit(1, 1, 10),
    fit(2, 2, 10),
    fit(0, 1, 1, id('p2p-pcie')),
    fit(0, 2, 1, id('p2p-pcie')),
  ]
  assert.deepEqual(refineHostStaged(fits), [])
  assert.equal(ids(fits), 'ssssssssss??')
  const envs = [
    fit(0, 1, 10, { env: { NCCL_ALGO: 'Ring' } }),
    fit(0, 2, 10, { env: { NCCL_ALGO: 'Ring' } }),
    fit(1, 3, 30, { env: { NCCL_ALGO: 'Tree' } }),
    fit(2, 3, 30, { env: { NCCL_ALGO: 'Tree' } }),
  ]
  assert.deepEqual(refineHostStaged(envs), [])
  const lone = [
    fit(0, 1, 40, { ...id('host-staged-slow'), linkClass: 'SYS' }),
    fit(0, 2, 40, id('host-staged-slow')),
    fit(0, 3, 40, { mechanism: { id: 'host-staged-slow', text: 'kept', causes: ['given'] } }),
    fit(3, 3, 3, id('host-staged-slow')), // same GPU: not a pair
  ]
  assert.deepEqual(refineHostStaged(lone), [])
  assert.deepEqual(
    lone.map((f) => f.mechanism.causes),
    [[SYS, CONTENTION], [CONTENTION], ['given'], undefined],
  )
  assert.equal(lone[2]?.mechanism.text, 'kept')
  const slowSame = [fit(0, 1, 40, id('host-staged-slow')), fit(5, 5, 3.7, id('same-gpu'))]
  refineHostStaged(slowSame)
  assert.deepEqual(slowSame[0]?.mechanism.causes, [WDDM, CONTENTION])
})
