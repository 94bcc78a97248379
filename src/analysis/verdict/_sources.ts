/**
 * What a set's sources say about each launch: NCCL's own account (NCCL_DEBUG=INFO lines kept
 * by a sweep or read by `import`) and where it ran (hosts, ranks, the command line's settings).
 */

/** NCCL's account of one launch, as the sweep and the importer record it. */
export interface NcclSeen {
  transports: string[]
  channels?: number
  algos: string[]
  protos: string[]
  version?: string
  /** NCCL INFO lines seen; 0 when only nccl-tests' bare `NCCL version` line was (absent: not recorded). */
  infoLines?: number
}

/** What the files of a series say about where it ran: hosts, ranks, the command line's settings. */
export interface LaunchSeen {
  /** Hosts the rank lines name (or NCCL INFO lines' host prefixes), first seen first. */
  named: string[]
  /** Hosts in all: the command line's count when it names more than the rank lines. */
  count: number
  /** Where `count` comes from. */
  countFrom: string
  /** Ranks per host of the named hosts (rank lines), when listed. */
  ranksPerHost?: Record<string, number>
  /** The rank lines were cut short (fewer listed than the run had). */
  listCut?: { listed: number; ranks: number; from: string }
  /** NCCL_* / FI_* / UCX_* settings on the command line. */
  env: Record<string, string>
}

/** A source of the manifest, as far as the analysis reads it. */
export interface SourceLike {
  raw: string
  format: string
  meta: Record<string, unknown>
  nccl?: NcclSeen & { hosts?: string[] }
}

interface RunMetaLike {
  hosts?: string[]
  devices?: { host?: string }[]
  ranks?: number
  ranksFrom?: string
  ranksListed?: number
  launch?: { hosts?: number; ranks?: number; ranksFrom?: string; env?: Record<string, string> }
}

/** The launch facts of one source (its one run, or its runs merged). */
export function launchOfSource(src: SourceLike): LaunchSeen | undefined {
  const runs = (Array.isArray(src.meta.runs) ? src.meta.runs : [src.meta]) as RunMetaLike[]
  const named: string[] = []
  const perHost: Record<string, number> = {}
  const env: Record<string, string> = {}
  let cmdHosts = 0
  let listCut: LaunchSeen['listCut']
  for (const r of runs) {
    for (const h of r.hosts ?? []) if (!named.includes(h)) named.push(h)
    for (const d of r.devices ?? []) if (d.host) perHost[d.host] = (perHost[d.host] ?? 0) + (runs.length === 1 ? 1 : 0)
    Object.assign(env, r.launch?.env ?? {})
    cmdHosts = Math.max(cmdHosts, r.launch?.hosts ?? 0)
    if (r.ranksListed !== undefined && r.ranks !== undefined && r.ranks > r.ranksListed)
      listCut ??= { listed: r.ranksListed, ranks: r.ranks, from: r.ranksFrom ?? '' }
  }
  const fromInfo = named.length === 0
  if (fromInfo) for (const h of src.nccl?.hosts ?? []) named.push(h)
  if (named.length === 0 && cmdHosts === 0 && Object.keys(env).length === 0) return undefined
  const count = Math.max(named.length, cmdHosts)
  const countFrom =
    cmdHosts > named.length
      ? `the command line (${cmdHosts} hosts; the rank lines name ${named.length})`
      : fromInfo
        ? 'the host names of its NCCL INFO lines'
        : 'the rank lines'
  const out: LaunchSeen = { named, count, countFrom, env }
  if (runs.length === 1 && Object.keys(perHost).length) out.ranksPerHost = perHost
  if (listCut) out.listCut = listCut
  return out
}

/** The NCCL accounts of several launches as one: every transport, algorithm and protocol seen. */
export function mergeSeen(list: readonly NcclSeen[]): NcclSeen {
  const uniq = (f: (a: NcclSeen) => string[]): string[] => [...new Set(list.flatMap(f))].sort()
  const out: NcclSeen = {
    transports: uniq((a) => a.transports),
    algos: uniq((a) => a.algos),
    protos: uniq((a) => a.protos),
  }
  const ch = list.map((a) => a.channels).filter((c): c is number => c !== undefined)
  if (ch.length) out.channels = Math.max(...ch)
  const v = list.find((a) => a.version)?.version
  if (v) out.version = v
  if (list.every((a) => a.infoLines !== undefined)) out.infoLines = list.reduce((n, a) => n + (a.infoLines ?? 0), 0)
  return out
}
