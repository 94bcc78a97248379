/** The interconnect a result set measured, for one arm (and one launch, or all). */
import type { Measured } from './_measured.ts'
import { curveOf, curveTime } from './_measured.ts'
import type { Interconnect, Timed } from './_step.ts'

const NONE: Timed = { t: Number.NaN, from: 'not measured' }

/** Collective times read off the set's curves. */
export function setNet(m: Measured, arm: string, trial?: number): Interconnect {
  const time = (bench: string, n: number, bytes: number): Timed | null => {
    const c = curveOf(m, bench, n, arm, trial)
    const t = curveTime(c, bytes)
    return Number.isFinite(t) ? { t, from: `${bench} on ${n} GPUs, this set` } : null
  }
  return {
    allReduce: (bytes, n) => time('nccl.all_reduce', n, bytes) ?? NONE,
    gather: (bytes, n) => {
      const g = time('nccl.all_gather', n, bytes) ?? time('nccl.reduce_scatter', n, bytes)
      if (g) return g
      const ar = time('nccl.all_reduce', n, bytes)
      return ar ? { t: ar.t, from: `${ar.from} (all_gather not measured: the all_reduce as a bound)` } : NONE
    },
    sendRecv: (bytes) => {
      const sr = time('nccl.sendrecv', 2, bytes)
      if (sr) return sr
      const p = m.p2p
      if (p?.bw) return { t: p.alpha + bytes / p.bw, from: `p2p α + bytes/β of ${p.pairs} pairs, this set` }
      // No peer access: the boundary's send is a copy staged through host memory, as the set measured it.
      const h = m.staged
      if (h?.bw) return { t: h.alpha + bytes / h.bw, from: `host-staged p2p α + bytes/β of ${h.pairs} pairs, this set` }
      return { t: Number.NaN, from: 'not measured: nccl sendrecv or p2p pairs' }
    },
  }
}
