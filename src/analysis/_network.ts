/**
 * Which network a multi-host NCCL run crossed, from the strongest evidence there is: NCCL's
 * own `via NET/…` lines (NET/IB is NCCL's IB verbs transport, InfiniBand or RoCE; NET/Socket
 * is TCP; NET/AWS Libfabric, NET/Libfabric or NET/OFI is the aws-ofi-nccl plug-in, EFA on AWS),
 * then the settings on the command line (NCCL_NET, NCCL_IB_DISABLE, FI_PROVIDER,
 * NCCL_NET_PLUGIN, NCCL_IB_HCA, NCCL_IB_GID_INDEX), else "network, transport not stated".
 */

import { formatRate } from '../units/index.ts'
import type { Evidence } from './_types.ts'
import type { Sourced } from './verdict/_context.ts'
import type { LaunchSeen } from './verdict/_sources.ts'

/** A network as the evidence names it. */
export interface NetworkSeen {
  /** Plain words, e.g. "InfiniBand or RoCE (NCCL's IB verbs transport, NET/IB)". */
  words: string
  /** Which of bands-network's fabrics it is, when one fits. */
  fabric?: 'ib' | 'roce' | 'socket'
  /** What said so ("NCCL's via NET/IB lines", "NCCL_IB_HCA=mlx5_0 on the command line"); absent: nothing did. */
  from?: string
}

const IB = "InfiniBand or RoCE (NCCL's IB verbs transport, NET/IB)"
const OFI = 'EFA/OFI (the libfabric plug-in, aws-ofi-nccl)'
const SOCKET = 'TCP sockets (NET/Socket: no RDMA)'

/** The network of NCCL's NET transports (["NET/IB/GDRDMA"]) and the command line's settings. */
export function networkOf(transports: readonly string[], env: Readonly<Record<string, string>>): NetworkSeen {
  const net = transports.filter((t) => t.startsWith('NET/'))
  const via = (t: string): string => `NCCL's "via ${t}" lines`
  const ofi = net.find((t) => /libfabric|ofi/i.test(t))
  if (ofi) return { words: OFI, from: via(ofi) }
  const ib = net.find((t) => t.startsWith('NET/IB'))
  if (ib) {
    const roce = env.NCCL_IB_GID_INDEX !== undefined
    return {
      words: roce ? `RoCE (NCCL's IB verbs transport, NET/IB; NCCL_IB_GID_INDEX=${env.NCCL_IB_GID_INDEX})` : IB,
      fabric: roce ? 'roce' : 'ib',
      from: via(ib),
    }
  }
  const sock = net.find((t) => t.startsWith('NET/Socket'))
  if (sock) return { words: SOCKET, fabric: 'socket', from: via(sock) }
  const set = (k: string): string => `${k}=${env[k]} on the command line`
  if (/^socket$/i.test(env.NCCL_NET ?? '') || env.NCCL_IB_DISABLE === '1')
    return { words: SOCKET, fabric: 'socket', from: set(env.NCCL_NET !== undefined ? 'NCCL_NET' : 'NCCL_IB_DISABLE') }
  if (
    /^efa$/i.test(env.FI_PROVIDER ?? '') ||
    /ofi|aws/i.test(env.NCCL_NET_PLUGIN ?? '') ||
    /ofi|libfabric/i.test(env.NCCL_NET ?? '')
  )
    return {
      words: OFI,
      from: set(
        env.FI_PROVIDER !== undefined
          ? 'FI_PROVIDER'
          : env.NCCL_NET_PLUGIN !== undefined
            ? 'NCCL_NET_PLUGIN'
            : 'NCCL_NET',
      ),
    }
  if (/^ib$/i.test(env.NCCL_NET ?? '') || env.NCCL_IB_HCA !== undefined) {
    const k = env.NCCL_IB_HCA !== undefined ? 'NCCL_IB_HCA' : 'NCCL_NET'
    if (env.NCCL_IB_GID_INDEX !== undefined)
      return {
        words: "RoCE (NCCL's IB verbs transport)",
        fabric: 'roce',
        from: `${set(k)}, ${set('NCCL_IB_GID_INDEX')}`,
      }
    return { words: IB, fabric: 'ib', from: set(k) }
  }
  return { words: 'network, transport not stated' }
}

/** What a multi-host launch adds to a collective's judgement. */
export interface CrossHosts {
  hosts: number
  network: NetworkSeen
  evidence: Evidence[]
}

/** The evidence that a collective crossed hosts (undefined when its files name at most one host). */
export function crossHosts(
  launch: Sourced<LaunchSeen> | undefined,
  transports: readonly string[],
  env: Readonly<Record<string, string>>,
): CrossHosts | undefined {
  const l = launch?.value
  if (!launch || !l || l.count < 2) return undefined
  const shown = l.named.slice(0, 3).join(', ') + (l.named.length > 3 ? ', …' : '')
  const evidence: Evidence[] = [
    {
      strength: 1,
      fact: `the ranks run on ${l.count} hosts${shown ? ` (${shown})` : ''}, from ${l.countFrom}: the collective crosses hosts`,
      source: launch.source,
    },
  ]
  if (l.listCut)
    evidence.push({
      strength: 2,
      fact: `the rank lines list ${l.listCut.listed} of ${l.listCut.ranks} ranks (count from ${l.listCut.from})`,
      source: launch.source,
    })
  const network = networkOf(transports, env)
  evidence.push(
    network.from
      ? { strength: 1, fact: `network: ${network.words}`, source: network.from }
      : {
          strength: 3,
          fact:
            'network: transport not stated (no NCCL INFO "via NET/…" lines, no NCCL_NET, NCCL_IB_HCA, ' +
            'FI_PROVIDER or NCCL_NET_PLUGIN setting in the file)',
          source: launch.source,
        },
  )
  return { hosts: l.count, network, evidence }
}

/** The fastest NIC port shipping: 800 Gb/s, 100 GB/s per direction. */
const NIC_MAX = { bps: 100e9, source: 'NVIDIA ConnectX-8 SuperNIC: 800 Gb/s per port (product brief)' }

/**
 * An all_reduce faster than any network between its hosts could carry. Every host must take in
 * at least the whole message (the other hosts' sum, reduced on the way or not), so algbw is at
 * most the host's network ingress: at most one NIC per GPU (rail-optimised servers), each at most
 * NIC_MAX. Above that ceiling the ranks reach each other over NVLink across the hosts (multi-node
 * NVLink, MNNVL: one NVLink domain over several trays, as in GB200 NVL72). `algbw` is the fit's β.
 */
export function aboveNetwork(
  algbwBps: number,
  ranks: number,
  hosts: number,
): (Evidence & { short: string }) | undefined {
  if (!(algbwBps > 0) || hosts < 2 || ranks < hosts) return undefined
  const perHost = Math.ceil(ranks / hosts)
  const ceiling = perHost * NIC_MAX.bps
  if (algbwBps <= ceiling) return undefined
  const busbw = (algbwBps * 2 * (ranks - 1)) / ranks
  return {
    strength: 3,
    fact:
      `algbw ${formatRate(algbwBps)} at large sizes (busbw ${formatRate(busbw)}) is ${(algbwBps / ceiling).toFixed(2)}× ` +
      `what a network can carry into a host of ${perHost} GPUs (${formatRate(ceiling)}: one 800 Gb/s NIC per GPU; ` +
      'every host must receive the whole message): the ranks reach each other over multi-node NVLink (MNNVL), ' +
      'not the network',
    source: `the fit's β; ${NIC_MAX.source}`,
    short:
      `algbw ${formatRate(algbwBps)}, ${(algbwBps / ceiling).toFixed(2)}× what a network carries into a host of ` +
      `${perHost} GPUs (${formatRate(ceiling)})`,
  }
}
