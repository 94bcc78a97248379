/**
 * Interconnects for the step model: collective times from an α–β line (published numbers), and
 * the custom one-shot all-reduce that serving engines run over P2P in place of NCCL for small
 * messages (SGLang's PCIe one-shot all-reduce: every GPU writes its data to every peer, one
 * system-scope barrier, a local reduction; rtx6kpro optimization/pcie-oneshot-allreduce.md,
 * source github.com/lukealonso/sglang commit d39236a; vLLM's custom all-reduce is the same idea
 * over NVLink).
 */
import { NCCL_MODEL } from '../bands/index.ts'
import type { Interconnect, Timed } from './_step.ts'

const US = 1e-6
const KIB = 1024

/** An α–β collective model: time = α + bus factor × bytes / busbw (ring factors of nccl-tests). */
export interface LineNet {
  /** Small-message all-reduce time (seconds). */
  alpha: number
  /** Bus bandwidth (bytes/second). */
  busbw: number
  /** A pipeline send/recv: p2p latency and bandwidth. */
  p2pAlpha: number
  p2pBw: number
  from: string
}

/** Collectives on an α–β line. */
export function lineNet(l: LineNet): Interconnect {
  const at = (factor: number, bytes: number): Timed => ({ t: l.alpha + (factor * bytes) / l.busbw, from: l.from })
  return {
    allReduce: (bytes, n) => at((2 * (n - 1)) / n, bytes),
    gather: (bytes, n) => at((n - 1) / n, bytes),
    sendRecv: (bytes) => ({ t: l.p2pAlpha + bytes / l.p2pBw, from: 'p2p α + bytes/β' }),
  }
}

/**
 * The one-shot kernel's published sweep on 4 × RTX PRO 6000 (TP4): 6.1 µs at 1 KB, 51.0 µs at
 * 512 KB, NCCL faster from 1 MB (the engine's auto-crossover). Fitted: a fixed 6.1 µs, and each
 * GPU pushing (n−1) × bytes at 0.634 of the measured pair bandwidth (3 × 511 KB in 44.9 µs is
 * 35.0 GB/s against 55.2 GB/s measured P2P).
 */
export const ONE_SHOT = {
  fixed: 6.1 * US,
  bwFraction: 35.0 / 55.2,
  source:
    'one-shot all-reduce over P2P, fitted to rtx6kpro optimization/pcie-oneshot-allreduce.md (4 GPUs, 1 KB–512 KB)',
}

/**
 * The two-shot all-reduce beside it (vLLM csrc/custom_all_reduce.cuh, cross_device_reduce_2stage:
 * a reduce-scatter, each GPU pulling its 1/n slice from every peer, a barrier, then an all-gather
 * of the reduced slices): each GPU moves 2(n−1)/n × bytes instead of one-shot's (n−1) × bytes,
 * behind two barriers. Costed with the one-shot fit's fixed cost per barrier and bandwidth fraction.
 * The engine picks (same file, REDUCE_CASE): one-shot on 2 GPUs, or below 512 KiB on ≤ 4 GPUs, or
 * below 256 KiB on ≤ 8; two-shot otherwise, up to the custom all-reduce's 8 MiB buffer (vLLM
 * custom_all_reduce.py max_size); NCCL above it.
 */
export const TWO_SHOT = {
  maxBytes: 8 * KIB * KIB,
  source:
    'two-shot all-reduce over P2P (vLLM custom_all_reduce.cuh cross_device_reduce_2stage), one-shot fit per barrier',
}

/** Which custom kernel the engine runs for `bytes` over `n` GPUs (null: NCCL). */
export function customKind(bytes: number, n: number): 'one-shot' | 'two-shot' | null {
  if (n === 2 || (n <= 4 && bytes < 512 * KIB) || (n <= 8 && bytes < 256 * KIB)) return 'one-shot'
  return bytes <= TWO_SHOT.maxBytes ? 'two-shot' : null
}

/** The engine's custom all-reduce over P2P (one-shot or two-shot as the engine picks), NCCL where that is faster. */
export function withCustomAllReduce(nccl: Interconnect, p2pBw: number): Interconnect {
  return {
    ...nccl,
    allReduce: (bytes, n) => {
      const base = nccl.allReduce(bytes, n)
      const kind = customKind(bytes, n)
      if (!kind) return base
      const bw = ONE_SHOT.bwFraction * p2pBw
      const t =
        kind === 'one-shot'
          ? ONE_SHOT.fixed + ((n - 1) * bytes) / bw
          : 2 * ONE_SHOT.fixed + (2 * (n - 1) * bytes) / n / bw
      const src = kind === 'one-shot' ? ONE_SHOT.source : TWO_SHOT.source
      return t < base.t ? { t, from: `${src}, at ${(p2pBw / 1e9).toFixed(1)} GB/s P2P` } : base
    },
  }
}

/**
 * NCCL over P2P, LL, from a set's measured P2P pairs: tuning.cc's ring latency (base + one hop
 * per ring step; the hop is NCCL's PCI/LL hop or the measured P2P floor α, whichever is longer)
 * plus the ring's bytes at the measured pair bandwidth β.
 */
export function p2pNcclNet(p2p: { alpha: number; bw: number; pairs: number }): Interconnect {
  const { base, hop: nominal } = NCCL_MODEL['PCI/LL']
  const hop = Math.max(nominal * US, p2p.alpha)
  const from = `NCCL over P2P modelled from the measured P2P α ${(p2p.alpha / US).toFixed(2)} µs / β ${(p2p.bw / 1e9).toFixed(1)} GB/s of ${p2p.pairs} pairs (ring: ${base} µs + ${(hop / US).toFixed(2)} µs per step, tuning.cc PCI/LL)`
  const ring = (steps: number, factor: number, bytes: number): Timed => ({
    t: base * US + steps * hop + (factor * bytes) / p2p.bw,
    from,
  })
  return {
    allReduce: (bytes, n) => ring(2 * (n - 1), (2 * (n - 1)) / n, bytes),
    gather: (bytes, n) => ring(n - 1, (n - 1) / n, bytes),
    sendRecv: (bytes) => ({ t: p2p.alpha + bytes / p2p.bw, from: `measured P2P α + bytes/β of ${p2p.pairs} pairs` }),
  }
}

/** Each collective from whichever of two interconnects is faster at that payload (NCCL's tuner picks per size). */
export function fasterOf(a: Interconnect, b: Interconnect): Interconnect {
  const pick = (x: Timed, y: Timed): Timed => (y.t < x.t || !Number.isFinite(x.t) ? y : x)
  return {
    allReduce: (bytes, n) => pick(a.allReduce(bytes, n), b.allReduce(bytes, n)),
    gather: (bytes, n) => pick(a.gather(bytes, n), b.gather(bytes, n)),
    sendRecv: (bytes) => pick(a.sendRecv(bytes), b.sendRecv(bytes)),
  }
}
