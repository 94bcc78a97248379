/**
 * gpucomm's own `p2p_bench` output (native/README.md "Output"): config lines, then one result
 * line per iteration for every pair, test, P2P mode, copy kind and size, in the order the
 * bench runs them; `SKIP` for an SM copy without peer access, `CORRUPT` under the corrupt fault.
 * A copy of n bytes costs the 16 B latency of its path plus n over the path's bandwidth.
 */
import { SIM_MARKER } from '../model/index.ts'
import { hostDeltaS } from './_host.ts'
import { makeNoise } from './_noise.ts'
import { p2pBandwidth, p2pLatency } from './_physics.ts'
import type { Rendered, Run } from './_run.ts'
import { simHeader } from './_run.ts'
import type { Preset } from './_types.ts'

type Test = 'latency' | 'bw_uni' | 'bw_bi'
type Mode = 'enabled' | 'disabled'

const NAME: Record<Test, string> = { latency: 'P2PLatency', bw_uni: 'P2PBwUni', bw_bi: 'P2PBwBi' }

/** Whether a copy src→dst (physical GPUs) runs with peer access (both ways for bw_bi). */
function peerOf(p: Preset, s: number, d: number, p2p: Mode, test: Test): boolean {
  if (p2p === 'disabled') return false
  if (s === d) return true
  return p.link(s, d).peerAccess && (test !== 'bw_bi' || p.link(d, s).peerAccess)
}

/**
 * The true time (s) of one iteration: the path's 16 B latency plus the bytes over its bandwidth.
 * A GPU's copy to itself with P2P disabled is staged through the host like a cross copy.
 */
export function copyTime(p: Preset, s: number, d: number, p2p: Mode, test: Test, bytes: number): number {
  const staged = s === d && p2p === 'disabled'
  const other = staged ? (s === 0 ? 1 : 0) : d
  const lat = p2pLatency(p, s, other, p2p)
  const direction = test === 'bw_bi' ? 'bi' : 'uni'
  const bw = p2pBandwidth(p, { src: s, dst: other, p2p, direction })
  // bw_bi's bandwidth counts both directions: each direction moves `bytes` at half of it.
  return lat + (direction === 'bi' ? (2 * bytes) / bw : bytes / bw)
}

function configLines(r: Run): string[] {
  const out = ['format: gpucomm-native/1', 'bench: p2p_bench', 'cuda-runtime: 13000', 'cuda-driver: 13000']
  r.gpus.forEach((g, i) => {
    out.push(
      `gpu.${i}: ${r.preset.gpuName} | cc 12.0 | bus 0000:${(r.preset.pciBus[g] ?? 0).toString(16).padStart(2, '0')}:00.0`,
    )
  })
  out.push(`iters: ${r.iters}`, `warmup: ${r.warmup}`, 'check: 1', 'timer: cuda-events', 'latch: 1')
  for (let s = 0; s < r.gpus.length; s++)
    for (let d = 0; d < r.gpus.length; d++)
      if (s !== d)
        out.push(`peer.${s}.${d}: ${r.preset.link(r.gpus[s] as number, r.gpus[d] as number).peerAccess ? 1 : 0}`)
  return out
}

/** The pairs a run measures (device indices): --pairs all is every ordered pair and each GPU to itself. */
function pairsOf(r: Run): readonly (readonly [number, number])[] {
  if (r.pairs !== 'all' && r.pairs !== 'self' && r.pairs !== 'cross') return r.pairs
  const n = r.gpus.length
  const out: [number, number][] = []
  for (let s = 0; s < n; s++)
    for (let d = 0; d < n; d++) if (r.pairs === 'all' || (r.pairs === 'self') === (s === d)) out.push([s, d])
  return out
}

/** The whole p2p_bench output of a run. */
export function renderP2pBench(r: Run): Rendered {
  const scope = `${r.preset.name}|p2p_bench|${r.gpus.join(',')}`
  // One printed value is one iteration: the per-value noise of a single copy.
  const noise = makeNoise({ params: r.preset.noise, seed: r.seed, trial: r.trial, scope, iters: 1 })
  const head = [...simHeader(SIM_MARKER, r), ...configLines(r)]
  const data: string[] = []
  const tests: Test[] = [
    ...(r.sizes.length ? ['latency' as const] : []),
    ...(r.bwSizes.length ? (['bw_uni', 'bw_bi'] as const) : []),
  ]
  let corruptAt = r.fault === 'corrupt' ? 0 : -1
  for (const [i, j] of pairsOf(r)) {
    const s = r.gpus[i] as number
    const d = r.gpus[j] as number
    for (const test of tests) {
      const sizes = test === 'latency' ? r.sizes : r.bwSizes
      for (const p2p of ['enabled', 'disabled'] as const) {
        for (const copy of r.copies) {
          const peer = peerOf(r.preset, s, d, p2p, test)
          const what = `Benchmark${NAME[test]}/src=${i}/dst=${j}`
          if (p2p === 'enabled' && copy === 'sm' && !peer) {
            data.push(
              `SKIP ${what}/p2p=enabled/copy=sm  no peer access between GPU ${i} and GPU ${j}, so an SM kernel cannot reach the other GPU`,
            )
            continue
          }
          for (const n of sizes) {
            const base = `${what}/size=${n}/p2p=${p2p}/copy=${copy}/peer=${peer ? 1 : 0}`
            const truth = copyTime(r.preset, s, d, p2p, test, n) + (peer ? 0 : hostDeltaS(r.preset, r.host))
            for (let it = 0; it < r.iters; it++) {
              const cold = r.warmup === 0 && it === 0
              const t = noise.time(truth, `${test}|${p2p}|${copy}|${s}|${d}|${n}|${it}`, cold)
              const us = `${(t * 1e6).toFixed(3)} us/op`
              const gbs = (((test === 'bw_bi' ? 2 : 1) * n) / t / 1e9).toPrecision(6).replace(/\.?0+$/, '')
              data.push(`${base}/iter=${it}  1  ${test === 'latency' ? us : `${us}  ${gbs} GB/s`}`)
            }
            if (corruptAt >= 0 && corruptAt++ === 2)
              data.push(`CORRUPT ${base}  mismatches=12/${n} first=0 direction=${i}->${j} (simulated fault)`)
          }
        }
      }
    }
  }
  return {
    lines: [...head, ...data],
    bannerEnd: head.length,
    dataStart: head.length,
    dataEnd: head.length + data.length,
  }
}
