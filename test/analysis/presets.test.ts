/**
 * The simulator agrees with the project's own references: every preset is held against every
 * band whose conditions all hold for it (the same `hardUnmet`/`softUnmet` the verdicts use),
 * and its noise-free value must lie within the band ± BAND_TOLERANCE. NCCL's model bands are
 * references, not measurements, and are not held; p2pmark's effective latency and the
 * theoretical link bandwidths are not what the simulator models.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Band, CiteContext } from '../../src/analysis/index.ts'
import { BANDS, gpuFamilyOf, hardUnmet, inBand, softUnmet, transportFamily } from '../../src/analysis/index.ts'
import { presetNames, presetTruth, trueBandwidth, trueLatency, trueTime } from '../../src/sim/index.ts'

const ALL = [0, 1, 2, 3, 4, 5, 6, 7]
const GROUPS = [ALL, [0, 1, 2, 3], [4, 5, 6, 7]]
const NOT_MODELLED = new Set(['p2p-effective-latency', 'link-bw'])

/** One check: a value of the preset set against a band under a context. */
interface Check {
  band: Band
  what: string
  ctx: CiteContext
  values: number[]
}

const linkKey = (l: string): string => (l === 'NV' ? 'NV' : l)

function checksOf(preset: string): Check[] {
  const t = presetTruth(preset)
  const levels = new Set<string>()
  for (const a of ALL) for (const b of ALL) if (a !== b) levels.add(t.link(a, b).level)
  const base: CiteContext = {
    ...(gpuFamilyOf(t.gpuName) ? { gpuFamily: gpuFamilyOf(t.gpuName) as string } : {}),
    vm: t.vm,
    nvlink: levels.has('NV'),
    attach: levels.has('PIX') || levels.has('PXB') ? 'switch' : 'direct',
  }
  const out: Check[] = []
  for (const band of BANDS) {
    if (NOT_MODELLED.has(band.metric)) continue
    if (band.kind === 'same-gpu') {
      out.push({ band, what: 'GPU0→GPU0', ctx: base, values: [trueLatency(preset, 0, 0, 'enabled')] })
      continue
    }
    if (band.metric === 'p2p-latency' || band.metric === 'p2p-bw-uni' || band.metric === 'p2p-bw-bi') {
      const p2p = band.p2p === 'off' || band.kind === 'host-staged' ? 'disabled' : 'enabled'
      for (const [a, b] of [
        [0, 1],
        [0, 4],
      ] as const) {
        const l = t.link(a, b)
        if (p2p === 'enabled' && !l.peerAccess) continue
        const v =
          band.metric === 'p2p-latency'
            ? trueLatency(preset, a, b, p2p)
            : trueBandwidth(preset, { src: a, dst: b, p2p, direction: band.metric === 'p2p-bw-uni' ? 'uni' : 'bi' })
        out.push({ band, what: `GPU${a}→GPU${b} p2p=${p2p}`, ctx: { ...base, links: [linkKey(l.level)] }, values: [v] })
      }
      continue
    }
    for (const gpus of GROUPS) {
      const m = t.collective('all_reduce', gpus)
      const links = gpus.flatMap((a) => gpus.filter((b) => b > a).map((b) => linkKey(t.link(a, b).level)))
      const ctx: CiteContext = { ...base, links, ranks: gpus.length, env: {}, singleProcess: false }
      const fam = transportFamily(m.transport)
      if (fam) ctx.transport = fam
      const what = `all_reduce on ${gpus.join(',')} (${m.transport})`
      if (band.metric === 'allreduce-busbw') out.push({ band, what, ctx, values: [m.simple.busBwBps] })
      else if (band.metric === 'allreduce-time') {
        const [s0, s1] = band.sizes ?? [8, 8]
        const at = (s: number): number =>
          trueTime(preset, { kind: 'collective', collective: 'all_reduce', gpus, sizeBytes: s })
        out.push({ band, what, ctx, values: [at(s0), at(s1)] })
      }
    }
  }
  return out.filter((c) => hardUnmet(c.band, c.ctx).length === 0 && softUnmet(c.band, c.ctx).length === 0)
}

test('every preset lies within every band whose conditions match it (± BAND_TOLERANCE)', () => {
  const held: Record<string, string[]> = {}
  for (const preset of presetNames()) {
    const checks = checksOf(preset)
    held[preset] = [...new Set(checks.map((c) => c.band.id))].sort()
    for (const c of checks)
      for (const v of c.values)
        assert.ok(
          inBand(c.band, v),
          `${preset} ${c.what}: ${c.band.unit === 's' ? `${(v * 1e6).toFixed(2)} µs` : `${(v / 1e9).toFixed(1)} GB/s`} outside '${c.band.id}' ${c.band.low}–${c.band.high} ± 10 %`,
        )
  }
  // The bands that hold each preset (so a band silently dropping out of the match fails here).
  assert.deepEqual(held, {
    // The guest sees PHB links, and no published band was measured in a VM with this GPU.
    'seed-vm': ['same-gpu-ce'],
    'baremetal-turin': [
      'ar-rtxpro6000-default-8gpu',
      'ar-rtxpro6000-p2p-ll-4gpu',
      'busbw-ar-rtxpro6000-8gpu-default',
      'bw-bi-rtxpro6000-p2p',
      'bw-uni-rtxpro6000-p2p',
      'p2p-off-rtxpro6000-gen5',
      'p2p-on-rtxpro6000-gen5',
      'same-gpu-ce',
    ],
    'pcie-switch': [
      'ar-rtxpro6000-p2p-ll-4gpu',
      'bw-bi-rtxpro6000-p2p',
      'bw-uni-rtxpro6000-p2p',
      'p2p-on-rtxpro6000-switch-cross-numa',
      'p2p-on-rtxpro6000-switch-same-numa',
      'same-gpu-ce',
    ],
    nvlink: ['p2p-off-a100-nvswitch', 'p2p-on-a100-nvswitch', 'same-gpu-ce'],
  })
})

test("baremetal-turin's TP8 all_reduce: over P2P 24.1–26.2 µs at 8 B (published P2P/LL); default NCCL (SHM across the sockets, Simple) ~48 µs at 32 and 64 KiB and from 8 B", () => {
  const at = (gpus: number[], s: number, env: Record<string, string> = {}): number =>
    trueTime('baremetal-turin', { kind: 'collective', collective: 'all_reduce', gpus, sizeBytes: s, env }) * 1e6
  const p2p = { NCCL_P2P_LEVEL: 'SYS' }
  assert.ok(at(ALL, 8, p2p) >= 24.1 && at(ALL, 8, p2p) <= 26.2, String(at(ALL, 8, p2p)))
  assert.ok(at([0, 1, 2, 3], 8) >= 13.2 && at([0, 1, 2, 3], 8) <= 15.6, String(at([0, 1, 2, 3], 8)))
  for (const s of [8, 32768, 65536]) assert.ok(at(ALL, s) >= 43.2 && at(ALL, s) <= 52.8, `${s}: ${at(ALL, s)}`)
})
