/**
 * NCCL's own account of a run, read from its NCCL_DEBUG=INFO lines: the transports its
 * channels use (P2P/IPC, P2P/CUMEM, SHM, NET/IB, NET/Socket …), the channel count, the
 * algorithm and protocol its tuner picked per size, env settings it acknowledged, and
 * its version. Line shapes (from NCCL's INFO() format strings, as seen in published logs):
 *   host:pid:tid [dev] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC
 *   host:pid:tid [dev] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA
 *   … NCCL INFO Channel 00/02 :    0   1   2   3          (a ring; 02 = channel count)
 *   … NCCL INFO 2 coll channels, 2 collnet channels, 0 nvls channels, 2 p2p channels, 2 p2p channels per peer
 *   … NCCL INFO AllReduce: 4096 Bytes -> Algo Tree proto LL channel{Lo..Hi}={0..1}
 *   … NCCL INFO 1048576 Bytes -> Algo 1 proto 2 time 36.5          (older NCCL: numeric ids)
 *   … NCCL INFO NCCL_PROTO set by environment to LL
 *   … NCCL INFO NCCL version 2.21.5+cuda12.4
 *   … NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/AWS Libfabric/0/GDRDMA   (aws-ofi-nccl)
 * mpirun --tag-output prefixes ("[1,0]<stdout>:") are ignored; the `host:pid:tid` prefixes' hosts
 * are kept.
 */

import type { NcclAccount } from '../model/index.ts'

/** What NCCL said about one point (the type lives with the result-set model, which stores it). */
export type { NcclAccount }

// Numeric ids of older NCCL tuner lines (src/include/nccl_common.h order).
const ALGOS = ['Tree', 'Ring', 'CollNetDirect', 'CollNetChain', 'NVLS', 'NVLSTree', 'PAT']
const PROTOS = ['LL', 'LL128', 'Simple']
const NAMES = new Map([...ALGOS, ...PROTOS].map((n) => [n.toUpperCase(), n]))

const norm = (s: string): string => NAMES.get(s.toUpperCase()) ?? s

/** Collects NCCL INFO lines (any order, both streams) into an account. */
export class NcclInfoCollector {
  private transports = new Set<string>()
  private algos = new Set<string>()
  private protos = new Set<string>()
  private choices = new Map<string, NcclAccount['choices'][number]>()
  private envSet: Record<string, string> = {}
  private channels: number | undefined
  private perChannel = new Map<string, Set<string>>()
  private version: string | undefined
  private infoLines = 0
  private hosts = new Set<string>()

  /** Feeds one output line; lines that are not NCCL INFO lines are ignored. */
  line(raw: string): void {
    const at = raw.indexOf('NCCL INFO ')
    if (at < 0) {
      // nccl-tests' own bare `NCCL version 2.21.5+cuda12.4` line (after any tag or label prefix).
      const v = /(?:^|[>:]\s?)NCCL version (\d+\.\d+\.\d+\S*)\s*$/.exec(raw)
      if (v) this.version ??= v[1]
      return
    }
    this.infoLines++
    const h = /(?:^|[\s:>])([\w.-]+):\d+:\d+ \[\d+\] NCCL INFO $/.exec(raw.slice(0, at + 10))
    if (h && this.hosts.size < 4096) this.hosts.add(h[1] as string)
    const t = raw.slice(at + 10).trim()
    let m: RegExpExecArray | null
    if ((m = /^Channel (\d+)\/\d+ : .* via (\S+(?: Libfabric\S*)?(?: pointer)?)/.exec(t)))
      this.via(m[1] as string, transport(m[2] as string))
    else if ((m = /^Channel \d+\/(\d+) :(?:\s+\d+)+\s*$/.exec(t))) this.channel(Number(m[1]))
    else if ((m = /^(\d+) coll channels/.exec(t))) this.channel(Number(m[1]))
    else if ((m = /^(?:(\w+): )?(\d+) Bytes -> Algo (\w+) proto (\w+)/.exec(t)))
      this.choice(m[1] ?? '', Number(m[2]), m[3] as string, m[4] as string)
    else if ((m = /^(NCCL_\w+) set by environment to (.*?)\.?$/.exec(t)))
      this.envSet[m[1] as string] = (m[2] as string).trim()
    else if ((m = /^NCCL version (\S+)/.exec(t))) this.version = m[1]
  }

  private via(channel: string, t: string): void {
    this.transports.add(t)
    const set = this.perChannel.get(channel) ?? new Set<string>()
    if (this.perChannel.size < 64 || this.perChannel.has(channel)) this.perChannel.set(channel, set.add(t))
  }

  private channel(n: number): void {
    if (Number.isFinite(n) && n > 0) this.channels = Math.max(this.channels ?? 0, n)
  }

  private choice(collective: string, bytes: number, algoRaw: string, protoRaw: string): void {
    const algo = /^\d+$/.test(algoRaw) ? (ALGOS[Number(algoRaw)] ?? algoRaw) : norm(algoRaw)
    const proto = /^\d+$/.test(protoRaw) ? (PROTOS[Number(protoRaw)] ?? protoRaw) : norm(protoRaw)
    this.algos.add(algo)
    this.protos.add(proto)
    const key = `${collective}:${bytes}`
    if (!this.choices.has(key) && this.choices.size < 64) this.choices.set(key, { collective, bytes, algo, proto })
  }

  /** The account, or undefined when neither an NCCL INFO line nor a version line was seen (infoLines 0: only the version line). */
  account(): NcclAccount | undefined {
    if (this.infoLines === 0 && this.version === undefined) return undefined
    const a: NcclAccount = {
      transports: [...this.transports].sort(),
      algos: [...this.algos].sort(),
      protos: [...this.protos].sort(),
      choices: [...this.choices.values()],
      envSet: this.envSet,
      infoLines: this.infoLines,
    }
    if (this.channels !== undefined) a.channels = this.channels
    if (this.perChannel.size)
      a.perChannel = Object.fromEntries([...this.perChannel].sort().map(([c, v]) => [c, [...v].sort()]))
    if (this.version !== undefined) a.version = this.version
    if (this.hosts.size) a.hosts = [...this.hosts]
    return a
  }
}

/** "P2P/CUMEM/read" → "P2P/CUMEM", "SHM/direct/direct" → "SHM", "NET/IB/0/GDRDMA" → "NET/IB/GDRDMA". */
function transport(via: string): string {
  const parts = via.split('/')
  const head = parts[0] ?? via
  if (head === 'SHM') return 'SHM'
  if (head === 'NET') return ['NET', parts[1] ?? '?', ...(parts.includes('GDRDMA') ? ['GDRDMA'] : [])].join('/')
  if (head === 'P2P') return `P2P/${(parts[1] ?? '?').replace(/ pointer$/, '')}`
  return head
}

/** Merges accounts of concurrent groups or retried launches of one point. */
export function mergeAccounts(list: readonly (NcclAccount | undefined)[]): NcclAccount | undefined {
  const as = list.filter((a): a is NcclAccount => a !== undefined)
  if (as.length === 0) return undefined
  const uniq = (f: (a: NcclAccount) => string[]): string[] => [...new Set(as.flatMap(f))].sort()
  const out: NcclAccount = {
    transports: uniq((a) => a.transports),
    algos: uniq((a) => a.algos),
    protos: uniq((a) => a.protos),
    choices: as.flatMap((a) => a.choices).slice(0, 64),
    envSet: Object.assign({}, ...as.map((a) => a.envSet)),
    infoLines: as.reduce((s, a) => s + a.infoLines, 0),
  }
  const per: Record<string, Set<string>> = {}
  for (const a of as)
    for (const [c, v] of Object.entries(a.perChannel ?? {})) for (const t of v) (per[c] ??= new Set()).add(t)
  if (Object.keys(per).length)
    out.perChannel = Object.fromEntries(
      Object.entries(per)
        .sort()
        .map(([c, v]) => [c, [...v].sort()]),
    )
  const ch = as.map((a) => a.channels).filter((c): c is number => c !== undefined)
  if (ch.length) out.channels = Math.max(...ch)
  const v = as.find((a) => a.version)?.version
  if (v) out.version = v
  const hosts = [...new Set(as.flatMap((a) => a.hosts ?? []))]
  if (hosts.length) out.hosts = hosts
  return out
}
