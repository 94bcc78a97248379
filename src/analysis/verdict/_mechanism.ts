/**
 * The mechanism behind a p2p copy floor, from evidence in order of strength: what the tool
 * reported (P2P disabled, CAN/CANNOT access, `topo -p2p` status), then the topology (same
 * GPU, link class, VM, GPU model), then the measured value and its CI against each
 * mechanism's range. The ranges come from the published bands (lowest low to highest high of
 * each kind), widened by BAND_TOLERANCE. Evidence that disagrees is kept as a conflict.
 */

import { BAND_TOLERANCE, LATENCY_BANDS } from '../../bands/index.ts'
import { formatRate, formatSeconds } from '../../units/index.ts'
import { stockNoP2p, stockNoP2pEvidence } from '../_consumer.ts'
import { beyondPcie, overPcieText } from '../_nvlink.ts'
import type { Band, Conflict, Evidence, Fit, Mechanism, MechanismId } from '../_types.ts'
import { MECHANISM_WORDS, p2pPcieWords } from '../_words.ts'
import type { CiteContext } from './_cite.ts'
import { linkKey } from './_cite.ts'
import type { MachineContext } from './_context.ts'

/** Lowest low and highest high of some latency bands (seconds). */
function span(pred: (b: Band) => boolean): { low: number; high: number } {
  const bs = LATENCY_BANDS.filter((b) => b.metric === 'p2p-latency' && pred(b))
  return { low: Math.min(...bs.map((b) => b.low)), high: Math.max(...bs.map((b) => b.high)) }
}
const nv = (b: Band): boolean => b.links?.every((l) => l === 'NV') === true

/** Each mechanism's range of a 16 B copy latency, from the published bands. */
export const RANGES = {
  'p2p-pcie': span((b) => b.kind === 'p2p-on' && !nv(b)),
  'p2p-nvlink': span((b) => b.kind === 'p2p-on' && nv(b)),
  'host-staged': span((b) => b.kind === 'host-staged'),
  'same-gpu': span((b) => b.kind === 'same-gpu'),
} as const

const lowEdge = (r: { low: number }): number => r.low * (1 - BAND_TOLERANCE)
const highEdge = (r: { high: number }): number => r.high * (1 + BAND_TOLERANCE)
const rangeText = (r: { low: number; high: number }): string =>
  `${formatSeconds(r.low)}–${formatSeconds(r.high)} ± ${BAND_TOLERANCE * 100} %`

/** What a pair's evidence says, before bands are cited. */
export interface PairJudgement {
  mechanism: Mechanism
  evidence: Evidence[]
  conflicts: Conflict[]
  cite: CiteContext
}

type PairFit = Pick<Fit, 'bench' | 'src' | 'dst' | 'p2p' | 'peerAccess' | 'alpha' | 'alphaCi' | 'linkClass'>

const NOT_OK = (s: string): boolean => s !== 'OK'

/** The mechanism a value alone points at, when no tool said. */
function byValue(v: number, lc: string | undefined): MechanismId {
  if (lc && /^NV/i.test(lc) && v <= highEdge(RANGES['p2p-nvlink'])) return 'p2p-nvlink'
  if (v <= highEdge(RANGES['p2p-pcie'])) return 'p2p-pcie'
  if (v >= lowEdge(RANGES['host-staged']))
    return v > highEdge(RANGES['host-staged']) ? 'host-staged-slow' : 'host-staged'
  return 'undetermined'
}

/** Judges one pair fit (src ≠ dst, or the diagonal) against the machine context. */
export function judgePair(f: PairFit, ctx: MachineContext): PairJudgement {
  const src = f.src as number
  const dst = f.dst as number
  const ev: Evidence[] = []
  const conflicts: Conflict[] = []
  const cite: CiteContext = {
    ...(ctx.gpuFamily ? { gpuFamily: ctx.gpuFamily } : {}),
    ...(ctx.vm ? { vm: ctx.vm.value } : {}),
    ...(ctx.nvlink ? { nvlink: ctx.nvlink.value } : {}),
    ...(ctx.attach ? { attach: ctx.attach.value } : {}),
  }
  if (ctx.gpuName) ev.push({ strength: 2, fact: `GPU model ${ctx.gpuName.value}`, source: ctx.gpuName.source })
  if (ctx.vm)
    ev.push({
      strength: 2,
      fact: ctx.vm.value ? 'a VM (detected or declared)' : 'bare metal (no hypervisor seen)',
      source: ctx.vm.source,
    })
  const measured = `floor ${formatSeconds(f.alpha)} [${formatSeconds(f.alphaCi[0])}, ${formatSeconds(f.alphaCi[1])}]`
  if (src === dst) {
    ev.unshift({ strength: 2, fact: `source and destination are the same GPU (GPU${src})`, source: 'the pair itself' })
    const r = RANGES['same-gpu']
    ev.push({ strength: 3, fact: `${measured}; published same-GPU copies ${rangeText(r)}`, source: 'this set' })
    return { mechanism: { id: 'same-gpu', text: MECHANISM_WORDS['same-gpu'] }, evidence: ev, conflicts, cite }
  }
  const link = linkEvidence(src, dst, f, ctx, ev)
  if (link.captured) cite.links = [link.captured]
  const tool = toolEvidence(src, dst, f, ctx, ev, conflicts)
  const toolSays = tool.staged ?? tool.peer
  let { id, decided } = mechanismBy(tool, link, f, ctx, ev)
  // A GeForce whose stock driver disables P2P: weak evidence, where no tool said.
  const stock = toolSays ? undefined : stockNoP2pEvidence(ctx.gpuName?.value, ctx.gpuName?.source ?? '')
  if (stock) {
    ev.push(stock)
    if (id === 'undetermined') id = 'host-staged'
    else if (id === 'p2p-pcie')
      conflicts.push({
        text: `${stockNoP2p(ctx.gpuName?.value)}'s stock driver disables P2P, but copies cost ${formatSeconds(f.alpha)}, as P2P copies do: a P2P-enabled (patched) driver is likely in use`,
        facts: [stock.fact, measured],
      })
  }
  valueEvidence(id, f, measured, tool, ev, conflicts)
  const { lc } = link
  if (lc && /^NV/i.test(lc) && id === 'p2p-pcie') id = 'p2p-nvlink'
  if (id === 'p2p-nvlink' || (lc && /^NV/i.test(lc))) cite.nvlink = true
  const mechanism = mechanismOf(id, link.captured)
  if (id === 'p2p-nvlink' && decided) mechanism.text += ` (${decided})`
  return { mechanism, evidence: ev, conflicts, cite }
}

/** What the pair's link says: its captured class, else its own P2P bandwidth, else the machine's NVLink. */
interface Link {
  captured?: string
  bw?: ReturnType<NonNullable<MachineContext['p2pBandwidth']>>
  decided?: string
  /** The link class the mechanism reads ('NV' where bandwidth or the machine says NVLink). */
  lc?: string
}

function linkEvidence(src: number, dst: number, f: PairFit, ctx: MachineContext, ev: Evidence[]): Link {
  const captured = f.linkClass ?? ctx.linkClass(src, dst)?.value
  // Without a captured link class, the pair's own P2P bandwidth decides before the machine's.
  const bw = captured ? undefined : ctx.p2pBandwidth?.(src, dst)
  let decided: string | undefined
  if (captured)
    ev.push({ strength: 2, fact: `link class ${captured}`, source: ctx.linkClass(src, dst)?.source ?? 'topology' })
  else if (bw && beyondPcie(bw.value)) {
    ev.push({ strength: 2, fact: overPcieText(bw), source: bw.source })
    decided = `by its measured bandwidth, ${formatRate(bw.value)}`
  } else if (ctx.nvlink?.value) ev.push({ strength: 2, fact: 'NVLink-connected GPUs', source: ctx.nvlink.source })
  const lc = captured ?? (decided || ctx.nvlink?.value ? 'NV' : undefined)
  return { captured, bw, decided, lc }
}

interface Tool {
  staged?: Evidence
  peer?: Evidence
}

/** What the tools reported (P2P disabled, CAN/CANNOT access, topo -p2p), put first in the evidence. */
function toolEvidence(
  src: number,
  dst: number,
  f: PairFit,
  ctx: MachineContext,
  ev: Evidence[],
  conflicts: Conflict[],
): Tool {
  const tool: Tool = {}
  if (f.p2p === 'disabled')
    tool.staged = {
      strength: 1,
      fact: 'the tool measured this with P2P disabled: copies go through host memory',
      source: `${f.bench} P2P=Disabled rows`,
    }
  const access = f.peerAccess ?? ctx.peerAccess(src, dst)?.value
  const accessSrc = ctx.peerAccess(src, dst)?.source ?? `${f.bench} rows`
  if (access === false)
    tool.staged ??= { strength: 1, fact: `Device=${src} CANNOT Access Peer Device=${dst}`, source: accessSrc }
  if (access === true && f.p2p !== 'disabled')
    tool.peer = { strength: 1, fact: `Device=${src} CAN Access Peer Device=${dst}`, source: accessSrc }
  const status = ctx.p2pStatus(src, dst)
  if (status) {
    const e: Evidence = { strength: 1, fact: `nvidia-smi topo -p2p: ${status.value}`, source: status.source }
    if (NOT_OK(status.value)) {
      if (f.p2p !== 'disabled' && tool.peer)
        conflicts.push({
          text: `the tool reports peer access, but nvidia-smi topo -p2p says ${status.value} for this pair`,
          facts: [tool.peer.fact, e.fact],
        })
      if (!tool.peer) tool.staged ??= e
      else ev.push(e)
    } else if (f.p2p !== 'disabled' && access !== false) tool.peer ??= e
    else ev.push(e)
  }
  if (tool.staged) ev.unshift(tool.staged)
  if (tool.peer) ev.unshift(tool.peer)
  return tool
}

/** The mechanism the tools, else the link, else the value point at. */
function mechanismBy(
  tool: Tool,
  link: Link,
  f: PairFit,
  ctx: MachineContext,
  ev: Evidence[],
): { id: MechanismId; decided?: string } {
  const v = f.alpha
  const { lc, decided } = link
  if (tool.staged) return { id: v > highEdge(RANGES['host-staged']) ? 'host-staged-slow' : 'host-staged', decided }
  if (tool.peer && !lc && ctx.vm?.value !== true && !link.bw && nvlinkByLatency(f.alphaCi)) {
    // No link class, no bandwidth: a P2P floor beyond every PCIe one and inside NVLink's range.
    ev.push({
      strength: 2,
      fact:
        `P2P floor ${formatSeconds(v)}: above every published PCIe P2P copy (${rangeText(RANGES['p2p-pcie'])}), ` +
        `within NVLink's (${rangeText(RANGES['p2p-nvlink'])}); no bandwidth or link class to confirm it`,
      source: 'this set',
    })
    return { id: 'p2p-nvlink', decided: 'by its latency alone' }
  }
  if (tool.peer) return { id: lc && /^NV/i.test(lc) ? 'p2p-nvlink' : 'p2p-pcie', decided }
  return { id: byValue(v, lc), decided }
}

/** The measured value against the mechanism's range, and its conflicts with what the tools said. */
function valueEvidence(
  id: MechanismId,
  f: PairFit,
  measured: string,
  tool: Tool,
  ev: Evidence[],
  conflicts: Conflict[],
): void {
  const v = f.alpha
  const toolSays = tool.staged ?? tool.peer
  const staged = RANGES['host-staged']
  const p2pRange = id === 'p2p-nvlink' ? RANGES['p2p-nvlink'] : RANGES['p2p-pcie']
  const ownRange = id === 'host-staged' || id === 'host-staged-slow' ? staged : p2pRange
  ev.push({
    strength: 3,
    fact:
      id === 'undetermined'
        ? `${measured}; published P2P ${rangeText(RANGES['p2p-pcie'])}, host-staged ${rangeText(staged)}`
        : `${measured}; published ${id.startsWith('host') ? 'host-staged' : 'P2P'} copies ${rangeText(ownRange)}`,
    source: 'this set',
  })
  if (toolSays && id.startsWith('host') && f.alphaCi[1] < lowEdge(staged))
    conflicts.push({
      text:
        `no peer access, but copies cost ${formatSeconds(v)}, ` +
        `${v <= highEdge(RANGES['p2p-pcie']) ? 'as P2P copies do' : 'less than any published host-staged copy'} (host-staged ` +
        `${rangeText(staged)}): check which matrix the rows came from and verify the copied data`,
      facts: [toolSays.fact, measured],
    })
  if (tool.peer && !tool.staged && f.alphaCi[0] > highEdge(p2pRange))
    conflicts.push({
      text:
        `peer access reported, but copies cost ${formatSeconds(v)}` +
        (v >= lowEdge(staged)
          ? ', as host-staged copies do'
          : `, more than any published P2P copy (${rangeText(p2pRange)})`) +
        ': check ACS/IOMMU (P2P requests redirected through the root complex), the driver, and ' +
        `whether P2P really is in use`,
      facts: [tool.peer.fact, measured],
    })
}

/** A floor CI wholly above every published PCIe P2P floor and inside the NVLink range (± BAND_TOLERANCE). */
function nvlinkByLatency(ci: readonly [number, number]): boolean {
  const nvl = RANGES['p2p-nvlink']
  return ci[0] > highEdge(RANGES['p2p-pcie']) && ci[0] >= lowEdge(nvl) && ci[1] <= highEdge(nvl)
}

/** A mechanism with its plain words. */
export function mechanismOf(id: MechanismId, lc?: string, causes?: string[]): Mechanism {
  const text =
    id === 'p2p-pcie'
      ? p2pPcieWords(lc)
      : id === 'p2p-nvlink'
        ? `${MECHANISM_WORDS[id]}${lc ? ` (${lc})` : ''}`
        : id === 'host-staged-slow' && causes?.length
          ? `${MECHANISM_WORDS[id]} (likely: ${causes.join('; or ')})`
          : MECHANISM_WORDS[id]
  return { id, text, ...(lc ? { linkClass: lc } : {}), ...(causes?.length ? { causes } : {}) }
}

/** The latency bands a pair mechanism cites (by kind), and the references (none for pairs). */
export function pairCandidates(id: MechanismId, same: boolean): Band[] {
  const kinds: Record<MechanismId, Band['kind'][]> = {
    'same-gpu': ['same-gpu'],
    'p2p-pcie': ['p2p-on'],
    'p2p-nvlink': ['p2p-on'],
    'host-staged': ['host-staged'],
    'host-staged-slow': ['host-staged'],
    undetermined: ['p2p-on', 'host-staged'],
    'nccl-p2p': [],
    'nccl-shm': [],
    'nccl-net': [],
    'nccl-nvls': [],
    'nccl-mnnvl': [],
  }
  const k = same ? ['same-gpu'] : kinds[id]
  return LATENCY_BANDS.filter((b) => b.metric === 'p2p-latency' && k.includes(b.kind))
}

/** Causes of a slow host-staged floor the evidence supports, best supported first. */
export function slowCauses(opts: { linkClass?: string; sameGpuSlow?: boolean; oneGpu?: number }): string[] {
  const out: string[] = []
  if (opts.sameGpuSlow)
    out.push('per-copy driver overhead such as the WDDM driver model on Windows (the same-GPU copies are slow too)')
  if (opts.linkClass && linkKey(opts.linkClass) === 'SYS') out.push('cross-socket staging (the pair is SYS)')
  if (opts.oneGpu !== undefined)
    out.push(`GPU${opts.oneGpu}'s own path (every slow pair involves it: slot, link width, its root port)`)
  out.push('contention (other copies or traffic through the host bridge or host memory at the same time)')
  return out
}
