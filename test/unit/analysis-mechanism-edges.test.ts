/**
 * judgePair of src/analysis/verdict/_mechanism.ts exactly at the edges where the tools' evidence meets
 * the published ranges (lines 115–160): a staged floor at the top of the host-staged range, the
 * two conflicts at their thresholds, and the range a slow host-staged floor is set beside. The
 * ranges written out (see analysis-mechanism.test.ts): P2P over PCIe 0.36–1.69 µs, host-staged
 * 10.27–24.8 µs, each widened by 10 %. An edge value is made from RANGES the way the code makes
 * it (high × 1.1, low × 0.9), so that it is the same double.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { judgePair, RANGES } from '../../src/analysis/index.ts'
import { slowCauses } from '../../src/analysis/verdict/_mechanism.ts'
import { context as ctx } from '../analysis/machine-context.ts'

const US = 1e-6
type PairFit = Parameters<typeof judgePair>[0]
const fit = (alpha: number, ci: [number, number], over: Partial<PairFit> = {}): PairFit => ({
  bench: 'p2p.latency',
  src: 0,
  dst: 1,
  p2p: null,
  alpha,
  alphaCi: ci,
  ...over,
})
const STAGED_TOP = RANGES['host-staged'].high * (1 + 0.1) // 27.28 µs
const STAGED_BOTTOM = RANGES['host-staged'].low * (1 - 0.1) // 9.243 µs
const PCIE_TOP = RANGES['p2p-pcie'].high * (1 + 0.1) // 1.859 µs
const can = { peerAccess: () => ({ value: true, source: 'p2p.txt:9' }) }
const staged = { p2p: 'disabled' as const }
const lastFact = (f: PairFit, c = ctx()) => judgePair(f, c).evidence.at(-1)?.fact

test('the written-out edges are the ones the code uses', () => {
  assert.equal(+(STAGED_TOP / US).toFixed(6), 27.28)
  assert.equal(+(STAGED_BOTTOM / US).toFixed(6), 9.243)
  assert.equal(+(PCIE_TOP / US).toFixed(6), 1.859)
})

test('P2P disabled: host-staged up to the widened top, slow above it, each set beside the host-staged range', () => {
  assert.equal(judgePair(fit(STAGED_TOP, [STAGED_TOP, STAGED_TOP], staged), ctx()).mechanism.id, 'host-staged')
  const slow = fit(40 * US, [39 * US, 41 * US], staged)
  assert.equal(judgePair(slow, ctx()).mechanism.id, 'host-staged-slow')
  assert.equal(lastFact(slow), 'floor 40 µs [39 µs, 41 µs]; published host-staged copies 10.27 µs–24.8 µs ± 10 %')
  // The same from the value alone, and with the tool's CANNOT.
  assert.equal(
    lastFact(fit(30 * US, [29 * US, 31 * US])),
    'floor 30 µs [29 µs, 31 µs]; published host-staged copies 10.27 µs–24.8 µs ± 10 %',
  )
  assert.equal(
    lastFact(fit(30 * US, [29 * US, 31 * US], { peerAccess: false })),
    'floor 30 µs [29 µs, 31 µs]; published host-staged copies 10.27 µs–24.8 µs ± 10 %',
  )
  assert.equal(
    lastFact(fit(1 * US, [0.9 * US, 1.1 * US], { peerAccess: true })),
    'floor 1 µs [900 ns, 1.1 µs]; published P2P copies 360 ns–1.69 µs ± 10 %',
  )
})

test('"no peer access, but fast": only when the whole CI lies under the host-staged range', () => {
  const at = fit(9 * US, [8.9 * US, STAGED_BOTTOM], staged)
  assert.deepEqual(judgePair(at, ctx()).conflicts, [], 'CI reaching the widened bottom')
  const under = judgePair(fit(9 * US, [8.9 * US, 9.2 * US], staged), ctx()).conflicts
  assert.equal(under.length, 1)
  // Exactly at the top of the widened PCIe range a floor is still "as P2P copies do".
  const p2pLike = judgePair(fit(PCIE_TOP, [1.8 * US, PCIE_TOP], staged), ctx()).conflicts[0]?.text ?? ''
  assert.match(p2pLike, /^no peer access, but copies cost 1\.859 µs, as P2P copies do \(host-staged/)
  const above = judgePair(fit(1.9 * US, [1.8 * US, 2 * US], staged), ctx()).conflicts[0]?.text ?? ''
  assert.match(above, /^no peer access, but copies cost 1\.9 µs, less than any published host-staged copy/)
})

test('"peer access, but slow": only when the whole CI lies over the P2P range; host-staged from its bottom', () => {
  assert.deepEqual(judgePair(fit(2 * US, [PCIE_TOP, 2.1 * US]), ctx(can)).conflicts, [], 'CI reaching the top')
  assert.equal(judgePair(fit(2 * US, [1.86 * US, 2.1 * US]), ctx(can)).conflicts.length, 1)
  const atStaged = judgePair(fit(STAGED_BOTTOM, [9 * US, 9.5 * US]), ctx(can)).conflicts[0]?.text ?? ''
  assert.match(atStaged, /^peer access reported, but copies cost 9\.243 µs, as host-staged copies do: check ACS/)
  const below = judgePair(fit(9.2 * US, [9 * US, 9.5 * US]), ctx(can)).conflicts[0]?.text ?? ''
  assert.match(below, /^peer access reported, but copies cost 9\.2 µs, more than any published P2P copy \(360 ns/)
})

test('slowCauses names the driver overhead only when the same-GPU copies are slow too', () => {
  assert.deepEqual(slowCauses({}), [
    'contention (other copies or traffic through the host bridge or host memory at the same time)',
  ])
  assert.deepEqual(slowCauses({ linkClass: 'SYS', oneGpu: 3 }), [
    'cross-socket staging (the pair is SYS)',
    "GPU3's own path (every slow pair involves it: slot, link width, its root port)",
    'contention (other copies or traffic through the host bridge or host memory at the same time)',
  ])
})
