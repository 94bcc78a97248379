/**
 * What the analysis knows about the machine a set was measured on, each fact with where it
 * was read: the GPU model, a VM detected by the topology capture or declared in the manifest,
 * link classes and `topo -p2p` status per pair, the CPU vendor, how the GPUs attach (own root
 * ports or PCIe switches), NCCL's own account of each launch (NCCL_DEBUG=INFO lines kept by a
 * sweep or read by `import`), and the peer access the set's own p2p rows report.
 */
import { eachRow, isIndexed } from '../../model/index.ts'
import type { ReadSet } from '../../resultset/index.ts'
import type { TopologyView } from '../_join.ts'
import { beyondPcie, overPcieText } from '../_nvlink.ts'
import type { NcclTransport } from '../_types.ts'
import type { Series } from '../fit/_series.ts'
import type { LaunchSeen, NcclSeen, SourceLike } from './_sources.ts'
import { launchOfSource, mergeSeen } from './_sources.ts'

/** A fact and where it came from. */
export interface Sourced<T> {
  value: T
  source: string
}

/** The machine, as far as the set and its topology say. */
export interface MachineContext {
  gpuName?: Sourced<string>
  gpuFamily?: string
  /** true: VM detected or declared; false: the capture says bare metal; absent: unknown. */
  vm?: Sourced<boolean>
  cpuVendor?: Sourced<string>
  /** `direct` when no pair is PIX/PXB (own root ports), `switch` when some are. */
  attach?: Sourced<'direct' | 'switch'>
  /** True when some pair is NV# (NVLink or NVSwitch). */
  nvlink?: Sourced<boolean>
  /** Number of GPUs the topology capture lists (else the set's p2p rows cover). */
  gpus?: number
  linkClass(a: number, b: number): Sourced<string> | undefined
  p2pStatus(a: number, b: number): Sourced<string> | undefined
  /** Peer access between two GPUs as the set's own p2p rows say (CAN/CANNOT lines). */
  peerAccess(a: number, b: number): Sourced<boolean> | undefined
  /** The highest P2P-enabled unidirectional bandwidth the set measured between two GPUs (B/s). */
  p2pBandwidth?(a: number, b: number): Sourced<number> | undefined
  /** NCCL's account of the launches a series came from (merged), when printed. */
  nccl(s: Pick<Series, 'origins'>): Sourced<NcclSeen> | undefined
  /** GPUs per process of the launches a series came from (nccl-tests `nGpus`), when stated. */
  gpusPerProcess(s: Pick<Series, 'origins'>): number | undefined
  /** The hosts the launches of a series ran on and the settings their command lines passed, as their files say. */
  launch?(s: Pick<Series, 'origins'>): Sourced<LaunchSeen> | undefined
}

/** The family of a GPU name as nvidia-smi prints it, in the spelling the bands use. */
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

/** The family a transport string of NCCL's belongs to ("P2P/IPC" → P2P, "NET/IB/GDRDMA" → NET). */
export function transportFamily(t: string): NcclTransport | undefined {
  const head = t.split('/')[0]?.toUpperCase()
  return head === 'P2P' || head === 'SHM' || head === 'NET' || head === 'NVLS' ? head : undefined
}

/** GPU names of NVLink-connected modules (SXM boards, NVL parts). */
const SXM = /SXM|\bNVL\b/i

const pairKey = (a: number, b: number): string => `${Math.min(a, b)}-${Math.max(a, b)}`

interface SweepLike {
  points?: Record<string, { nccl?: NcclSeen }>
}

/** The GPU name the set's manifest or its sources name first. */
function gpuNameOf(set: ReadSet): Sourced<string> | undefined {
  const host = set.manifest.host?.gpus?.find((g) => g.name)?.name
  if (host) return { value: host, source: 'manifest host.gpus' }
  for (const s of (set.manifest.sources ?? []) as SourceLike[]) {
    const devices = s.meta.devices as { name?: string }[] | undefined
    const name = devices?.find((d) => d.name)?.name
    if (name) return { value: name, source: `${s.raw} (${s.format} device lines)` }
  }
  return undefined
}

/**
 * Peer access per unordered pair from the set's rows (false wins: one CANNOT line is enough).
 * Only rows measured with P2P requested say whether the pair can have it: a P2P-disabled row's
 * `peer=0` (native/README.md) says peer access was turned off for that copy, not that the
 * pair lacks it.
 */
function peerAccessOf(set: ReadSet): Map<string, Sourced<boolean>> {
  const out = new Map<string, Sourced<boolean>>()
  eachRow(set.rows, (r) => {
    if (r.peerAccess === undefined || r.src === null || r.dst === null || r.src === r.dst) return
    if (r.p2p === 'disabled') return
    const k = pairKey(r.src, r.dst)
    const had = out.get(k)
    if (had && had.value === false) return
    const word = r.peerAccess ? 'CAN' : 'CANNOT'
    out.set(k, { value: r.peerAccess, source: `${r.source.file}: Device=${r.src} ${word} Access Peer Device=${r.dst}` })
  })
  return out
}

/** The highest P2P-enabled unidirectional bandwidth per unordered pair (p2p.bw_uni rows). */
function p2pBandwidthOf(set: ReadSet): Map<string, Sourced<number>> {
  const out = new Map<string, Sourced<number>>()
  eachRow(set.rows, (r) => {
    if (r.bench !== 'p2p.bw_uni' || r.p2p !== 'enabled' || r.peerAccess === false) return
    if (r.src === null || r.dst === null || r.src === r.dst || r.unit !== 'B/s') return
    const k = pairKey(r.src, r.dst)
    if ((out.get(k)?.value ?? 0) >= r.value) return
    out.set(k, {
      value: r.value,
      source: `${r.source.file}: P2P=Enabled unidirectional bandwidth GPU${r.src}→GPU${r.dst}`,
    })
  })
  return out
}

/** Builds the machine context of a set and its topology view (pure). */
export function machineContext(set: ReadSet, topology: TopologyView | null | undefined): MachineContext {
  const gpuName = gpuNameOf(set) ?? topology?.gpuName
  const family = gpuFamilyOf(gpuName?.value)
  const declared = set.manifest.host?.vm
  const vm: Sourced<boolean> | undefined =
    typeof declared === 'boolean' ? { value: declared, source: 'manifest host.vm (declared)' } : topology?.vm
  const access = peerAccessOf(set)
  const bandwidth = p2pBandwidthOf(set)
  const gpus = topology?.gpus ?? p2pGpuCount(set)
  return {
    ...(gpuName ? { gpuName } : {}),
    ...(family ? { gpuFamily: family } : {}),
    ...(vm ? { vm } : {}),
    ...(topology?.cpuVendor ? { cpuVendor: topology.cpuVendor } : {}),
    ...(gpus ? { gpus } : {}),
    linkClass: (a, b) => {
      const l = topology?.linkClass(a, b)
      return l ? { value: l, source: topology?.source ?? 'topology' } : undefined
    },
    p2pStatus: (a, b) => topology?.p2pStatus?.(a, b),
    peerAccess: (a, b) => access.get(pairKey(a, b)),
    p2pBandwidth: (a, b) => bandwidth.get(pairKey(a, b)),
    ...seriesFacts(set),
    ...linksOf(topology, bandwidth, gpuName),
  }
}

/** The GPUs the set's p2p rows cover, when more than one (the representative rows of IndexedRows say as much as every row). */
function p2pGpuCount(set: ReadSet): number | undefined {
  const p2pGpus = new Set<number | null>()
  for (const r of isIndexed(set.rows) ? set.rows.reps : set.rows)
    if (r.src !== null && r.bench.startsWith('p2p.')) p2pGpus.add(r.src).add(r.dst)
  return p2pGpus.size > 1 ? p2pGpus.size : undefined
}

/** What the files a series came from say: NCCL's account, the launch, GPUs per process. */
function seriesFacts(set: ReadSet): Pick<MachineContext, 'nccl' | 'launch' | 'gpusPerProcess'> {
  const sources = new Map(((set.manifest.sources ?? []) as SourceLike[]).map((s) => [s.raw, s]))
  const points = (set.manifest.extra?.sweep as SweepLike | undefined)?.points ?? {}
  return {
    nccl: (s) => {
      const seen: NcclSeen[] = []
      const from: string[] = []
      for (const o of s.origins) {
        const acc = points[o]?.nccl ?? sources.get(o)?.nccl
        if (acc) {
          seen.push(acc)
          from.push(points[o] ? `sweep point ${o}` : o)
        }
      }
      return seen.length ? { value: mergeSeen(seen), source: `NCCL_DEBUG=INFO lines of ${from.join(', ')}` } : undefined
    },
    launch: (s) => {
      for (const o of s.origins) {
        const src = sources.get(o)
        const l = src ? launchOfSource(src) : undefined
        if (l) return { value: l, source: `${o} (${src?.format})` }
      }
      return undefined
    },
    gpusPerProcess: (s) => {
      for (const o of s.origins) {
        const banner = sources.get(o)?.meta.banner as { nGpus?: number } | undefined
        if (typeof banner?.nGpus === 'number') return banner.nGpus
      }
      return undefined
    },
  }
}

/**
 * NVLink and how the GPUs attach: from the topology's link classes; else NVLink when a pair
 * measured more than PCIe can carry (measured numbers before the name); else from an SXM name.
 */
function linksOf(
  topology: TopologyView | null | undefined,
  bandwidth: Map<string, Sourced<number>>,
  gpuName: Sourced<string> | undefined,
): Pick<MachineContext, 'nvlink' | 'attach'> {
  const classes = topology?.classes ?? []
  const fastest = [...bandwidth.values()].sort((x, y) => y.value - x.value)[0]
  if (classes.length) {
    const src = topology?.source ?? 'topology'
    return {
      nvlink: { value: classes.some((c) => /^NV/i.test(c)), source: src },
      attach: { value: classes.some((c) => c === 'PIX' || c === 'PXB') ? 'switch' : 'direct', source: src },
    }
  }
  if (fastest && beyondPcie(fastest.value))
    return { nvlink: { value: true, source: `${fastest.source}: ${overPcieText(fastest)}` } }
  if (gpuName && SXM.test(gpuName.value))
    return {
      nvlink: { value: true, source: `${gpuName.source}: ${gpuName.value} (SXM modules are connected by NVLink)` },
    }
  return {}
}
