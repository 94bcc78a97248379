/**
 * The mechanism behind a collective's floor: the NCCL transport, from NCCL's own account
 * (NCCL_DEBUG=INFO `via …` lines, NVLS algorithms) first, then the run's settings
 * (NCCL_P2P_DISABLE, NCCL_SHM_DISABLE, NCCL_P2P_LEVEL), then the topology (peer access of the
 * group's pairs; NVLink; NCCL's default P2P level: no P2P beyond PATH_PXB on AMD CPUs with
 * more than 2 GPUs, NVIDIA/nccl src/graph/paths.cc). NCCL's own latency model (tuning.cc) is
 * the reference the floor is set beside.
 */

import type { NcclModelKey } from '../../bands/index.ts'
import { COLLECTIVE_BANDS, ncclModelBand, ncclNetModelBands } from '../../bands/index.ts'
import { formatSeconds } from '../../units/index.ts'
import { stockNoP2p, stockNoP2pEvidence } from '../_consumer.ts'
import { aboveNetwork, crossHosts, networkOf } from '../_network.ts'
import type { Band, Conflict, Evidence, Fit, Mechanism, MechanismId, NcclTransport } from '../_types.ts'
import { MECHANISM_WORDS } from '../_words.ts'
import type { Series } from '../fit/_series.ts'
import type { CiteContext } from './_cite.ts'
import { linkKey } from './_cite.ts'
import type { MachineContext, Sourced } from './_context.ts'
import { transportFamily } from './_context.ts'

/** GPUs of a group string ("0-3", "0,2,4,6", "0-1,4-5"), or undefined when it is not one. */
export function groupGpus(group: string | undefined): number[] | undefined {
  if (!group) return undefined
  const out: number[] = []
  for (const part of group.split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim())
    if (!m) return undefined
    const a = Number(m[1])
    const b = m[2] === undefined ? a : Number(m[2])
    for (let g = a; g <= b; g++) out.push(g)
  }
  return out
}

const isOn = (v: string | undefined): boolean => v !== undefined && v !== '' && v !== '0'
const PXB_OR_CLOSER = new Set(['NV', 'PIX', 'PXB'])

/** What a collective's evidence says, before bands are cited. */
export interface CollectiveJudgement {
  mechanism: Mechanism
  evidence: Evidence[]
  conflicts: Conflict[]
  cite: CiteContext
  /** NCCL model bands to set the floor beside. */
  references: Band[]
  /** Measured collective bands that may apply. */
  candidates: Band[]
}

type CollFit = Pick<Fit, 'bench' | 'group' | 'ranks' | 'env' | 'alpha'> & Partial<Pick<Fit, 'beta'>>

const WORDS: Record<NcclTransport, MechanismId> = {
  P2P: 'nccl-p2p',
  SHM: 'nccl-shm',
  NET: 'nccl-net',
  NVLS: 'nccl-nvls',
}

/** The transport NCCL's account shows (NET over NVLS over SHM over P2P: the slowest hop sets the floor). */
function fromAccount(acc: Sourced<{ transports: string[]; algos: string[] }>): NcclTransport | undefined {
  const fams = new Set(acc.value.transports.map(transportFamily))
  if (fams.has('NET')) return 'NET'
  if (acc.value.algos.some((a) => a.startsWith('NVLS'))) return 'NVLS'
  if (fams.has('SHM')) return 'SHM'
  if (fams.has('P2P')) return 'P2P'
  return undefined
}

/** Judges an all_reduce (or other collective) fit of a group. */
export function judgeCollective(f: CollFit, s: Pick<Series, 'origins'>, ctx: MachineContext): CollectiveJudgement {
  const ev: Evidence[] = []
  const conflicts: Conflict[] = []
  const n = f.ranks
  let gpus = groupGpus(f.group)
  if (!gpus && n !== undefined && ctx.gpus === n) {
    gpus = Array.from({ length: n }, (_, i) => i)
    ev.push({
      strength: 2,
      fact: `the ${n} ranks taken as GPUs 0–${n - 1} (every GPU the set or its topology knows)`,
      source: 'assumption',
    })
  }
  const pairs: [number, number][] = []
  for (const a of gpus ?? []) for (const b of gpus ?? []) if (a < b) pairs.push([a, b])
  const links = pairs.map(([a, b]) => ctx.linkClass(a, b)?.value).filter((l): l is string => l !== undefined)
  const allLinks = links.length === pairs.length && links.length > 0
  const launch = ctx.launch?.(s)
  // The command line's settings, then the rows' own (a sweep's) over them.
  const env = { ...(launch?.value.env ?? {}), ...(f.env ?? {}) }
  const acc = ctx.nccl(s)
  const cross = crossHosts(launch, acc?.value.transports ?? [], env)
  if (cross) ev.push(...cross.evidence)
  // 1. NCCL's own account.
  let t: NcclTransport | undefined
  let account: Evidence | undefined
  if (acc) {
    const a = acc.value
    const said = [
      a.transports.length ? `via ${a.transports.join(', ')}` : 'no transport lines',
      a.channels !== undefined ? `${a.channels} channel(s)` : '',
      a.algos.length ? `algorithm ${a.algos.join('/')}` : '',
      a.protos.length ? `protocol ${a.protos.join('/')}` : '',
      a.version ? `NCCL ${a.version}` : '',
    ].filter(Boolean)
    account =
      a.infoLines === 0
        ? {
            strength: 2,
            fact: `NCCL ${a.version} (its version line; no NCCL_DEBUG=INFO lines, so no transport account)`,
            source: acc.source.replace('NCCL_DEBUG=INFO lines of', 'the NCCL version line of'),
          }
        : { strength: 1, fact: `NCCL reported ${said.join(', ')}`, source: acc.source }
    ev.push(account)
    t = fromAccount(acc)
  }
  // 2. The run's settings.
  const p2pOff = isOn(env.NCCL_P2P_DISABLE)
  const shmOff = isOn(env.NCCL_SHM_DISABLE)
  for (const k of ['NCCL_P2P_DISABLE', 'NCCL_SHM_DISABLE', 'NCCL_P2P_LEVEL', 'NCCL_PROTO', 'NCCL_ALGO'])
    if (env[k] !== undefined) ev.push({ strength: 2, fact: `${k}=${env[k]} requested`, source: 'the run environment' })
  // 3. The topology: peer access of the group's pairs, link classes, CPU vendor.
  const noPeer = pairs
    .map(([a, b]) => {
      const st = ctx.p2pStatus(a, b)
      if (st && st.value !== 'OK')
        return { fact: `GPU${a}–GPU${b}: nvidia-smi topo -p2p ${st.value}`, source: st.source }
      const pa = ctx.peerAccess(a, b)
      return pa && !pa.value ? { fact: `GPU${a}–GPU${b}: no peer access`, source: pa.source } : undefined
    })
    .filter((x) => x !== undefined)
  if (noPeer[0])
    ev.push({
      strength: 1,
      fact:
        `${noPeer.length} of ${pairs.length} pairs of the group have no P2P (${noPeer[0].fact}` +
        `${noPeer.length > 1 ? ', …' : ''})`,
      source: noPeer[0].source,
    })
  if (allLinks) {
    const uniq = [...new Set(links)].sort()
    ev.push({
      strength: 2,
      fact: `link classes in the group: ${uniq.join(', ')}`,
      source: ctx.linkClass(pairs[0]?.[0] ?? 0, pairs[0]?.[1] ?? 0)?.source ?? 'topology',
    })
  }
  const nvAll = allLinks && links.every((l) => linkKey(l) === 'NV')
  const stock = stockNoP2pEvidence(ctx.gpuName?.value, ctx.gpuName?.source ?? '')
  const amd = ctx.cpuVendor?.value === 'AuthenticAMD'
  let inferred: NcclTransport | undefined
  let why = ''
  if (p2pOff || noPeer.length) {
    inferred = shmOff ? 'NET' : 'SHM'
    why = p2pOff ? 'NCCL_P2P_DISABLE=1' : 'pairs without P2P'
  } else if (stock && !acc?.value.transports.length) {
    inferred = shmOff ? 'NET' : 'SHM'
    why = `${stockNoP2p(ctx.gpuName?.value)} on the stock driver has P2P disabled (weak evidence)`
    ev.push(stock)
  } else if (allLinks && links.every((l) => PXB_OR_CLOSER.has(linkKey(l)))) {
    inferred = 'P2P'
    why = nvAll ? 'every pair NVLink' : 'every pair within PCIe switches (PIX/PXB)'
  } else if (allLinks && amd && (n ?? 0) > 2 && env.NCCL_P2P_LEVEL === undefined) {
    inferred = shmOff ? 'NET' : 'SHM'
    why =
      "NCCL's default P2P level on AMD CPUs with more than 2 GPUs is PATH_PXB, and some pairs " +
      'cross a host bridge (NVIDIA/nccl src/graph/paths.cc)'
    ev.push({ strength: 2, fact: `CPU ${ctx.cpuVendor?.value}`, source: ctx.cpuVendor?.source ?? 'topology' })
  }
  if (inferred && !t)
    ev.push({ strength: 2, fact: `NCCL would use ${inferred}: ${why}`, source: 'NCCL transport rules' })
  if (t && inferred && t !== inferred && t !== 'NET' && t !== 'NVLS')
    conflicts.push({
      text: `NCCL reported ${t}, but ${why} points at ${inferred}`,
      facts: [account?.fact ?? '', why],
    })
  t ??= inferred
  // Ranks on several hosts: the slowest hop, the network, sets the floor, unless the bandwidth is
  // above what a network carries and NCCL did not report NET: then NVLink spans the hosts.
  const mn = cross && f.bench === 'nccl.all_reduce' && n ? aboveNetwork(f.beta ?? 0, n, cross.hosts) : undefined
  const saidNet = acc?.value.transports.some((x) => x.startsWith('NET')) === true
  if (mn) ev.push({ strength: mn.strength, fact: mn.fact, source: mn.source })
  if (mn && saidNet)
    conflicts.push({ text: `NCCL reported NET, but ${mn.fact}`, facts: [account?.fact ?? '', mn.fact] })
  const mnnvl = mn !== undefined && !saidNet
  if (cross) t = mnnvl ? undefined : 'NET'
  const id: MechanismId = mnnvl ? 'nccl-mnnvl' : t ? WORDS[t] : 'undetermined'
  const overNv = nvAll || (ctx.nvlink?.value === true && !allLinks) || mnnvl
  const text =
    id === 'nccl-mnnvl'
      ? `${MECHANISM_WORDS[id]}, ${cross?.hosts} hosts, not the network: ${mn?.short}`
      : id === 'nccl-p2p'
        ? `${MECHANISM_WORDS[id]} (${overNv ? 'over NVLink' : 'over PCIe'})`
        : id === 'undetermined'
          ? 'NCCL transport not determined (no NCCL_DEBUG=INFO output, and the topology does not settle it)'
          : id === 'nccl-net'
            ? `${MECHANISM_WORDS[id]}${cross ? ` across ${cross.hosts} hosts` : ''}: ${(cross?.network ?? networkOf(acc?.value.transports ?? [], env)).words}`
            : MECHANISM_WORDS[id]
  const mechanism: Mechanism = {
    id,
    text,
    ...(acc?.value.transports.length ? { transports: acc.value.transports } : {}),
  }
  // The measured floor beside NCCL's model.
  const proto = env.NCCL_PROTO
  const key: NcclModelKey = overNv ? 'NVLink/LL' : proto === 'Simple' ? 'PCI/Simple' : 'PCI/LL'
  const references =
    n !== undefined && cross && !mnnvl
      ? ncclNetModelBands(n, cross.hosts, overNv)
      : n !== undefined && t !== 'NET' && t !== 'NVLS'
        ? [ncclModelBand(key, n)]
        : []
  const m = references[0]
  if (m && cross && !mnnvl) {
    const [ring, tree] = references as [Band, Band]
    ev.push({
      strength: 3,
      fact:
        `floor ${formatSeconds(f.alpha)}; NCCL's own model across ${cross.hosts} hosts predicts ring ` +
        `${formatSeconds(ring.low)}, tree ${formatSeconds(tree.low)} (LL): ` +
        `${(f.alpha / Math.min(ring.low, tree.low)).toFixed(2)}× the faster`,
      source: `${ring.source}; ${tree.source}`,
    })
  } else if (m)
    ev.push({
      strength: 3,
      fact:
        `floor ${formatSeconds(f.alpha)}; NCCL's own model (${key}, ring, ${n} GPUs) predicts ` +
        `${formatSeconds(m.low)}: ${(f.alpha / m.low).toFixed(2)}×`,
      source: m.source,
    })
  const cite: CiteContext = {
    ...(ctx.gpuFamily ? { gpuFamily: ctx.gpuFamily } : {}),
    ...(ctx.vm ? { vm: ctx.vm.value } : {}),
    ...(ctx.nvlink || nvAll ? { nvlink: nvAll || ctx.nvlink?.value === true } : {}),
    ...(allLinks ? { links } : {}),
    ...(ctx.attach ? { attach: ctx.attach.value } : {}),
    ...(t ? { transport: t } : {}),
    ...(n !== undefined ? { ranks: n } : {}),
    singleProcess: n !== undefined && n > 1 && ctx.gpusPerProcess(s) === n,
    env: { ...env },
    ...(acc?.value.channels !== undefined ? { channels: acc.value.channels } : {}),
  }
  // The published all_reduce bands are single-host: none applies across hosts.
  const candidates =
    f.bench === 'nccl.all_reduce' && !cross ? COLLECTIVE_BANDS.filter((b) => b.metric === 'allreduce-time') : []
  return { mechanism, evidence: ev.sort((a, b) => a.strength - b.strength), conflicts, cite, references, candidates }
}
