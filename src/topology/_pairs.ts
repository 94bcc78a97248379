/**
 * GPU pairs: link class (from topo -m, else derived from the PCI tree the way NVML names
 * levels), P2P status per capability, shared root complex / switch / NUMA node, the
 * expected small-copy latency band (docs/REFERENCE.md) and a ranking cost.
 */
import type { ParsedInputs } from './_inputs.ts'
import type { LatencyBand, P2PCapability, TopoGpu, TopoPair } from './_types.ts'

/** Published per-copy latency bands (16 B copy-engine copies, p2pBandwidthLatencyTest); each cites its source. */
export const BANDS: Record<'staged' | 'nvlink' | 'pcieSwitch' | 'hostBridge' | 'rootComplex', LatencyBand> = {
  staged: {
    lowS: 10e-6,
    highS: 15e-6,
    why: 'P2P unavailable: each copy is staged through host memory',
    reference:
      'P2P off 10.27–14.22 µs (luigifcruz/stelline hardware/asus-esc8000a-e12.md), ~14 µs ' +
      '(voipmonitor/rtx6kpro hardware/pcie-bandwidth.md), 12–15.23 µs in VMs without a GPUDirect ' +
      'clique (cloud-hypervisor PR 6235, noonghunna/club-3090 PR 890)',
  },
  nvlink: {
    lowS: 2.9e-6,
    highS: 3.5e-6,
    why: 'NVLink peer copy',
    reference: 'A100-SXM4 ×8 NVSwitch 2.94–3.49 µs (LLMServe/DistServe issue 3)',
  },
  pcieSwitch: {
    lowS: 0.7e-6,
    highS: 1.4e-6,
    why: 'P2P below a shared PCIe switch',
    reference:
      'RTX PRO 6000 behind Broadcom switches 0.71–0.74 µs same NUMA, 1.27–1.36 µs cross ' +
      '(voipmonitor/rtx6kpro hardware/asus-esc8000a-e13p-broadcom-switches.md)',
  },
  hostBridge: {
    lowS: 1.1e-6,
    highS: 1.2e-6,
    why: 'P2P through one PCIe host bridge',
    reference:
      'RTX 6000 Ada ×2 Threadripper PRO WRX90 (PHB) 1.12–1.14 µs (luigifcruz/stelline ' +
      'hardware/puget-threadripper-pro-wrx90.md)',
  },
  rootComplex: {
    lowS: 0.4e-6,
    highS: 1.5e-6,
    why: 'P2P across root complexes',
    reference:
      'RTX PRO 6000 dual EPYC Turin 0.36–0.52 µs (voipmonitor/rtx6kpro ' +
      'hardware/pcie-bandwidth.md); RTX 6000 Ada 2-socket Genoa NODE/SYS 1.21–1.44 µs ' +
      '(luigifcruz/stelline hardware/asus-esc8000a-e12.md)',
  },
}

/** NVLink bands by GPU model (name pattern → band); the only published one is A100's. */
const NVLINK_BY_MODEL: readonly { model: RegExp; name: string; band: LatencyBand }[] = [
  { model: /\bA100\b/i, name: 'A100', band: BANDS.nvlink },
]

/**
 * The NVLink band of a pair from its GPUs' names: the same model's band when one is published;
 * else the nearest (A100's, another model or generation) and a why that says so. `topo -m` names
 * no GPU: without a --query-gpu CSV, lspci or sysfs name the band is generic.
 */
export function nvlinkBand(names: readonly (string | undefined)[]): LatencyBand {
  const named = [...new Set(names.filter((n): n is string => n !== undefined && n !== ''))]
  const own = named.length === 1 ? NVLINK_BY_MODEL.find((m) => m.model.test(named[0] as string)) : undefined
  if (own) return { ...own.band, why: `${own.band.why}; ${own.name}: this GPU model's own published band` }
  const nearest = 'the nearest published band is A100-SXM4 ×8 NVSwitch'
  if (named.length === 0)
    return {
      ...BANDS.nvlink,
      why: `${BANDS.nvlink.why}; the input does not name the GPU model: generic band (${nearest})`,
    }
  return {
    ...BANDS.nvlink,
    why: `${BANDS.nvlink.why}; no published band for ${named.join(' / ')}: ${nearest}, another GPU model`,
  }
}

/** The NVLink band's source, and whether it is the GPUs' own model's (nvlinkBand). */
export function nvlinkSource(names: readonly (string | undefined)[]): string {
  const b = nvlinkBand(names)
  return `${b.reference}; ${b.why.replace(/^NVLink peer copy;? ?/, '')}`
}

/** Capabilities whose non-OK status means copies cannot go peer to peer. */
export const COPY_CAPS: readonly P2PCapability[] = ['read', 'write', 'pci']

/**
 * True when a pair's P2P is reported unavailable for copies (NS, CNS, GNS, TNS, DR, U), or
 * unavailable under a capability the capture does not name (`unknown`).
 */
export const p2pBlocked = (p: Pick<TopoPair, 'p2p'>): boolean =>
  [...COPY_CAPS, 'unknown' as const].some((c) => p.p2p[c] !== undefined && p.p2p[c] !== 'OK')

/** True when some copy capability is reported OK and none is blocked. */
export const p2pOk = (p: Pick<TopoPair, 'p2p'>): boolean => !p2pBlocked(p) && COPY_CAPS.some((c) => p.p2p[c] === 'OK')

/** The expected per-copy band of a pair from its link class, P2P status and (NVLink) GPU names. */
export function expectedBand(
  p: Pick<TopoPair, 'p2p' | 'link' | 'sameSwitch' | 'pciPath'>,
  names: readonly (string | undefined)[] = [],
): LatencyBand {
  if (p2pBlocked(p)) return BANDS.staged
  if (p.link === undefined && p.pciPath !== undefined) {
    // topo -mp hides NVLink: the PCIe path's band holds only if the pair has no NVLink.
    const band = expectedBand({ ...p, link: p.pciPath, pciPath: undefined })
    return { ...band, why: `${band.why}, if the pair has no NVLink (topo -mp shows PCIe paths only)` }
  }
  const l = p.link ?? ''
  const band = /^NV\d+$/.test(l)
    ? nvlinkBand(names)
    : l === 'PIX' || l === 'PXB' || (l === '' && p.sameSwitch)
      ? BANDS.pcieSwitch
      : l === 'PHB'
        ? BANDS.hostBridge
        : BANDS.rootComplex
  return p2pOk(p)
    ? band
    : { ...band, why: `${band.why}, if P2P works (status not reported); 10–15 µs if copies are host-staged` }
}

const LINK_COST: Record<string, number> = { PIX: 2, PXB: 3, PHB: 4, NODE: 5, SYS: 7, SOC: 7 }

/**
 * Ranking cost of a pair (lower is better): NV# 1, PIX 2, PXB 3, PHB 4, NODE 5, SYS 7,
 * unknown 5; +10 when P2P is reported unavailable (host-staged copies cost ~10× more);
 * +2 across NUMA nodes when the link class does not already say SYS.
 */
export function pairCost(p: Pick<TopoPair, 'p2p' | 'link' | 'sameNuma' | 'sameSwitch' | 'pciPath'>): number {
  const l = p.link ?? p.pciPath
  let cost = l === undefined ? (p.sameSwitch ? 2 : 5) : /^NV\d+$/.test(l) ? 1 : (LINK_COST[l] ?? 5)
  if (p2pBlocked(p)) cost += 10
  if (p.sameNuma === false && l !== 'SYS' && l !== 'SOC') cost += 2
  return cost
}

/** NVML's level name for two GPUs from their PCI paths (used when topo -m is absent). */
export function deriveLink(a: TopoGpu, b: TopoGpu): string | undefined {
  if (a.rootBus === undefined || b.rootBus === undefined) return undefined
  const sa = a.switchPath ?? []
  const sb = b.switchPath ?? []
  if (sa.length > 0 && sa[sa.length - 1] === sb[sb.length - 1]) return 'PIX'
  if (sa.some((s) => sb.includes(s))) return 'PXB'
  if (a.rootBus === b.rootBus) return 'PHB'
  if (a.numa !== undefined && b.numa !== undefined && a.numa !== b.numa) return 'SYS'
  return 'NODE'
}

const same = <T>(x: T | undefined, y: T | undefined): boolean | undefined =>
  x === undefined || y === undefined ? undefined : x === y

/** The pair's cell of a topo -m matrix (a full one before a PCIe-only topo -mp one). */
function linkFromMatrix(
  inp: ParsedInputs,
  a: number,
  b: number,
): { link: string; from: string; pciOnly: boolean } | undefined {
  const full = [...inp.topoM].sort((x, y) => Number(x.t.pciOnly !== undefined) - Number(y.t.pciOnly !== undefined))
  for (const { file, t } of full) {
    const l =
      t.links.find((x) => x.a === `GPU${a}` && x.b === `GPU${b}`) ??
      t.links.find((x) => x.a === `GPU${b}` && x.b === `GPU${a}`)
    if (l) return { link: l.link, from: `${file}:${l.line}`, pciOnly: t.pciOnly !== undefined }
  }
  return undefined
}

function p2pOf(inp: ParsedInputs, a: number, b: number, pair: TopoPair): void {
  for (const { file, t } of inp.p2p) {
    if (!t.capability) continue
    const cells = t.cells.filter(
      (c) => (c.a === `GPU${a}` && c.b === `GPU${b}`) || (c.a === `GPU${b}` && c.b === `GPU${a}`),
    )
    if (cells.length === 0 || pair.p2p[t.capability] !== undefined) continue
    const worst = cells.find((c) => c.status !== 'OK') ?? (cells[0] as (typeof cells)[number])
    pair.p2p[t.capability] = worst.status
    pair.from[`p2p.${t.capability}`] = `${file}:${worst.line}`
  }
}

/** Every unordered pair of GPUs with what is known about it. */
export function buildPairs(gpus: readonly TopoGpu[], inp: ParsedInputs): TopoPair[] {
  const pairs: TopoPair[] = []
  for (const ga of gpus) {
    for (const gb of gpus) {
      if (gb.index <= ga.index) continue
      const pair: TopoPair = { a: ga.index, b: gb.index, p2p: {}, cost: 0, from: {} }
      const m = linkFromMatrix(inp, ga.index, gb.index)
      const derived = m ? undefined : deriveLink(ga, gb)
      if (m?.pciOnly) [pair.pciPath, pair.from.pciPath] = [m.link, `${m.from} (nvidia-smi topo -mp: PCIe path only)`]
      else if (m) [pair.link, pair.from.link] = [m.link, m.from]
      else if (derived) [pair.link, pair.from.link] = [derived, 'derived from the PCI tree (no nvidia-smi topo -m)']
      p2pOf(inp, ga.index, gb.index, pair)
      const rc = same(ga.rootBus, gb.rootBus)
      if (rc !== undefined) pair.sameRootComplex = rc
      if (ga.switchPath && gb.switchPath) pair.sameSwitch = ga.switchPath.some((s) => gb.switchPath?.includes(s))
      const nu = same(ga.numa, gb.numa)
      if (nu !== undefined) pair.sameNuma = nu
      pair.expected = expectedBand(pair, [ga.name, gb.name])
      pair.cost = pairCost(pair)
      pairs.push(pair)
    }
  }
  return pairs
}
