/**
 * A fit's verdict: the mechanism that explains its floor (from the evidence), the bands cited
 * for that mechanism with their distance, and the conflicts; then the sentence that says so,
 * mechanism first, e.g. "GPU0→GPU1 p2p.latency p2p=disabled: host-staged copy through pinned
 * host memory (no peer access). Floor 13.7 µs [13.5, 13.9 µs] …; evidence: …; bands: within
 * 'P2P off, host-staged …' (12.6–15.4 µs, bare metal, github.com/voipmonitor/rtx6kpro …)".
 */

import type { NcclModelKey } from '../../bands/index.ts'
import {
  BAND_TOLERANCE,
  BANDS,
  BANDWIDTH_BANDS,
  inBand,
  LATENCY_BANDS,
  NCCL_MODEL,
  ncclModelBand,
} from '../../bands/index.ts'
import { formatSeconds } from '../../units/index.ts'
import type { Band, CitedBand, Conflict, Evidence, Fit, Mechanism } from '../_types.ts'
import { bandRange, fmtPct, fmtRatio } from '../_words.ts'
import type { Series } from '../fit/_series.ts'
import type { CiteContext } from './_cite.ts'
import { citeFor } from './_cite.ts'
import type { MachineContext } from './_context.ts'
import { judgePair, pairCandidates } from './_mechanism.ts'
import { judgeCollective } from './_transport.ts'

/** The fields of a fit the verdict is built from. */
export type FitCore = Pick<
  Fit,
  | 'bench'
  | 'src'
  | 'dst'
  | 'ranks'
  | 'group'
  | 'grouping'
  | 'p2p'
  | 'peerAccess'
  | 'env'
  | 'linkClass'
  | 'alpha'
  | 'alphaCi'
  | 'beta'
  | 'segments'
  | 'smallest'
  | 'hostAxis'
> &
  Partial<Pick<Fit, 'launches'>>

/** α's interval as printed: "[12.2, 12.9 µs]", or why there is none (one launch; nothing to resample). */
export function alphaCiText(f: Pick<Fit, 'alpha' | 'alphaCi'> & Partial<Pick<Fit, 'launches'>>): string {
  if (f.launches === 1 && f.alphaCi[0] === f.alphaCi[1]) return '(one launch: no interval)'
  if (f.alphaCi[0] === f.alphaCi[1]) return '(no interval)'
  return `[${formatSeconds(f.alphaCi[0]).replace(/ .*/, '')}, ${formatSeconds(f.alphaCi[1])}]`
}

/** What a fit's verdict concludes. */
export interface Judged {
  mechanism: Mechanism
  evidence: Evidence[]
  cited: CitedBand[]
  conflicts: Conflict[]
  /** Ids of the cited bands the floor falls in (within tolerance). */
  bands: string[]
  /** The machine context the bands were filtered with. */
  cite: CiteContext
}

const isPair = (f: Pick<Fit, 'src' | 'dst'>): boolean => f.src !== undefined && f.dst !== undefined

/** Mechanism, evidence, cited bands and conflicts of one fit. */
export function judgeFit(f: FitCore, s: Pick<Series, 'origins'>, ctx: MachineContext): Judged | undefined {
  if (isPair(f)) {
    const j = judgePair(f, ctx)
    const cited = citeFor(pairCandidates(j.mechanism.id, f.src === f.dst), [], f, j.cite)
    return { ...j, cited, bands: within(cited) }
  }
  if (f.bench.startsWith('nccl.')) {
    const j = judgeCollective(f, s, ctx)
    const refs = f.bench === 'nccl.all_reduce' ? j.references : []
    const cited = citeFor(j.candidates, refs, f, j.cite)
    return {
      mechanism: j.mechanism,
      evidence: j.evidence,
      conflicts: j.conflicts,
      cite: j.cite,
      cited,
      bands: within(cited),
    }
  }
  return undefined
}

const within = (c: readonly CitedBand[]): string[] => c.filter((b) => b.position !== 'outside').map((b) => b.id)

/** Ids of the bandwidth bands β falls in (p2p fits: unidirectional; all_reduce: busbw = β·2(n−1)/n). */
export function betaBands(f: Pick<Fit, 'bench' | 'src' | 'dst' | 'ranks' | 'beta'>): string[] {
  if (f.beta === null) return []
  if (isPair(f) && f.src !== f.dst)
    return BANDWIDTH_BANDS.filter(
      (b) => (b.metric === 'p2p-bw-uni' || b.metric === 'link-bw') && inBand(b, f.beta as number),
    ).map((b) => b.id)
  if (f.bench === 'nccl.all_reduce' && f.ranks !== undefined) {
    const n = f.ranks
    const busbw = (f.beta * 2 * (n - 1)) / n
    return BANDWIDTH_BANDS.filter((b) => b.metric === 'allreduce-busbw' && b.ranks === n && inBand(b, busbw)).map(
      (b) => b.id,
    )
  }
  return []
}

/** The subject of a fit for people: "GPU0→GPU1 p2p.latency" or "nccl.all_reduce group 0-7 (8 ranks)". */
export function subjectOf(
  f: Pick<Fit, 'bench' | 'src' | 'dst' | 'group' | 'ranks' | 'grouping' | 'p2p' | 'peerAccess' | 'host' | 'hostAxis'>,
): string {
  const arm = Object.entries(f.hostAxis ?? {})
    .map(([k, v]) => ` ${k}=${v}`)
    .join('')
  const p2p = `${f.p2p ? ` p2p=${f.p2p}${f.peerAccess === false ? ' (no peer access)' : ''}` : ''}${arm}`
  const on = f.host ? `${f.host} ` : ''
  if (f.src !== undefined && f.dst !== undefined) return `${on}GPU${f.src}→GPU${f.dst} ${f.bench}${p2p}`
  const g = f.group ? ` group ${f.group}` : ''
  const r = f.ranks !== undefined ? ` (${f.ranks} ranks)` : ''
  return `${on}${f.bench}${g}${r}${f.grouping ? ` ${f.grouping}` : ''}${p2p}`
}

/** "within 'label' (range, source)", "4 % above 'label' …", "1.9× the 'label' …". */
export function citedText(c: CitedBand): string {
  const d = c.distance
  const where =
    c.position === 'inside'
      ? 'within'
      : c.position === 'tolerance'
        ? Math.abs(d) <= BAND_TOLERANCE
          ? `${fmtPct(d)} from the edge of (within tolerance)`
          : `${fmtPct(d)} from the edge (its CI reaches) of`
        : d > 0
          ? `${fmtRatio(d + 1)}× the top of`
          : `${fmtRatio(1 / (d + 1))}× below`
  const role = c.role === 'reference' ? "NCCL's model: " : c.role === 'nearest' ? 'nearest published: ' : ''
  const at = c.compared === 'floor α' ? '' : ` (${c.compared})`
  const differs = c.differs ? `; differs: ${c.differs.join(', ')}` : ''
  return `${role}${where} '${c.label}' (${c.range}, ${c.source}${differs})${at}`
}

/** What peer access costs on machines like this one: the P2P-on bands whose conditions all hold. */
function p2pWouldCost(f: FitCore, cite: CiteContext): string | undefined {
  const on = LATENCY_BANDS.filter((b) => b.kind === 'p2p-on' && b.metric === 'p2p-latency')
  const ids = new Set(
    citeFor(on, [], f, cite)
      .filter((c) => c.role === 'match')
      .map((c) => c.id),
  )
  const match = on.filter((b) => ids.has(b.id))
  const one = match[0]
  if (!one) return undefined
  if (match.length === 1) return `${bandRange(one)} ('${one.label}', ${one.source})`
  const span = {
    low: Math.min(...match.map((b) => b.low)),
    high: Math.max(...match.map((b) => b.high)),
    unit: 's' as const,
  }
  return `${bandRange(span)} (${match.length} published setups: ${match.map((b) => b.id).join(', ')})`
}

/** The verdict sentence of one judged fit: mechanism first, then the floor, evidence, bands and conflicts. */
export function verdictText(
  f: FitCore,
  j: (Omit<Judged, 'cite' | 'bands'> & { cite?: CiteContext }) | undefined,
): string {
  const ci = alphaCiText(f)
  const floor =
    `floor ${formatSeconds(f.alpha)} ${ci} (` +
    `${f.smallest.sizeBytes === null ? 'size not stated by the tool' : `smallest size ${f.smallest.sizeBytes} B`}: median ` +
    `${formatSeconds(f.smallest.median)}, min ${formatSeconds(f.smallest.min)})`
  if (!j) return `${subjectOf(f)}: ${floor}; no published band for this bench`
  const parts = [`${subjectOf(f)}: ${j.mechanism.text}. F${floor.slice(1)}`]
  const ev = j.evidence.filter((e) => e.strength < 3).map((e) => e.fact)
  if (ev.length) parts.push(`evidence: ${ev.join('; ')}`)
  const shown = j.cited.filter((c, i) => c.position !== 'outside' || i === 0 || c.role === 'reference')
  if (shown.length) parts.push(`bands: ${shown.map(citedText).join('; ')}`)
  else parts.push('no published band for this mechanism on this kind of machine')
  if (j.mechanism.id.startsWith('host-staged') && j.cite) {
    const on = p2pWouldCost(f, j.cite)
    if (on) parts.push(`with peer access this kind of machine copies in ${on}`)
  }
  for (const c of j.conflicts) parts.push(`conflict: ${c.text}`)
  return parts.join('; ')
}

/** Looks a band up by id (static or NCCL model `nccl-model-<link>-<proto>-n<ranks>`). */
export function bandById(id: string): Band | undefined {
  const m = /^nccl-model-(pci|nvlink)-(ll|simple)-n(\d+)$/.exec(id)
  const key = m ? `${m[1] === 'pci' ? 'PCI' : 'NVLink'}/${m[2] === 'll' ? 'LL' : 'Simple'}` : ''
  if (m && key in NCCL_MODEL) return ncclModelBand(key as NcclModelKey, Number(m[3]))
  return BANDS.find((b) => b.id === id)
}
