/**
 * The physics: which NCCL transport a group gets, the α–β line of each protocol, and the true
 * (noise-free) value of every p2p cell. Pure functions of a preset.
 */
// The NET step costs are a pure data table, imported from their file (not the analysis door).
import { NET_HOP } from '../bands/index.ts'
import type { CollectiveDef } from '../collectives/index.ts'
import { busFactor as collectiveBusFactor, collectiveDef, SIMULATED_COLLECTIVES } from '../collectives/index.ts'
import { badInput } from '../errors/index.ts'
import { GBPS, US } from '../units/index.ts'
import type {
  AlphaBeta,
  BandwidthQuery,
  Collective,
  CollectiveModel,
  PathLevel,
  Preset,
  Protocol,
  TransportParams,
  TruthQuery,
} from './_types.ts'
import { PRESETS } from './presets/index.ts'

/** The preset called `name`; bad input naming the known ones otherwise. */
export function presetByName(name: string): Preset {
  const p = PRESETS.find((x) => x.name === name)
  if (!p) throw badInput(`--preset ${name}: unknown preset (known: ${PRESETS.map((x) => x.name).join(', ')})`)
  return p
}

/** NCCL's path scale (src/graph/paths.cc): a NODE pair (two host bridges, one CPU) is PHB to NCCL. */
const NCCL_RANK: Record<PathLevel, number> = { NV: 0, PIX: 1, PXB: 2, PHB: 3, NODE: 3, SYS: 4 }
/** NCCL_P2P_LEVEL values NCCL accepts, on the same scale (LOC = P2P never). */
const LEVEL_ENV: Record<string, number> = { LOC: -1, NVL: 0, PIX: 1, PXB: 2, PHB: 3, SYS: 4 }

/**
 * NCCL over sockets when neither P2P nor SHM is allowed: NCCL's NET step costs (NET_HOP, the
 * one table of them: src/bands/bands-network.ts, from tuning.cc), and 5 GB/s loopback (an
 * assumption).
 */
const NET: TransportParams = {
  label: 'NET/Socket',
  hopLLUs: NET_HOP.llS / US,
  hopSimpleUs: NET_HOP.simpleS / US,
  busBwLLGBs: 2.5,
  busBwSimpleGBs: 5,
}

const isOn = (v: string | undefined): boolean => v !== undefined && v !== '' && v !== '0'

function p2pLevelLimit(p: Preset, env: Readonly<Record<string, string>>): number {
  const v = env.NCCL_P2P_LEVEL
  if (v === undefined || v === '') return NCCL_RANK[p.nccl.p2pLevel]
  const r = LEVEL_ENV[v.toUpperCase()]
  if (r === undefined) throw badInput(`NCCL_P2P_LEVEL=${v}: not a level NCCL knows (LOC, NVL, PIX, PXB, PHB, SYS)`)
  return r
}

/** The transport NCCL would pick for a group, as its rules go (P2P, else SHM, else NET). */
export function chooseTransport(
  p: Preset,
  gpus: readonly number[],
  env: Readonly<Record<string, string>> = {},
): TransportParams {
  const limit = p2pLevelLimit(p, env)
  let p2pOk = !isOn(env.NCCL_P2P_DISABLE)
  for (const a of gpus) {
    for (const b of gpus) {
      if (a === b) continue
      const l = p.link(a, b)
      if (!l.peerAccess || NCCL_RANK[l.level] > limit) p2pOk = false
    }
  }
  if (p2pOk && gpus.length > 1) return p.nccl.p2p
  if (isOn(env.NCCL_SHM_DISABLE)) return NET
  return isOn(env.NCCL_SHM_USE_CUDA_MEMCPY) ? p.nccl.shmMemcpy : p.nccl.shm
}

/** The protocol NCCL_PROTO forces, if it leaves exactly one of LL and Simple. */
function forcedProtocol(env: Readonly<Record<string, string>>): Protocol | undefined {
  const v = env.NCCL_PROTO
  if (v === undefined || v === '') return undefined
  const neg = v.startsWith('^')
  const named = new Set((neg ? v.slice(1) : v).split(',').map((s) => s.trim().toLowerCase()))
  const allowed = (['LL', 'Simple'] as const).filter((x) => named.has(x.toLowerCase()) !== neg)
  if (allowed.length === 0)
    throw badInput(`NCCL_PROTO=${v}: leaves neither LL nor Simple (the protocols the simulator models)`)
  return allowed.length === 1 ? allowed[0] : undefined
}

/** The registry's entry for a collective the simulator models; bad input otherwise. */
export function simulated(c: Collective): CollectiveDef & Required<Pick<CollectiveDef, 'ringSteps'>> {
  const d = collectiveDef(c)
  if (!d?.ringSteps) throw badInput(`--collective ${c}: expected one of ${SIMULATED_COLLECTIVES.join(', ')}`)
  return d as CollectiveDef & Required<Pick<CollectiveDef, 'ringSteps'>>
}

/** Ring steps of one call (the collective's registry entry): 2(n−1) for all_reduce, n−1 for the one-pass ones, 1 for sendrecv. */
export const ringSteps = (c: Collective, n: number): number => (n <= 1 ? 0 : simulated(c).ringSteps(n))

/** nccl-tests' busbw factor (nccl-tests doc/PERFORMANCE.md), from the collective's registry entry. */
export const busFactor = (c: Collective, n: number): number => collectiveBusFactor(simulated(c).bus, n)

function line(baseUs: number, steps: number, hopUs: number, busBwGBs: number, factor: number): AlphaBeta {
  const busBwBps = busBwGBs * GBPS
  return { alphaS: (baseUs + steps * hopUs) * US, betaBps: factor > 0 ? busBwBps / factor : Infinity, busBwBps }
}

/**
 * True where the preset says NCCL's tuner picks Simple for every size: an SHM ring across the
 * CPU sockets (some pair of the group is SYS) without NCCL_GRAPH_FILE (presets/_common.ts,
 * AMD_XGMI_SIMPLE, says why and cites it). NCCL_PROTO still forces a protocol over it.
 */
function simpleFromSmallest(
  p: Preset,
  t: TransportParams,
  gpus: readonly number[],
  env: Readonly<Record<string, string>>,
): boolean {
  if (p.nccl.shmSimpleAcrossSockets === undefined || t !== p.nccl.shm || (env.NCCL_GRAPH_FILE ?? '') !== '')
    return false
  return gpus.some((a) => gpus.some((b) => a !== b && p.link(a, b).level === 'SYS'))
}

/** The α–β model of a collective on a group of GPUs under an environment. */
export function collectiveModel(
  p: Preset,
  c: Collective,
  gpus: readonly number[],
  env: Readonly<Record<string, string>> = {},
): CollectiveModel {
  const n = gpus.length
  const t = chooseTransport(p, gpus, env)
  const steps = ringSteps(c, n)
  const f = busFactor(c, n)
  const ll = line(p.nccl.baseLLUs, steps, t.hopLLUs, t.busBwLLGBs, f)
  const simple = line(p.nccl.baseSimpleUs, steps, t.hopSimpleUs, t.busBwSimpleGBs, f)
  // NCCL picks the protocol its model predicts faster. Where the preset publishes where the
  // tuner switches, that; otherwise the model here is taken as NCCL's, and the switch sits
  // where the two lines cross.
  const slope = 1 / ll.betaBps - 1 / simple.betaBps
  const tuner = t === p.nccl.p2p || t === p.nccl.shm ? p.nccl.simpleFromBytes?.[n] : undefined
  const breakpointBytes = simpleFromSmallest(p, t, gpus, env)
    ? 0
    : (tuner ?? (slope > 0 ? Math.max(0, (simple.alphaS - ll.alphaS) / slope) : Infinity))
  const forced = forcedProtocol(env)
  return {
    collective: c,
    ranks: n,
    transport: t.label,
    steps,
    busFactor: f,
    ll,
    simple,
    breakpointBytes,
    ...(forced ? { forced } : {}),
  }
}

/** The protocol used at a size. */
export const protocolAt = (m: CollectiveModel, sizeBytes: number): Protocol =>
  m.forced ?? (sizeBytes < m.breakpointBytes ? 'LL' : 'Simple')

/** True time of one call at a size (seconds). */
export function modelTime(m: CollectiveModel, sizeBytes: number): number {
  const ab = protocolAt(m, sizeBytes) === 'LL' ? m.ll : m.simple
  return ab.alphaS + (sizeBytes > 0 ? sizeBytes / ab.betaBps : 0)
}

/** True 16 B copy latency (seconds) between physical GPUs; src = dst is a local copy. */
export function p2pLatency(
  p: Preset,
  src: number,
  dst: number,
  p2p: 'enabled' | 'disabled',
  timer: 'gpu' | 'cpu' = 'gpu',
): number {
  if (src === dst) return (timer === 'gpu' ? p.local.latUs : p.local.cpuLatUs) * US
  const l = p.link(src, dst)
  const on = p2p === 'enabled' && l.peerAccess
  if (timer === 'cpu') return (on ? l.cpuLatEnabledUs : l.cpuLatDisabledUs) * US
  return (on ? l.latEnabledUs : l.latDisabledUs) * US
}

/** True copy bandwidth (B/s) between physical GPUs. */
export function p2pBandwidth(p: Preset, q: BandwidthQuery): number {
  if (q.src === q.dst) return (q.direction === 'uni' ? p.local.bwUniGBs : p.local.bwBiGBs) * GBPS
  const l = p.link(q.src, q.dst)
  const on = q.p2p === 'enabled' && l.peerAccess
  if (q.direction === 'uni') return (on ? l.bwUniEnabledGBs : l.bwUniDisabledGBs) * GBPS
  return (on ? l.bwBiEnabledGBs : l.bwBiDisabledGBs) * GBPS
}

/** The true time (seconds) a query asks for: one collective call, or one 16 B p2p copy. */
export function trueTimeOf(p: Preset, q: TruthQuery): number {
  if (q.kind === 'collective') return modelTime(collectiveModel(p, q.collective, q.gpus, q.env), q.sizeBytes)
  return p2pLatency(p, q.src, q.dst, q.p2p, q.timer)
}
