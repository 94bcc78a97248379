/**
 * Which bands may be cited for a machine, and how far a value sits from each. A band's
 * conditions are of two sorts. Hard ones are never relaxed: a VM band needs a VM detected or
 * declared, an NVLink band needs NVLink evidence, a collective band needs the same group size
 * and (when known) NCCL transport. Soft ones (GPU family, link classes, attach, launch, env,
 * channels) decide whether a band *matches*; when no matching band is near the value, the
 * nearest band of the mechanism is shown with the conditions it differs in.
 */

import { BAND_TOLERANCE } from '../../bands/index.ts'
import { formatBytes } from '../../units/index.ts'
import type { Band, CitedBand, Fit, NcclTransport, Segment } from '../_types.ts'
import { bandRange } from '../_words.ts'

/** The machine and measurement a band is held against; absent fields are unknown. */
export interface CiteContext {
  gpuFamily?: string
  vm?: boolean
  /** The machine has NVLink (an NV# link class, or an SXM GPU). */
  nvlink?: boolean
  /** Link classes of the pair or of the group's pairs (`NV` for every NV#). */
  links?: string[]
  attach?: 'direct' | 'switch'
  transport?: NcclTransport
  ranks?: number
  singleProcess?: boolean
  env?: Readonly<Record<string, string>>
  channels?: number
}

const isNv = (l: string): boolean => /^NV/i.test(l)
/** Link classes on the bands' scale: every NV# is `NV`. */
export const linkKey = (l: string): string => (isNv(l) ? 'NV' : l.toUpperCase())

/** Hard conditions the context breaks (the band is never cited then). */
export function hardUnmet(b: Band, c: CiteContext): string[] {
  const out: string[] = []
  if (b.vm === true && c.vm !== true) out.push('measured in a VM; no VM detected or declared here')
  if (b.links?.every(isNv) && c.nvlink !== true) out.push('measured over NVLink; no NVLink here')
  if (b.ranks !== undefined && c.ranks !== undefined && b.ranks !== c.ranks) out.push(`${b.ranks} GPUs`)
  if (b.transports && c.transport && !b.transports.includes(c.transport))
    out.push(`NCCL transport ${b.transports.join(' or ')}`)
  return out
}

/** Soft conditions the context does not meet (or cannot confirm); [] means the band matches. */
export function softUnmet(b: Band, c: CiteContext): string[] {
  const out: string[] = []
  if (b.gpuFamily === 'unstated') out.push('GPU not stated by the source')
  else if (b.gpuFamily !== 'any' && b.gpuFamily !== c.gpuFamily) out.push(`GPU ${b.gpuFamily}`)
  if (b.vm === false && c.vm === true && b.kind !== 'host-staged') out.push('measured on bare metal')
  if (b.links && c.links?.length && !c.links.every((l) => b.links?.includes(linkKey(l))))
    out.push(`link classes ${b.links.join('/')}`)
  if (b.attach && c.attach && b.attach !== c.attach)
    out.push(b.attach === 'direct' ? 'GPUs on their own root ports' : 'GPUs behind PCIe switches')
  if (b.launch === 'single-process' && c.singleProcess !== true) out.push('one process driving every GPU (-g N)')
  for (const [k, v] of Object.entries(b.env ?? {})) if (c.env?.[k] !== v) out.push(`${k}=${v}`)
  if (b.channels !== undefined && c.channels !== b.channels) out.push(`${b.channels} NCCL channel(s)`)
  return out
}

/** Value ÷ nearest edge − 1 of an interval [lo, hi] against a band (0 when they overlap). */
export function bandDistance(b: Band, lo: number, hi: number = lo): number {
  if (hi < b.low) return hi / b.low - 1
  if (lo > b.high) return lo / b.high - 1
  return 0
}

/** Inside, within tolerance (± BAND_TOLERANCE of the edge, or the CI reaches the band), or outside. */
export function positionOf(distance: number, ci?: readonly [number, number], b?: Band): CitedBand['position'] {
  if (distance === 0) return 'inside'
  if (Math.abs(distance) <= BAND_TOLERANCE + 1e-12) return 'tolerance'
  if (ci && b && ci[0] <= b.high && ci[1] >= b.low) return 'tolerance'
  return 'outside'
}

type FitShape = Pick<Fit, 'alpha' | 'alphaCi' | 'segments'>

/**
 * The fitted time at a size, α + size/β: on the segment holding it, or else on the nearest one
 * by size ratio (the first below the measured sizes, the last above them, in a gap between two
 * segments the nearer, the lower on a tie).
 */
export function fittedTime(f: Pick<Fit, 'alpha' | 'segments'>, size: number): number {
  let seg: Segment | undefined
  let off = Number.POSITIVE_INFINITY
  for (const s of f.segments) {
    // How far outside the segment the size lies, as a ratio (1 inside).
    const o = size < s.fromBytes ? s.fromBytes / size : size > s.toBytes ? size / s.toBytes : 1
    if (seg === undefined || o < off) [seg, off] = [s, o]
  }
  if (!seg) return f.alpha
  return seg.alpha + (seg.beta ? size / seg.beta : 0)
}

/** One cited band: what is compared (the floor, or the fitted times over the band's sizes) and how far. */
export function citeBand(b: Band, f: FitShape, role: CitedBand['role'], differs: string[] = []): CitedBand | undefined {
  let lo = f.alpha
  let hi = f.alpha
  let compared = 'floor α'
  let ci: readonly [number, number] | undefined = f.alphaCi
  const first = f.segments[0]
  const last = f.segments[f.segments.length - 1]
  if (b.sizes && first && last) {
    const [s0, s1] = b.sizes
    // Compared only where measured (a factor of 2 beyond the measured sizes at most).
    if (s1 < first.fromBytes / 2 || s0 > last.toBytes * 2) return undefined
    const t0 = fittedTime(f, s0)
    const t1 = fittedTime(f, s1)
    lo = Math.min(t0, t1)
    hi = Math.max(t0, t1)
    compared = `fitted time at ${s0 === s1 ? formatBytes(s0) : `${formatBytes(s0)}–${formatBytes(s1)}`}`
    ci = undefined
  }
  const distance = bandDistance(b, lo, hi)
  return {
    id: b.id,
    label: b.label,
    range: bandRange(b),
    source: b.source,
    role,
    ...(differs.length ? { differs } : {}),
    compared,
    distance,
    position: positionOf(distance, ci, b),
  }
}

/**
 * Cites the bands of a mechanism: every band whose conditions all hold (`match`), the given
 * references, and, when no match lies within tolerance, the nearest band that breaks no hard
 * condition (`nearest`, with what differs).
 */
export function citeFor(
  candidates: readonly Band[],
  references: readonly Band[],
  f: FitShape,
  c: CiteContext,
): CitedBand[] {
  const ok = candidates.filter((b) => hardUnmet(b, c).length === 0)
  const match = ok
    .filter((b) => softUnmet(b, c).length === 0)
    .map((b) => citeBand(b, f, 'match'))
    .filter((x): x is CitedBand => x !== undefined)
  const out = [...match]
  if (!match.some((m) => m.position !== 'outside')) {
    const near = ok
      .filter((b) => softUnmet(b, c).length > 0)
      .map((b) => citeBand(b, f, 'nearest', softUnmet(b, c)))
      .filter((x): x is CitedBand => x !== undefined)
      .sort((a, b) => Math.abs(a.distance) - Math.abs(b.distance))[0]
    if (near) out.push(near)
  }
  for (const r of references) {
    const x = citeBand(r, f, 'reference')
    if (x) out.push(x)
  }
  const rank = (x: CitedBand): number => (x.role === 'match' ? 0 : x.role === 'nearest' ? 1 : 2)
  return out.sort((a, b) => rank(a) - rank(b) || Math.abs(a.distance) - Math.abs(b.distance))
}
