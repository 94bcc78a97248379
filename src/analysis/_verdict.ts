/**
 * Placing a fit's floor among the expectation bands, and the verdict sentence that says so,
 * e.g. "GPU0→GPU1 p2p.latency floor 13.7 µs [13.5, 13.9]: within 'P2P off, host-staged …'
 * (10.3–14.2 µs, bare metal, …); 30× the 'P2P on, PCIe Gen5 …' band (0.36–0.52 µs, …)".
 */
import { formatRate, formatSeconds } from '../units/index.ts'
import type { Band, Fit } from './_types.ts'
import type { NcclModelKey } from './bands.ts'
import { BANDS, BANDWIDTH_BANDS, COLLECTIVE_BANDS, inBand, LATENCY_BANDS, NCCL_MODEL, ncclModelBand } from './bands.ts'

/** What the verdict needs to know about the machine. */
export interface VerdictContext {
  /** GPU family from the manifest (matches Band.gpuFamily), when known. */
  gpuFamily?: string
}

/** The fields of a fit that decide which bands apply. */
type FitCore = Pick<
  Fit,
  | 'bench'
  | 'src'
  | 'dst'
  | 'ranks'
  | 'group'
  | 'p2p'
  | 'peerAccess'
  | 'env'
  | 'linkClass'
  | 'alpha'
  | 'alphaCi'
  | 'beta'
  | 'smallest'
>

const isPair = (f: FitCore): boolean => f.src !== undefined && f.dst !== undefined
const isAllReduce = (f: FitCore): boolean => f.bench === 'nccl.all_reduce' && f.ranks !== undefined

/** The GPU family of a GPU name as nvidia-smi prints it, in the spelling the bands use. */
export function gpuFamilyOf(name: string | undefined): string | undefined {
  if (!name) return undefined
  const table: [RegExp, string][] = [
    [/RTX PRO 6000/i, 'RTX PRO 6000 Blackwell'],
    [/RTX 6000 Ada/i, 'RTX 6000 Ada'],
    [/A100/i, 'A100'],
    [/4090/, 'RTX 4090'],
    [/3090/, 'RTX 3090'],
  ]
  return table.find(([re]) => re.test(name))?.[1]
}

/** NCCL model bands for a group: the detected link type (NVLink for NV# classes, else PCI) and protocol. */
export function modelBandsFor(ranks: number, linkClass?: string, proto?: string): Band[] {
  const nv = linkClass !== undefined && /^NV/i.test(linkClass)
  const keys: NcclModelKey[] = nv
    ? ['NVLink/LL']
    : proto === 'LL'
      ? ['PCI/LL']
      : proto === 'Simple'
        ? ['PCI/Simple']
        : ['PCI/LL', 'PCI/Simple']
  return keys.map((k) => ncclModelBand(k, ranks))
}

/** The latency bands that can describe a fit's floor (metric and subject must match). */
export function candidateBands(f: FitCore): Band[] {
  if (isPair(f)) {
    const same = f.src === f.dst
    return LATENCY_BANDS.filter((b) => b.metric === 'p2p-latency' && (b.kind === 'same-gpu') === same)
  }
  if (isAllReduce(f)) {
    const n = f.ranks as number
    return [...COLLECTIVE_BANDS.filter((b) => b.ranks === n), ...modelBandsFor(n, f.linkClass, f.env?.NCCL_PROTO)]
  }
  return []
}

/** Ids of the bands the floor α falls in. */
export const floorBands = (f: FitCore): string[] =>
  candidateBands(f)
    .filter((b) => inBand(b, f.alpha))
    .map((b) => b.id)

/** Ids of the bandwidth bands β falls in (p2p fits: unidirectional; all_reduce: busbw = β·2(n−1)/n). */
export function betaBands(f: FitCore): string[] {
  if (f.beta === null) return []
  if (isPair(f) && f.src !== f.dst)
    return BANDWIDTH_BANDS.filter(
      (b) => (b.metric === 'p2p-bw-uni' || b.metric === 'link-bw') && inBand(b, f.beta as number),
    ).map((b) => b.id)
  if (isAllReduce(f)) {
    const n = f.ranks as number
    const busbw = (f.beta * 2 * (n - 1)) / n
    return BANDWIDTH_BANDS.filter((b) => b.metric === 'allreduce-busbw' && b.ranks === n && inBand(b, busbw)).map(
      (b) => b.id,
    )
  }
  return []
}

/** "10.3–14.2 µs" or "14 µs" (a single value). */
export function bandRange(b: Band): string {
  const f = b.unit === 's' ? formatSeconds : formatRate
  if (b.low === b.high) return f(b.low)
  const [lo, hi] = [f(b.low), f(b.high)]
  const unit = hi.split(' ')[1]
  return lo.endsWith(` ${unit}`) ? `${lo.split(' ')[0]}–${hi}` : `${lo}–${hi}`
}

const where = (b: Band): string =>
  [b.vm === true ? 'VM' : b.vm === false ? 'bare metal' : '', b.source].filter(Boolean).join(', ')

/** The subject of a fit for people: "GPU0→GPU1 p2p.latency" or "nccl.all_reduce group 0-7 (8 ranks)". */
export function subjectOf(
  f: Pick<Fit, 'bench' | 'src' | 'dst' | 'group' | 'ranks' | 'grouping' | 'p2p' | 'peerAccess'>,
): string {
  const p2p = f.p2p ? ` p2p=${f.p2p}${f.peerAccess === false ? ' (no peer access)' : ''}` : ''
  if (f.src !== undefined && f.dst !== undefined) return `GPU${f.src}→GPU${f.dst} ${f.bench}${p2p}`
  const g = f.group ? ` group ${f.group}` : ''
  const r = f.ranks !== undefined ? ` (${f.ranks} ranks)` : ''
  return `${f.bench}${g}${r}${f.grouping ? ` ${f.grouping}` : ''}${p2p}`
}

/** The band a floor is best compared with: P2P on for the GPU family, else RTX PRO 6000 Gen5. */
function referenceBand(f: FitCore, ctx: VerdictContext): Band | undefined {
  if (!isPair(f) || f.src === f.dst) return undefined
  const on = LATENCY_BANDS.filter((b) => b.kind === 'p2p-on' && b.vm === false)
  return on.find((b) => b.gpuFamily === ctx.gpuFamily) ?? on.find((b) => b.id === 'p2p-on-rtxpro6000-gen5')
}

const ratioText = (v: number, b: Band): string =>
  v > b.high ? `${fmtRatio(v / b.high)}× the` : v < b.low ? `${fmtRatio(b.low / v)}× below the` : 'within the'
const fmtRatio = (r: number): string => (r >= 10 ? r.toFixed(0) : r.toFixed(1))

/** The verdict sentence of one fit. */
export function verdictText(f: FitCore & Pick<Fit, 'grouping'>, ctx: VerdictContext): string {
  const ci = `[${formatSeconds(f.alphaCi[0]).replace(/ .*/, '')}, ${formatSeconds(f.alphaCi[1])}]`
  const head = `${subjectOf(f)} floor ${formatSeconds(f.alpha)} ${ci} (${f.smallest.sizeBytes === null ? 'size not stated by the tool' : `smallest size ${f.smallest.sizeBytes} B`}: median ${formatSeconds(f.smallest.median)}, min ${formatSeconds(f.smallest.min)})`
  const cands = candidateBands(f)
  if (cands.length === 0) return `${head}; no published band for this bench`
  const within = cands.filter((b) => inBand(b, f.alpha))
  const parts: string[] = within.map((b) => `within '${b.label}' (${bandRange(b)}, ${where(b)})`)
  if (within.length === 0) {
    const near = nearest(cands, f.alpha)
    parts.push(
      `outside every published band; nearest: ${ratioText(f.alpha, near)} '${near.label}' (${bandRange(near)}, ${where(near)})`,
    )
  }
  const ref = referenceBand(f, ctx)
  if (ref && !within.includes(ref))
    parts.push(`${ratioText(f.alpha, ref)} '${ref.label}' band (${bandRange(ref)}, ${where(ref)})`)
  if (isPair(f) && f.src !== f.dst)
    parts.push(
      "the '5–8 µs NODE' figure of the original report is not a per-pair latency but p2pmark's 8-GPU effective latency under load (see REFERENCE.md §1)",
    )
  return `${head}: ${parts.join('; ')}`
}

/** The band closest to `v` on a log scale. */
function nearest(bands: readonly Band[], v: number): Band {
  const dist = (b: Band): number => (v < b.low ? Math.log(b.low / v) : v > b.high ? Math.log(v / b.high) : 0)
  return bands.reduce((a, b) => (dist(b) < dist(a) ? b : a))
}

/** Looks a band up by id (static or NCCL model `nccl-model-<link>-<proto>-n<ranks>`). */
export function bandById(id: string): Band | undefined {
  const m = /^nccl-model-(pci|nvlink)-(ll|simple)-n(\d+)$/.exec(id)
  const key = m ? `${m[1] === 'pci' ? 'PCI' : 'NVLink'}/${m[2] === 'll' ? 'LL' : 'Simple'}` : ''
  if (m && key in NCCL_MODEL) return ncclModelBand(key as NcclModelKey, Number(m[3]))
  return BANDS.find((b) => b.id === id)
}
