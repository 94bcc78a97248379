/**
 * gpucomm's own `p2p_bench` output, format gpucomm-native/2 (native/README.md "Output"): config
 * lines, then one result line per timed sample for every pair, test, P2P mode, copy kind and
 * size, in the order the bench runs them; `SKIP` where the bench skips (an SM copy without peer
 * access; P2P disabled inside one GPU or with SM copies), `CORRUPT` under the corrupt fault.
 * A copy of n bytes costs the 16 B latency of its path plus n over the path's bandwidth; a sample
 * holds as many copies as the bench's automatic batch puts in it (≥ 20 µs), and its noise is that
 * of their mean. MODEL: the bench's own bounce through pinned host memory costs what the driver's
 * staging costs on the same path (no published figure for it; on one GPU, a staged cross copy's cost).
 */
import { SIM_MARKER } from '../model/index.ts'
import { hostDeltaS } from './_host.ts'
import type { Noise } from './_noise.ts'
import { noiseOfRun } from './_noise.ts'
import { p2pBandwidth, p2pLatency } from './_physics.ts'
import type { Rendered, Run } from './_run.ts'
import { simHeader } from './_run.ts'
import type { P2pMode, Preset } from './_types.ts'

type Test = 'latency' | 'bw_uni' | 'bw_bi'
type Copy = 'ce' | 'sm'

const NAME: Record<Test, string> = { latency: 'P2PLatency', bw_uni: 'P2PBwUni', bw_bi: 'P2PBwBi' }

/** Whether a copy src→dst (physical GPUs) runs with peer access (both ways for bw_bi). */
function peerOf(p: Preset, s: number, d: number, p2p: P2pMode, test: Test): boolean {
  if (p2p !== 'enabled') return false
  if (s === d) return true
  return p.link(s, d).peerAccess && (test !== 'bw_bi' || p.link(d, s).peerAccess)
}

/** Why p2p_bench skips (test, s, d, mode, copy), in its words, or undefined (native/p2p_bench.cu skipReason). */
function skipReason(p: Preset, test: Test, s: number, d: number, p2p: P2pMode, copy: Copy): string | undefined {
  if (p2p === 'enabled' && copy === 'sm' && !peerOf(p, s, d, p2p, test))
    return 'no peer access between the GPUs, so an SM kernel cannot reach the other GPU'
  if (p2p === 'disabled' && s === d)
    return (
      'a copy inside one GPU never leaves it with peer access off; p2p=bounce measures the ' +
      'host-staged path on one GPU'
    )
  if (p2p === 'disabled' && copy === 'sm')
    return 'an SM kernel cannot reach another GPU with peer access off; p2p=bounce stages SM copies through the host'
  return undefined
}

/** The true time (s) of one copy: the path's 16 B latency plus the bytes over its bandwidth. */
export function copyTime(p: Preset, s: number, d: number, p2p: P2pMode, test: Test, bytes: number): number {
  const staged = p2p !== 'enabled'
  // A bounce inside one GPU goes out to host memory and back: a staged cross copy's path.
  const other = staged && s === d ? (s === 0 ? 1 : 0) : d
  const mode = staged ? 'disabled' : 'enabled'
  const lat = p2pLatency(p, s, other, mode)
  const direction = test === 'bw_bi' ? 'bi' : 'uni'
  const bw = p2pBandwidth(p, { src: s, dst: other, p2p: mode, direction })
  // bw_bi's bandwidth counts both directions: each direction moves `bytes` at half of it.
  return lat + (direction === 'bi' ? (2 * bytes) / bw : bytes / bw)
}

const MIN_SAMPLE_S = 20e-6
const MAX_BATCH = 1000

/** p2p_bench's automatic --batch: grow until a sample spans 20 µs (native/p2p_plan.h nextBatch). */
export function autoBatch(perCopyS: number): number {
  let batch = 1
  for (;;) {
    const seconds = batch * perCopyS
    if (seconds >= MIN_SAMPLE_S || batch >= MAX_BATCH) return batch
    const want = Math.max(Math.floor((1.25 * MIN_SAMPLE_S) / perCopyS) + 1, 2 * batch)
    batch = Math.min(want, MAX_BATCH)
  }
}

function configLines(r: Run): string[] {
  const out = ['format: gpucomm-native/2', 'bench: p2p_bench', 'cuda-runtime: 13000', 'cuda-driver: 13000']
  r.gpus.forEach((g, i) => {
    out.push(
      `gpu.${i}: ${r.preset.gpuName} | cc 12.0 | bus 0000:` +
        `${(r.preset.pciBus[g] ?? 0).toString(16).padStart(2, '0')}:00.0`,
    )
  })
  out.push(
    `iters: ${r.iters}`,
    `warmup: ${r.warmup}`,
    'check: 1',
    'timer: cuda-events',
    'latch: 1',
    'batch: auto (a sample spans at least 20 us)',
    `bounce-chunk: ${1 << 20}`,
    'bandwidth: size/time per direction, also inside one GPU (p2pBandwidthLatencyTest counts 2x that on its diagonal)',
  )
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
  const noiseOf = noiseByBatch(r)
  const head = [...simHeader(SIM_MARKER, r), ...configLines(r)]
  const data: string[] = []
  const tests: Test[] = [
    ...(r.sizes.length ? ['latency' as const] : []),
    ...(r.bwSizes.length ? (['bw_uni', 'bw_bi'] as const) : []),
  ]
  const fault = { corruptAt: r.fault === 'corrupt' ? 0 : -1 }
  for (const [i, j] of pairsOf(r))
    for (const p2p of r.p2pModes)
      for (const test of tests)
        for (const copy of r.copies) cellLines(r, { i, j, p2p, test, copy }, noiseOf, fault, data)
  return {
    lines: [...head, ...data],
    bannerEnd: head.length,
    dataStart: head.length,
    dataEnd: head.length + data.length,
  }
}

/** One printed value is the mean of one sample's batch of copies: its noise shrinks with the batch. */
function noiseByBatch(r: Run): (batch: number) => Noise {
  const scope = `${r.preset.name}|p2p_bench|${r.gpus.join(',')}`
  const noises = new Map<number, Noise>()
  return (batch) => {
    let n = noises.get(batch)
    if (!n) noises.set(batch, (n = noiseOfRun(r, scope, batch)))
    return n
  }
}

/** One benchmark of one pair (device indices i → j) under one P2P mode and copy kind. */
interface Cell {
  i: number
  j: number
  p2p: Run['p2pModes'][number]
  test: Test
  copy: Run['copies'][number]
}

/** A cell's lines (its SKIP line, or each size's iterations) onto `out`; the corrupt fault on the third size. */
function cellLines(
  r: Run,
  c: Cell,
  noiseOf: (batch: number) => Noise,
  fault: { corruptAt: number },
  out: string[],
): void {
  const { i, j, p2p, test, copy } = c
  const s = r.gpus[i] as number
  const d = r.gpus[j] as number
  const peer = peerOf(r.preset, s, d, p2p, test)
  const what = `Benchmark${NAME[test]}/src=${i}/dst=${j}`
  const why = skipReason(r.preset, test, s, d, p2p, copy)
  if (why !== undefined) {
    out.push(`SKIP ${what}/p2p=${p2p}/copy=${copy}  ${why}`)
    return
  }
  for (const n of test === 'latency' ? r.sizes : r.bwSizes) {
    const truth = copyTime(r.preset, s, d, p2p, test, n) + (peer ? 0 : hostDeltaS(r.preset, r.host))
    const batch = autoBatch(truth)
    const noise = noiseOf(batch)
    const base = `${what}/size=${n}/p2p=${p2p}/copy=${copy}/peer=${peer ? 1 : 0}/batch=${batch}`
    for (let it = 0; it < r.iters; it++) {
      const cold = r.warmup === 0 && it === 0
      const t = noise.time(truth, `${test}|${p2p}|${copy}|${s}|${d}|${n}|${it}`, cold)
      const us = `${(t * 1e6).toFixed(3)} us/op`
      const gbs = String(Number((((test === 'bw_bi' ? 2 : 1) * n) / t / 1e9).toPrecision(6)))
      out.push(`${base}/iter=${it}  1  ${test === 'latency' ? us : `${us}  ${gbs} GB/s`}`)
    }
    if (fault.corruptAt >= 0 && fault.corruptAt++ === 2)
      out.push(`CORRUPT ${base}  mismatches=12/${n} first=0 direction=${i}->${j} (simulated fault)`)
  }
}
