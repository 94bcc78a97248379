/**
 * The floor the decode model's readings are judged on, on the transport the all_reduce actually
 * used: the P2P pairs' floor beside an all_reduce that ran over P2P, the host-staged pairs'
 * floor beside one that ran host-staged (SHM). What carried an all_reduce row, as far as the set
 * says: host-staged when the set has no working P2P pair or the row ran with NCCL_P2P_DISABLE;
 * P2P when it ran with NCCL_P2P_LEVEL=SYS; not known otherwise (NCCL's default across a CPU host
 * bridge on AMD with more than 2 GPUs is SHM, NVIDIA/nccl src/graph/paths.cc, so working P2P
 * pairs do not say the all_reduce used them).
 */
import type { Row } from '../../model/index.ts'
import { medianOf, sortSample } from '../../stats/index.ts'
import { fitSeries } from '../fit/_alphabeta.ts'
import { buildSeries } from '../fit/_series.ts'

const med = (v: readonly number[]): number => medianOf(sortSample(v))
const isOn = (v: string | undefined): boolean => v !== undefined && v !== '' && v !== '0'

/** A floor to judge the readings on: the pairs' α, the smallest measured all_reduce on the same transport. */
export interface JudgedFloor {
  via: 'P2P' | 'host-staged'
  alpha: number
  /** The smallest-size all_reduce (median) of that transport, and its size. */
  smallest: { t: number; sizeBytes: number } | null
}

/** Cross-GPU pair floors: working P2P pairs, and host-staged ones (P2P off or no peer access). */
function pairFloors(rows: Iterable<Row>): { p2p: number | null; staged: number | null } {
  const pairs = buildSeries(rows).filter(
    (s) => s.id.src !== undefined && s.id.dst !== undefined && s.id.src !== s.id.dst,
  )
  const alphaOf = (ok: (typeof pairs)[number][]): number | null =>
    ok.length ? med(ok.map((s) => fitSeries(s, { replicates: 0 }).alpha)) : null
  const works = (s: (typeof pairs)[number]) => s.id.p2p === 'enabled' && s.id.peerAccess !== false
  return { p2p: alphaOf(pairs.filter(works)), staged: alphaOf(pairs.filter((s) => !works(s))) }
}

/** The all_reduce rows of one grouping (or rank count), smallest size's median by transport. */
function smallestByVia(
  rows: Iterable<Row>,
  inGroup: (r: Row) => boolean,
  anyP2p: boolean,
): Map<JudgedFloor['via'] | 'unknown', { t: number; sizeBytes: number }> {
  const by = new Map<string, Map<number, number[]>>()
  for (const r of rows) {
    if (r.bench !== 'nccl.all_reduce' || r.unit !== 's' || r.metric !== 'time' || r.sizeBytes === null) continue
    if (r.placement === 'in-place' || !inGroup(r)) continue
    const env = r.env ?? {}
    const via = !anyP2p || isOn(env.NCCL_P2P_DISABLE) ? 'host-staged' : env.NCCL_P2P_LEVEL === 'SYS' ? 'P2P' : 'unknown'
    let sizes = by.get(via)
    if (!sizes) by.set(via, (sizes = new Map()))
    let v = sizes.get(r.sizeBytes)
    if (!v) sizes.set(r.sizeBytes, (v = []))
    v.push(r.value)
  }
  const out = new Map<JudgedFloor['via'] | 'unknown', { t: number; sizeBytes: number }>()
  for (const [via, sizes] of by) {
    const s = Math.min(...sizes.keys())
    out.set(via as JudgedFloor['via'], { t: med(sizes.get(s) as number[]), sizeBytes: s })
  }
  return out
}

/**
 * The floor to judge on: P2P first, then host-staged, each only with an all_reduce of its own
 * transport; with none, the floor the pairs give (P2P first) and no all_reduce to judge against.
 */
export function judgedFloor(rows: Iterable<Row>, inGroup: (r: Row) => boolean): JudgedFloor | null {
  const f = pairFloors(rows)
  const small = smallestByVia(rows, inGroup, f.p2p !== null)
  if (f.p2p !== null && small.has('P2P')) return { via: 'P2P', alpha: f.p2p, smallest: small.get('P2P') ?? null }
  if (f.staged !== null && small.has('host-staged'))
    return { via: 'host-staged', alpha: f.staged, smallest: small.get('host-staged') ?? null }
  if (f.p2p !== null) return { via: 'P2P', alpha: f.p2p, smallest: null }
  if (f.staged !== null) return { via: 'host-staged', alpha: f.staged, smallest: null }
  return null
}
