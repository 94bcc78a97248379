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
import { aboveNetwork, crossHosts, networkOf } from '../_network.ts'
import type { Band, Conflict, Evidence, Fit, Mechanism, MechanismId, NcclTransport } from '../_types.ts'
import { MECHANISM_WORDS } from '../_words.ts'
import type { Series } from '../fit/_series.ts'
import type { CiteContext } from './_cite.ts'
import type { MachineContext, Sourced } from './_context.ts'
import { transportFamily } from './_context.ts'

import type { Account, Group } from './_transport-group.ts'
import { groupOf, inferTransport, nvAll, topologyEvidence } from './_transport-group.ts'

export { groupGpus } from './_transport-group.ts'

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

/** NCCL's own account as evidence: its transport lines, or only its version line. */
function accountEvidence(acc: Account): Evidence {
  const a = acc.value
  const said = [
    a.transports.length ? `via ${a.transports.join(', ')}` : 'no transport lines',
    a.channels !== undefined ? `${a.channels} channel(s)` : '',
    a.algos.length ? `algorithm ${a.algos.join('/')}` : '',
    a.protos.length ? `protocol ${a.protos.join('/')}` : '',
    a.version ? `NCCL ${a.version}` : '',
  ].filter(Boolean)
  return a.infoLines === 0
    ? {
        strength: 2,
        fact: `NCCL ${a.version} (its version line; no NCCL_DEBUG=INFO lines, so no transport account)`,
        source: acc.source.replace('NCCL_DEBUG=INFO lines of', 'the NCCL version line of'),
      }
    : { strength: 1, fact: `NCCL reported ${said.join(', ')}`, source: acc.source }
}

/** Judges an all_reduce (or other collective) fit of a group. */
export function judgeCollective(f: CollFit, s: Pick<Series, 'origins'>, ctx: MachineContext): CollectiveJudgement {
  const ev: Evidence[] = []
  const conflicts: Conflict[] = []
  const g = groupOf(f, ctx, ev)
  const launch = ctx.launch?.(s)
  // The command line's settings, then the rows' own (a sweep's) over them.
  const env = { ...(launch?.value.env ?? {}), ...(f.env ?? {}) }
  const acc = ctx.nccl(s)
  const cross = crossHosts(launch, acc?.value.transports ?? [], env)
  if (cross) ev.push(...cross.evidence)
  // 1. NCCL's own account.
  const account = acc ? accountEvidence(acc) : undefined
  if (account) ev.push(account)
  let t = acc ? fromAccount(acc) : undefined
  // 2. The run's settings.
  for (const k of ['NCCL_P2P_DISABLE', 'NCCL_SHM_DISABLE', 'NCCL_P2P_LEVEL', 'NCCL_PROTO', 'NCCL_ALGO'])
    if (env[k] !== undefined) ev.push({ strength: 2, fact: `${k}=${env[k]} requested`, source: 'the run environment' })
  // 3. The topology: peer access of the group's pairs, link classes, CPU vendor.
  const noPeer = topologyEvidence(g, ctx, ev)
  const { inferred, why } = inferTransport(g, env, noPeer, ctx, acc, ev)
  if (inferred && !t)
    ev.push({ strength: 2, fact: `NCCL would use ${inferred}: ${why}`, source: 'NCCL transport rules' })
  if (t && inferred && t !== inferred && t !== 'NET' && t !== 'NVLS')
    conflicts.push({
      text: `NCCL reported ${t}, but ${why} points at ${inferred}`,
      facts: [account?.fact ?? '', why],
    })
  t ??= inferred
  const mn = overNetwork(f, cross, acc, account, ev, conflicts)
  const mnnvl = mn !== undefined && !acc?.value.transports.some((x) => x.startsWith('NET'))
  if (cross) t = mnnvl ? undefined : 'NET'
  const id: MechanismId = mnnvl ? 'nccl-mnnvl' : t ? WORDS[t] : 'undetermined'
  const overNv = nvAll(g) || (ctx.nvlink?.value === true && !g.allLinks) || mnnvl
  const mechanism: Mechanism = {
    id,
    text: mechanismText(id, overNv, cross, mn, acc, env),
    ...(acc?.value.transports.length ? { transports: acc.value.transports } : {}),
  }
  const references = floorReferences(f, g.n, t, cross && !mnnvl ? cross : undefined, overNv, env, ev)
  // The published all_reduce bands are single-host: none applies across hosts.
  const candidates =
    f.bench === 'nccl.all_reduce' && !cross ? COLLECTIVE_BANDS.filter((b) => b.metric === 'allreduce-time') : []
  const cite = citeOf(ctx, g, t, s, env, acc)
  return { mechanism, evidence: ev.sort((a, b) => a.strength - b.strength), conflicts, cite, references, candidates }
}

type Cross = NonNullable<ReturnType<typeof crossHosts>>
type AboveNetwork = NonNullable<ReturnType<typeof aboveNetwork>>

/**
 * Ranks on several hosts: the slowest hop, the network, sets the floor, unless the bandwidth is
 * above what a network carries and NCCL did not report NET: then NVLink spans the hosts.
 */
function overNetwork(
  f: CollFit,
  cross: Cross | undefined,
  acc: Account | undefined,
  account: Evidence | undefined,
  ev: Evidence[],
  conflicts: Conflict[],
): AboveNetwork | undefined {
  const n = f.ranks
  const mn = cross && f.bench === 'nccl.all_reduce' && n ? aboveNetwork(f.beta ?? 0, n, cross.hosts) : undefined
  const saidNet = acc?.value.transports.some((x) => x.startsWith('NET')) === true
  if (mn) ev.push({ strength: mn.strength, fact: mn.fact, source: mn.source })
  if (mn && saidNet)
    conflicts.push({ text: `NCCL reported NET, but ${mn.fact}`, facts: [account?.fact ?? '', mn.fact] })
  return mn
}

function mechanismText(
  id: MechanismId,
  overNv: boolean,
  cross: Cross | undefined,
  mn: AboveNetwork | undefined,
  acc: Account | undefined,
  env: Record<string, string>,
): string {
  if (id === 'nccl-mnnvl') return `${MECHANISM_WORDS[id]}, ${cross?.hosts} hosts, not the network: ${mn?.short}`
  if (id === 'nccl-p2p') return `${MECHANISM_WORDS[id]} (${overNv ? 'over NVLink' : 'over PCIe'})`
  if (id === 'undetermined')
    return 'NCCL transport not determined (no NCCL_DEBUG=INFO output, and the topology does not settle it)'
  if (id === 'nccl-net') {
    const words = (cross?.network ?? networkOf(acc?.value.transports ?? [], env)).words
    return `${MECHANISM_WORDS[id]}${cross ? ` across ${cross.hosts} hosts` : ''}: ${words}`
  }
  return MECHANISM_WORDS[id]
}

/** NCCL's model bands for the floor (across hosts when `net` is given), and the floor set beside them. */
function floorReferences(
  f: CollFit,
  n: number | undefined,
  t: NcclTransport | undefined,
  net: Cross | undefined,
  overNv: boolean,
  env: Record<string, string>,
  ev: Evidence[],
): Band[] {
  const key: NcclModelKey = overNv ? 'NVLink/LL' : env.NCCL_PROTO === 'Simple' ? 'PCI/Simple' : 'PCI/LL'
  if (n === undefined) return []
  if (net) {
    const [ring, tree] = ncclNetModelBands(n, net.hosts, overNv) as [Band, Band]
    ev.push({
      strength: 3,
      fact:
        `floor ${formatSeconds(f.alpha)}; NCCL's own model across ${net.hosts} hosts predicts ring ` +
        `${formatSeconds(ring.low)}, tree ${formatSeconds(tree.low)} (LL): ` +
        `${(f.alpha / Math.min(ring.low, tree.low)).toFixed(2)}× the faster`,
      source: `${ring.source}; ${tree.source}`,
    })
    return [ring, tree]
  }
  if (t === 'NET' || t === 'NVLS') return []
  const m = ncclModelBand(key, n)
  ev.push({
    strength: 3,
    fact:
      `floor ${formatSeconds(f.alpha)}; NCCL's own model (${key}, ring, ${n} GPUs) predicts ` +
      `${formatSeconds(m.low)}: ${(f.alpha / m.low).toFixed(2)}×`,
    source: m.source,
  })
  return [m]
}

function citeOf(
  ctx: MachineContext,
  g: Group,
  t: NcclTransport | undefined,
  s: Pick<Series, 'origins'>,
  env: Record<string, string>,
  acc: Account | undefined,
): CiteContext {
  const { n } = g
  return {
    ...(ctx.gpuFamily ? { gpuFamily: ctx.gpuFamily } : {}),
    ...(ctx.vm ? { vm: ctx.vm.value } : {}),
    ...(ctx.nvlink || nvAll(g) ? { nvlink: nvAll(g) || ctx.nvlink?.value === true } : {}),
    ...(g.allLinks ? { links: g.links } : {}),
    ...(ctx.attach ? { attach: ctx.attach.value } : {}),
    ...(t ? { transport: t } : {}),
    ...(n !== undefined ? { ranks: n } : {}),
    singleProcess: n !== undefined && n > 1 && ctx.gpusPerProcess(s) === n,
    env: { ...env },
    ...(acc?.value.channels !== undefined ? { channels: acc.value.channels } : {}),
  }
}
