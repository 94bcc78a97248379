/** Plain words for bands, link classes and mechanisms (shared by verdicts, text and report). */
import { formatRate, formatSeconds } from '../units/index.ts'
import type { Band, MechanismId } from './_types.ts'

/** "10.3–14.2 µs" or "14 µs" (a single value). */
export function bandRange(b: Pick<Band, 'low' | 'high' | 'unit'>): string {
  const f = b.unit === 's' ? formatSeconds : formatRate
  if (b.low === b.high) return f(b.low)
  const [lo, hi] = [f(b.low), f(b.high)]
  const unit = hi.split(' ')[1]
  return lo.endsWith(` ${unit}`) ? `${lo.split(' ')[0]}–${hi}` : `${lo}–${hi}`
}

/** What a PCIe link class means, as nvidia-smi topo -m's legend says it. */
export const LINK_WORDS: Record<string, string> = {
  PIX: 'through one PCIe switch',
  PXB: 'through several PCIe switches',
  PHB: "through the CPU's PCIe host bridge",
  NODE: 'across PCIe host bridges within one NUMA node',
  SYS: 'across the CPU sockets (the SMP interconnect)',
}

/** The mechanism's name in plain words, without detail. */
export const MECHANISM_WORDS: Record<MechanismId, string> = {
  'same-gpu': 'same-GPU copy (copy engine, no link crossed)',
  'p2p-pcie': 'P2P over PCIe',
  'p2p-nvlink': 'P2P over NVLink/NVSwitch',
  'host-staged': 'host-staged copy through pinned host memory (no peer access)',
  'host-staged-slow': 'host-staged copy, slower than any published host-staged copy',
  'nccl-p2p': 'NCCL over its P2P transport',
  'nccl-shm': 'NCCL over SHM (no P2P: every ring step staged through shared host memory)',
  'nccl-net': 'NCCL over its network transport (NET)',
  'nccl-nvls': 'NCCL NVLS (NVLink SHARP in the NVSwitch)',
  'nccl-mnnvl': 'NCCL over multi-node NVLink (MNNVL: one NVLink domain across the hosts)',
  undetermined: 'mechanism not determined',
}

/** "P2P over PCIe (NODE: across PCIe host bridges within one NUMA node)". */
export function p2pPcieWords(linkClass: string | undefined): string {
  if (!linkClass) return 'P2P over PCIe (link class not captured)'
  const w = LINK_WORDS[linkClass.toUpperCase()]
  return `P2P over PCIe (${linkClass}${w ? `: ${w}` : ''})`
}

/** "1.9×", "26×" (ratios ≥ 10 without decimals). */
export const fmtRatio = (r: number): string => (r >= 10 ? r.toFixed(0) : r.toFixed(1))

/** "+4 %", "−3 %"; a nonzero distance never prints as 0 ("−<0.01 %"). */
export const fmtPct = (d: number): string => {
  const t = Math.abs(d * 100).toFixed(Math.abs(d) < 0.01 ? 2 : Math.abs(d) < 0.1 ? 1 : 0)
  return `${d >= 0 ? '+' : '−'}${d !== 0 && Number(t) === 0 ? '<0.01' : t} %`
}
