/**
 * A collective's group on the machine: its GPUs, pairs and link classes, what the topology says
 * of them, and the transport the settings and topology point at (NCCL's transport rules).
 */

import { stockNoP2p, stockNoP2pEvidence } from '../_consumer.ts'
import type { Evidence, Fit, NcclTransport } from '../_types.ts'
import { linkKey } from './_cite.ts'
import type { MachineContext } from './_context.ts'

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

/** NCCL's own account of a series (transport lines, algorithms, version). */
export type Account = NonNullable<ReturnType<MachineContext['nccl']>>

/** The group's GPUs, their pairs and the pairs' link classes (`allLinks`: every pair has one). */
export interface Group {
  n: number | undefined
  pairs: [number, number][]
  links: string[]
  allLinks: boolean
}

export function groupOf(f: Pick<Fit, 'group' | 'ranks'>, ctx: MachineContext, ev: Evidence[]): Group {
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
  return { n, pairs, links, allLinks: links.length === pairs.length && links.length > 0 }
}

/** The topology's evidence: pairs of the group without P2P, and the group's link classes. */
export function topologyEvidence(g: Group, ctx: MachineContext, ev: Evidence[]): number {
  const noPeer = g.pairs
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
        `${noPeer.length} of ${g.pairs.length} pairs of the group have no P2P (${noPeer[0].fact}` +
        `${noPeer.length > 1 ? ', …' : ''})`,
      source: noPeer[0].source,
    })
  if (g.allLinks) {
    const uniq = [...new Set(g.links)].sort()
    ev.push({
      strength: 2,
      fact: `link classes in the group: ${uniq.join(', ')}`,
      source: ctx.linkClass(g.pairs[0]?.[0] ?? 0, g.pairs[0]?.[1] ?? 0)?.source ?? 'topology',
    })
  }
  return noPeer.length
}

/** The transport the settings and topology point at, and why (pushes the evidence it leans on). */
export function inferTransport(
  g: Group,
  env: Record<string, string>,
  noPeer: number,
  ctx: MachineContext,
  acc: Account | undefined,
  ev: Evidence[],
): { inferred?: NcclTransport; why: string } {
  const staged = (why: string) => ({ inferred: (isOn(env.NCCL_SHM_DISABLE) ? 'NET' : 'SHM') as NcclTransport, why })
  const p2pOff = isOn(env.NCCL_P2P_DISABLE)
  const stock = stockNoP2pEvidence(ctx.gpuName?.value, ctx.gpuName?.source ?? '')
  if (p2pOff || noPeer) return staged(p2pOff ? 'NCCL_P2P_DISABLE=1' : 'pairs without P2P')
  if (stock && !acc?.value.transports.length) {
    ev.push(stock)
    return staged(`${stockNoP2p(ctx.gpuName?.value)} on the stock driver has P2P disabled (weak evidence)`)
  }
  if (g.allLinks && g.links.every((l) => PXB_OR_CLOSER.has(linkKey(l))))
    return { inferred: 'P2P', why: nvAll(g) ? 'every pair NVLink' : 'every pair within PCIe switches (PIX/PXB)' }
  if (g.allLinks && ctx.cpuVendor?.value === 'AuthenticAMD' && (g.n ?? 0) > 2 && env.NCCL_P2P_LEVEL === undefined) {
    ev.push({ strength: 2, fact: `CPU ${ctx.cpuVendor?.value}`, source: ctx.cpuVendor?.source ?? 'topology' })
    return staged(
      "NCCL's default P2P level on AMD CPUs with more than 2 GPUs is PATH_PXB, and some pairs " +
        'cross a host bridge (NVIDIA/nccl src/graph/paths.cc)',
    )
  }
  return { why: '' }
}

export const nvAll = (g: Group): boolean => g.allLinks && g.links.every((l) => linkKey(l) === 'NV')
