/**
 * Topology join: pair fits aggregated by link class (NODE, SYS, PIX, NV18, … from the
 * set's topology capture; one class "all" without one), and GPUs whose pairs are slower
 * than the rest of their class flagged.
 */
import { medianOf, sortSample } from '../stats/index.ts'
import type { Fit, GpuOutlier, LinkClassSummary, Mechanism, Verdict } from './_types.ts'

/** What the analysis needs from a topology capture. */
export interface TopologyView {
  /** Where the capture was read (shown in the output). */
  source: string
  /** Link class of a GPU pair exactly as `nvidia-smi topo -m` prints it, when known. */
  linkClass(a: number, b: number): string | undefined
  /** Every link class the capture names (to tell NVLink and PCIe-switch machines). */
  classes?: string[]
  /** `nvidia-smi topo -p2p` status of a pair (OK, NS, CNS, …; the worst capability), when captured. */
  p2pStatus?(a: number, b: number): { value: string; source: string } | undefined
  /** A VM detected (true) or bare metal seen (false), and how. */
  vm?: { value: boolean; source: string }
  cpuVendor?: { value: string; source: string }
  gpuName?: { value: string; source: string }
  /** GPUs in the capture. */
  gpus?: number
}

/** A GPU is an outlier when the median α of its pairs is at least this many times its class's. */
export const OUTLIER_RATIO = 1.5

const med = (v: readonly number[]): number => medianOf(sortSample(v))
const classOf = (f: Fit): string => f.linkClass ?? 'all'
const groupKey = (f: Fit): string =>
  [f.bench, f.p2p, f.staging, f.copy, f.peerAccess, armOf(f), classOf(f)].join('\u0000')

/** A fit's arm, its NCCL env and host-axis values ("NCCL_P2P_DISABLE=1 cstates=shallow"): arms are never pooled. */
const armOf = (f: Pick<Fit, 'env' | 'hostAxis'>): string =>
  [...Object.entries(f.env ?? {}), ...Object.entries(f.hostAxis ?? {})].map(([k, v]) => `${k}=${v}`).join(' ')

/** The mechanism most of a class's pairs share (the first met wins a tie). */
function commonMechanism(g: readonly Fit[]): Mechanism {
  const n = new Map<string, number>()
  for (const f of g) n.set(f.mechanism.id, (n.get(f.mechanism.id) ?? 0) + 1)
  const top = [...n].reduce((a, b) => (b[1] > a[1] ? b : a))[0]
  return (g.find((f) => f.mechanism.id === top) as Fit).mechanism
}

/** Cross-GPU pair fits grouped by bench, P2P mode (and the bench's own staging), copy kind, env and link class. */
function classGroups(fits: readonly Fit[]): Map<string, Fit[]> {
  const out = new Map<string, Fit[]>()
  for (const f of fits) {
    if (f.src === undefined || f.dst === undefined || f.src === f.dst) continue
    const k = groupKey(f)
    const g = out.get(k)
    if (g) g.push(f)
    else out.set(k, [f])
  }
  return out
}

/** One summary per link class (and bench, P2P mode). */
export function linkClasses(fits: readonly Fit[]): LinkClassSummary[] {
  return [...classGroups(fits).values()].map((g) => {
    const a = g.map((f) => f.alpha)
    const f0 = g[0] as Fit
    return {
      linkClass: classOf(f0),
      bench: f0.bench,
      p2p: f0.p2p,
      ...(f0.staging !== undefined ? { staging: f0.staging } : {}),
      ...(f0.copy !== undefined ? { copy: f0.copy } : {}),
      ...(f0.peerAccess !== undefined ? { peerAccess: f0.peerAccess } : {}),
      ...(armOf(f0) ? { arm: armOf(f0) } : {}),
      mechanism: commonMechanism(g),
      pairs: g.length,
      medianAlpha: med(a),
      minAlpha: a.reduce((x, y) => Math.min(x, y)),
      maxAlpha: a.reduce((x, y) => Math.max(x, y)),
    }
  })
}

/**
 * The median (as `medianOf`) of `sorted` with the entries at positions `gone` (ascending) left
 * out: the k-th kept entry is found by stepping over the gone positions at or before it, so
 * the cost is the number left out, not the sample's size.
 */
function medianWithout(sorted: readonly number[], gone: readonly number[]): number {
  const n = sorted.length - gone.length
  const at = (k: number): number => {
    let i = k
    for (const g of gone) {
      if (g > i) break
      i++
    }
    return sorted[i] as number
  }
  const h = (n - 1) / 2
  const lo = Math.floor(h)
  const a = at(lo)
  return lo + 1 >= n ? a : a + (h - lo) * (at(lo + 1) - a)
}

/**
 * GPUs whose pairs' median α is ≥ OUTLIER_RATIO × the median of the class's other pairs
 * (those not touching the GPU; classes of ≥ 3 pairs). Comparing with the others keeps one
 * slow GPU from dragging its own yardstick up, which matters on 4 GPUs where it is in half the pairs.
 * Linear-logarithmic in the class's pairs: the class is sorted once, and each GPU's yardstick
 * is that order with its own pairs stepped over (30,000 GPUs in one class took 103 s when each
 * GPU filtered and sorted the whole class).
 */
export function gpuOutliers(fits: readonly Fit[]): GpuOutlier[] {
  const out: GpuOutlier[] = []
  for (const g of classGroups(fits).values()) {
    if (g.length < 3) continue
    const sorted = sortSample(g.map((f) => f.alpha))
    const order = g.map((_, i) => i).sort((x, y) => (g[x] as Fit).alpha - (g[y] as Fit).alpha)
    const rank = new Array<number>(g.length)
    order.forEach((fi, r) => void (rank[fi] = r))
    const byGpu = new Map<number, number[]>()
    g.forEach((f, i) => {
      for (const gpu of [f.src as number, f.dst as number]) {
        const list = byGpu.get(gpu)
        if (list) list.push(i)
        else byGpu.set(gpu, [i])
      }
    })
    for (const gpu of [...byGpu.keys()].sort((a, b) => a - b)) {
      const mine = byGpu.get(gpu) as number[]
      if (mine.length === g.length) continue
      const gone = mine.map((i) => rank[i] as number).sort((a, b) => a - b)
      const ratio = med(mine.map((i) => (g[i] as Fit).alpha)) / medianWithout(sorted, gone)
      if (ratio >= OUTLIER_RATIO)
        out.push({ gpu, bench: (g[0] as Fit).bench, linkClass: classOf(g[0] as Fit), ratio, pairs: mine.length })
    }
  }
  return out
}

/** Verdict lines for the classes and the outliers. */
export function joinVerdicts(
  classes: readonly LinkClassSummary[],
  outliers: readonly GpuOutlier[],
  fmt: (s: number) => string,
): Verdict[] {
  const v: Verdict[] = classes.map((c) => {
    const p2p = c.staging ?? c.p2p
    const subject = [
      `${c.bench}${p2p ? ` p2p=${p2p}` : ''}${c.copy === 'sm' ? ' sm' : ''}`,
      c.peerAccess === false && c.p2p === 'enabled' ? ' (no peer access)' : '',
      c.arm ? ` ${c.arm}` : '',
      ` ${c.linkClass === 'all' ? 'all pairs' : `${c.linkClass} pairs`}`,
    ].join('')
    const range = `${c.pairs} pairs, floor median ${fmt(c.medianAlpha)} (range ${fmt(c.minAlpha)} – ${fmt(c.maxAlpha)})`
    const text = c.mechanism ? `${range}: ${c.mechanism.text}` : range
    return { subject, kind: 'class', text, ...(c.mechanism ? { mechanism: c.mechanism } : {}), bands: [] }
  })
  for (const o of outliers) {
    const cls = o.linkClass === 'all' ? 'the other pairs' : `their class (${o.linkClass})`
    v.push({
      subject: `GPU${o.gpu}`,
      kind: 'outlier',
      text: `GPU${o.gpu}'s pairs are ${o.ratio.toFixed(1)}× slower than ${cls} (${o.pairs} pairs, ${o.bench})`,
      bands: [],
    })
  }
  return v
}
