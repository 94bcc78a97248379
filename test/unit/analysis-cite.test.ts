/**
 * Which bands a verdict cites (src/analysis/verdict/_cite.ts) on hand-made bands, fits and contexts:
 * link classes on the bands' scale, the hard conditions (VM, NVLink, group size, NCCL
 * transport) and the soft ones (GPU family, bare metal, link classes, attach, launch, env,
 * channels) in words, the distance of a value or interval from a band, inside / within
 * tolerance (±10 % of the edge, or the CI reaching the band) / outside, the fitted time at a
 * size, one cited band (the floor, or the fitted times over the band's sizes where measured),
 * and citeFor's list: matches, the nearest other band when no match is near, references.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Band, CitedBand, Fit } from '../../src/analysis/_types.ts'
import type { CiteContext } from '../../src/analysis/verdict/_cite.ts'
import {
  bandDistance,
  citeBand,
  citeFor,
  fittedTime,
  hardUnmet,
  linkKey,
  positionOf,
  softUnmet,
} from '../../src/analysis/verdict/_cite.ts'

const US = 1e-6
const band = (over: Partial<Band>): Band => ({
  id: 'b',
  label: 'B',
  kind: 'p2p-on',
  metric: 'p2p-latency',
  path: 'PCIe',
  p2p: 'on',
  vm: null,
  gpuFamily: 'any',
  low: 2 * US,
  high: 4 * US,
  unit: 's',
  source: 'src',
  conditions: '',
  ...over,
})
const near = (a: number, b: number) => assert.ok(Math.abs(a - b) <= 1e-12 * Math.abs(b), `${a} ≠ ${b}`)

test('link classes on the bands scale: every NV# is NV, the rest upper case', () => {
  assert.deepEqual(['NV12', 'nv4', 'NV', 'node', 'SYS', 'PIX'].map(linkKey), ['NV', 'NV', 'NV', 'NODE', 'SYS', 'PIX'])
})

test('hard conditions: VM, NVLink, group size, NCCL transport', () => {
  const vm = band({ vm: true })
  assert.deepEqual(hardUnmet(vm, {}), ['measured in a VM; no VM detected or declared here'])
  assert.deepEqual(hardUnmet(vm, { vm: false }), ['measured in a VM; no VM detected or declared here'])
  assert.deepEqual(hardUnmet(vm, { vm: true }), [])
  assert.deepEqual(hardUnmet(band({ vm: false }), {}), [])
  const nv = band({ links: ['NV'] })
  assert.deepEqual(hardUnmet(nv, {}), ['measured over NVLink; no NVLink here'])
  assert.deepEqual(hardUnmet(nv, { nvlink: false }), ['measured over NVLink; no NVLink here'])
  assert.deepEqual(hardUnmet(nv, { nvlink: true }), [])
  assert.deepEqual(hardUnmet(band({ links: ['NV', 'PIX'] }), {}), [])
  assert.deepEqual(hardUnmet(band({ links: ['PIX'] }), {}), [])
  const r8 = band({ ranks: 8 })
  assert.deepEqual(hardUnmet(r8, { ranks: 4 }), ['8 GPUs'])
  assert.deepEqual(hardUnmet(r8, { ranks: 8 }), [])
  assert.deepEqual(hardUnmet(r8, {}), [])
  assert.deepEqual(hardUnmet(band({}), { ranks: 4 }), [])
  const t = band({ transports: ['P2P', 'SHM'] })
  assert.deepEqual(hardUnmet(t, { transport: 'NET' }), ['NCCL transport P2P or SHM'])
  assert.deepEqual(hardUnmet(t, { transport: 'SHM' }), [])
  assert.deepEqual(hardUnmet(t, {}), [])
  assert.deepEqual(hardUnmet(band({}), { transport: 'NET' }), [])
  assert.deepEqual(
    hardUnmet(band({ vm: true, links: ['NV'], ranks: 8, transports: ['NVLS'] }), { ranks: 2, transport: 'P2P' }),
    [
      'measured in a VM; no VM detected or declared here',
      'measured over NVLink; no NVLink here',
      '8 GPUs',
      'NCCL transport NVLS',
    ],
  )
})

test('soft conditions: GPU family, bare metal, link classes, attach, launch, env, channels', () => {
  const A100: CiteContext = { gpuFamily: 'A100' }
  assert.deepEqual(softUnmet(band({ gpuFamily: 'unstated' }), A100), ['GPU not stated by the source'])
  assert.deepEqual(softUnmet(band({ gpuFamily: 'any' }), A100), [])
  assert.deepEqual(softUnmet(band({ gpuFamily: 'A100' }), A100), [])
  assert.deepEqual(softUnmet(band({ gpuFamily: 'H100' }), A100), ['GPU H100'])
  assert.deepEqual(softUnmet(band({ gpuFamily: 'H100' }), {}), ['GPU H100'])
  const metal = band({ vm: false })
  assert.deepEqual(softUnmet(metal, { vm: true }), ['measured on bare metal'])
  assert.deepEqual(softUnmet(band({ vm: false, kind: 'host-staged' }), { vm: true }), [])
  assert.deepEqual(softUnmet(metal, { vm: false }), [])
  assert.deepEqual(softUnmet(metal, {}), [])
  assert.deepEqual(softUnmet(band({ vm: null }), { vm: true }), [])
  const pix = band({ links: ['PIX', 'PXB'] })
  assert.deepEqual(softUnmet(pix, { links: ['pix', 'PXB'] }), [])
  assert.deepEqual(softUnmet(pix, { links: ['PIX', 'SYS'] }), ['link classes PIX/PXB'])
  assert.deepEqual(softUnmet(pix, { links: [] }), [])
  assert.deepEqual(softUnmet(pix, {}), [])
  assert.deepEqual(softUnmet(band({ links: ['NV'] }), { links: ['NV18', 'NV4'] }), [])
  assert.deepEqual(softUnmet(band({}), { links: ['SYS'] }), [])
  assert.deepEqual(softUnmet(band({ attach: 'direct' }), { attach: 'switch' }), ['GPUs on their own root ports'])
  assert.deepEqual(softUnmet(band({ attach: 'switch' }), { attach: 'direct' }), ['GPUs behind PCIe switches'])
  assert.deepEqual(softUnmet(band({ attach: 'switch' }), { attach: 'switch' }), [])
  assert.deepEqual(softUnmet(band({ attach: 'switch' }), {}), [])
  assert.deepEqual(softUnmet(band({}), { attach: 'switch' }), [])
  const single = band({ launch: 'single-process' })
  assert.deepEqual(softUnmet(single, {}), ['one process driving every GPU (-g N)'])
  assert.deepEqual(softUnmet(single, { singleProcess: false }), ['one process driving every GPU (-g N)'])
  assert.deepEqual(softUnmet(single, { singleProcess: true }), [])
  const env = band({ env: { NCCL_ALGO: 'Ring', NCCL_PROTO: 'LL' } })
  assert.deepEqual(softUnmet(env, { env: { NCCL_ALGO: 'Ring', NCCL_PROTO: 'Simple' } }), ['NCCL_PROTO=LL'])
  assert.deepEqual(softUnmet(env, {}), ['NCCL_ALGO=Ring', 'NCCL_PROTO=LL'])
  assert.deepEqual(softUnmet(env, { env: { NCCL_PROTO: 'LL', NCCL_ALGO: 'Ring', X: '1' } }), [])
  const ch = band({ channels: 2 })
  assert.deepEqual(softUnmet(ch, {}), ['2 NCCL channel(s)'])
  assert.deepEqual(softUnmet(ch, { channels: 4 }), ['2 NCCL channel(s)'])
  assert.deepEqual(softUnmet(ch, { channels: 2 }), [])
  assert.deepEqual(softUnmet(band({}), { channels: 2 }), [])
})

test('distance from a band: value ÷ nearest edge − 1, 0 when the interval overlaps', () => {
  const b = band({ low: 2, high: 4 })
  assert.equal(bandDistance(b, 1), -0.5)
  assert.equal(bandDistance(b, 5), 0.25)
  assert.equal(bandDistance(b, 3), 0)
  assert.equal(bandDistance(b, 2), 0)
  assert.equal(bandDistance(b, 4), 0)
  assert.equal(bandDistance(b, 1, 1.5), -0.25)
  assert.equal(bandDistance(b, 5, 6), 0.25)
  assert.equal(bandDistance(b, 1, 2), 0)
  assert.equal(bandDistance(b, 4, 5), 0)
  assert.equal(bandDistance(b, 1, 5), 0)
})

test('position: inside at 0, tolerance within ±10 % or when the CI reaches the band, else outside', () => {
  const b = band({ low: 2, high: 4 })
  assert.equal(positionOf(0), 'inside')
  assert.equal(positionOf(0.1), 'tolerance')
  assert.equal(positionOf(-0.1), 'tolerance')
  assert.equal(positionOf(0.1 + 5e-13), 'tolerance')
  // The edge itself, with its 1e-12 slack for floating error, is within.
  assert.equal(positionOf(0.1 + 1e-12), 'tolerance')
  assert.equal(positionOf(0.1 + 1e-11), 'outside')
  assert.equal(positionOf(-0.1 - 1e-11), 'outside')
  assert.equal(positionOf(0.2), 'outside')
  assert.equal(positionOf(0.2, [3.5, 4.5], b), 'tolerance')
  assert.equal(positionOf(0.2, [4, 4.5], b), 'tolerance')
  assert.equal(positionOf(0.2, [4.1, 5], b), 'outside')
  assert.equal(positionOf(-0.2, [1, 2], b), 'tolerance')
  assert.equal(positionOf(-0.2, [1, 1.9], b), 'outside')
  assert.equal(positionOf(0.2, [3.5, 4.5]), 'outside')
})

const seg = (fromBytes: number, toBytes: number, alpha: number, beta: number | null) =>
  ({ fromBytes, toBytes, alpha, beta, points: 2, relRms: 0 }) as Fit['segments'][number]

test('fitted time: the segment holding the size, else the nearest by size ratio, α + size/β', () => {
  const f = { alpha: 9, segments: [seg(8, 1024, 1 * US, 1e9), seg(2048, 1 << 20, 5 * US, 1e10)] }
  near(fittedTime(f, 512), 1.512 * US)
  near(fittedTime(f, 8), 1.008 * US)
  near(fittedTime(f, 1024), 2.024 * US)
  near(fittedTime(f, 2048), 5.2048 * US)
  near(fittedTime(f, 4), 1.004 * US)
  // Between the two: 1500/1024 = 1.46 above the first, 2048/1500 = 1.37 below the second.
  near(fittedTime(f, 1500), 5.15 * US)
  near(fittedTime(f, 1 << 21), 214.7152 * US)
  assert.equal(fittedTime({ alpha: 9, segments: [seg(8, 64, 3 * US, null)] }, 32), 3 * US)
  assert.equal(fittedTime({ alpha: 9, segments: [] }, 32), 9)
  // A segment of 0 B sizes only (all_gather below the rank count prints 0 B) still serves above it.
  assert.equal(fittedTime({ alpha: 9, segments: [seg(0, 0, 3 * US, null)] }, 8), 3 * US)
})

test('fitted time in a gap between two of three segments: the nearer one, the lower on a tie', () => {
  // Three segments, each α + size/β with β = 1e9, 1e10, 1e11 B/s; α = 1, 2, 3 µs.
  const segments = [seg(8, 1024, 1 * US, 1e9), seg(4096, 65536, 2 * US, 1e10), seg(1 << 20, 1 << 24, 3 * US, 1e11)]
  const f = { alpha: 9, segments }
  // 3000 B: 2.93× above the first, 1.37× below the second (before the fix: the third, 3.03 µs).
  near(fittedTime(f, 3000), 2.3 * US)
  near(fittedTime(f, 1500), 2.5 * US)
  // 2048 B: 2× from either: the lower.
  near(fittedTime(f, 2048), 3.048 * US)
  near(fittedTime(f, 32768), 5.2768 * US)
  // 128 KiB: 2× above the second, 8× below the third.
  near(fittedTime(f, 131072), 15.1072 * US)
  near(fittedTime(f, 1 << 19), 8.24288 * US)
  near(fittedTime(f, 4), 1.004 * US)
  near(fittedTime(f, 1 << 25), 338.54432 * US)
})

/** What a test reads of a cited band: id, role, distance to 4 decimals, position, what was compared, what differs. */
const brief = (x: CitedBand | undefined) =>
  x &&
  `${x.id} ${x.role} ${Number(x.distance.toFixed(4))} ${x.position} (${x.compared})${x.differs ? ` ≠ ${x.differs}` : ''}`
/** A floor of 3 µs [2.9, 3.1], measured from 8 B to 1 MiB. */
const FIT = {
  alpha: 3 * US,
  alphaCi: [2.9 * US, 3.1 * US] as [number, number],
  segments: [seg(8, 1 << 20, 3 * US, 1e10)],
}

test('one cited band: the floor, its label, range, source and role; what differs only when given', () => {
  const b = band({ id: 'in', label: 'P2P on', source: 'p2p.md' })
  assert.deepEqual(citeBand(b, FIT, 'match'), {
    id: 'in',
    label: 'P2P on',
    range: '2–4 µs',
    source: 'p2p.md',
    role: 'match',
    compared: 'floor α',
    distance: 0,
    position: 'inside',
  })
  assert.deepEqual(citeBand(b, FIT, 'nearest', ['GPU H100'])?.differs, ['GPU H100'])
  // 15 % above the top, but the floor's CI reaches the band: within tolerance; a CI short of it: outside.
  const high = { ...FIT, alpha: 4.6 * US }
  assert.equal(
    brief(citeBand(b, { ...high, alphaCi: [3.9 * US, 5 * US] }, 'match')),
    'in match 0.15 tolerance (floor α)',
  )
  assert.equal(brief(citeBand(b, { ...high, alphaCi: [4.5 * US, 5 * US] }, 'match')), 'in match 0.15 outside (floor α)')
})

test('a band of sizes: the fitted times over them, where measured (2× beyond at most), no CI', () => {
  // 1 KiB: 5 µs + 1024/1e9 s = 6.024 µs; 4 KiB: 1 µs + 4096/1e12 s = 1.004096 µs (lower, though larger).
  const segments = [seg(8, 1024, 5 * US, 1e9), seg(2048, 1 << 20, 1 * US, 1e12)]
  const f = { alpha: 1 * US, alphaCi: [0, 1] as [number, number], segments }
  const at = (low: number, high: number, sizes: [number, number]) =>
    brief(citeBand(band({ low: low * US, high: high * US, sizes }), f, 'reference'))
  const K = 'fitted time at 1 KiB–4 KiB'
  // Above both: the higher time against the bottom; below both: the lower one against the top.
  assert.equal(at(7, 8, [1024, 4096]), `b reference -0.1394 outside (${K})`)
  assert.equal(at(0.5, 0.8, [1024, 4096]), `b reference 0.2551 outside (${K})`)
  assert.equal(at(2, 3, [1024, 4096]), `b reference 0 inside (${K})`)
  // Within tolerance by the distance alone (the fit's CI [0, 1 s] is not used here).
  assert.equal(at(6.6, 8, [1024, 1024]), 'b reference -0.0873 tolerance (fitted time at 1 KiB)')
  assert.equal(at(7, 8, [1024, 1024]), 'b reference -0.1394 outside (fitted time at 1 KiB)')
  // Measured from 8 B to 1 MiB: a band up to 3 B or from above 2 MiB is not compared; 4 B and 2 MiB are.
  assert.equal(at(1, 2, [1, 3]), undefined)
  assert.equal(at(1, 2, [(1 << 21) + 1, 1 << 22]), undefined)
  assert.match(at(1, 2, [1, 4]) ?? '', /\(fitted time at 1 B–4 B\)/)
  assert.match(at(1, 2, [1 << 21, 1 << 22]) ?? '', /\(fitted time at 2 MiB–4 MiB\)/)
  // No segments: the floor.
  assert.equal(
    brief(citeBand(band({ sizes: [8, 8] }), { ...FIT, segments: [] }, 'match')),
    'b match 0 inside (floor α)',
  )
})

test('citeFor: matches, the nearest other band when no match is near, references; hard conditions never', () => {
  const c: CiteContext = { gpuFamily: 'A100', vm: false }
  const b = (id: string, low: number, high: number, over: Partial<Band> = {}) =>
    band({ id, low: low * US, high: high * US, ...over })
  const mIn = b('m-in', 2, 4)
  const mTol = b('m-tol', 3.2, 4)
  const mOut = b('m-out', 6, 7)
  const mOut2 = b('m-out2', 2, 2.3)
  const mGone = b('m-gone', 2, 4, { sizes: [1 << 24, 1 << 25] })
  const nNear = b('n-near', 2, 2.5, { gpuFamily: 'H100' })
  const nFar = b('n-far', 5, 6, { gpuFamily: 'H100' })
  const hard = b('hard', 2.9, 3, { vm: true })
  const ref = b('ref', 1, 1.5, { kind: 'collective-model' })
  const refGone = b('ref-gone', 1, 1.5, { sizes: [1, 2] })
  const cite = (candidates: Band[], refs: Band[] = [ref, refGone], ctx = c) =>
    citeFor(candidates, refs, FIT, ctx).map(brief)
  const R = 'ref reference 1 outside (floor α)'
  // A match inside: no nearest band; matches by distance, then references.
  assert.deepEqual(cite([nFar, hard, mOut, nNear, mIn, mGone]), [
    'm-in match 0 inside (floor α)',
    'm-out match -0.5 outside (floor α)',
    R,
  ])
  // Every match outside: the nearest band that breaks no hard condition, by |distance|, with what differs.
  assert.deepEqual(cite([nFar, hard, mOut, mOut2, nNear]), [
    'm-out2 match 0.3043 outside (floor α)',
    'm-out match -0.5 outside (floor α)',
    'n-near nearest 0.2 outside (floor α) ≠ GPU H100',
    R,
  ])
  assert.deepEqual(cite([nNear, mTol], []), ['m-tol match -0.0625 tolerance (floor α)'])
  assert.deepEqual(cite([hard, nFar], []), ['n-far nearest -0.4 outside (floor α) ≠ GPU H100'])
  assert.deepEqual(cite([hard, nFar], [], { ...c, vm: true }), ['hard match 0 inside (floor α)'])
  assert.deepEqual(cite([nFar, nNear, mGone], []), ['n-near nearest 0.2 outside (floor α) ≠ GPU H100'])
  // A match outside but nearer than any other band is not cited again as the nearest.
  assert.deepEqual(cite([mOut2, nFar], []), [
    'm-out2 match 0.3043 outside (floor α)',
    'n-far nearest -0.4 outside (floor α) ≠ GPU H100',
  ])
  // Matches, then the nearest, then references, each by |distance|, whatever the order given.
  const refIn = b('ref-in', 2, 4, { kind: 'collective-model' })
  assert.deepEqual(cite([mOut, nNear], [ref, refIn]), [
    'm-out match -0.5 outside (floor α)',
    'n-near nearest 0.2 outside (floor α) ≠ GPU H100',
    'ref-in reference 0 inside (floor α)',
    R,
  ])
  assert.deepEqual(cite([]), [R])
  assert.deepEqual(cite([hard], []), [])
})
