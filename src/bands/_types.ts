/** The shape of an expectation band and the NCCL transport families bands name. */

/** What a band measures. */
export type BandMetric =
  | 'p2p-latency' // p2pBandwidthLatencyTest-style 16 B copy, GPU-event time per copy
  | 'p2p-effective-latency' // p2pmark's all-to-all effective latency: NOT a per-pair latency
  | 'allreduce-time' // nccl-tests all_reduce time column at small sizes
  | 'p2p-bw-uni'
  | 'p2p-bw-bi'
  | 'link-bw' // theoretical per-direction link bandwidth
  | 'allreduce-busbw'

/** The family of a band, used to word verdicts. */
export type BandKind =
  | 'p2p-on'
  | 'host-staged'
  | 'same-gpu'
  | 'effective-latency'
  | 'collective-measured'
  | 'collective-model'
  | 'bandwidth'

/** An expectation band: a published (or NCCL-model) range with its source and conditions. */
export interface Band {
  /** Stable id, e.g. `p2p-off-ada-genoa`. */
  id: string
  /** Short label for verdicts, e.g. "P2P off, host-staged (RTX 6000 Ada, EPYC Genoa)". */
  label: string
  kind: BandKind
  metric: BandMetric
  /** Path or link class: "PCIe Gen5", "PCIe switch", "NVSwitch", "SYS", "PHB", … */
  path: string
  /** P2P state the figure was measured with. */
  p2p: 'on' | 'off' | 'any'
  /** true: measured in a VM; false: bare metal; null: either / not stated. */
  vm: boolean | null
  /** GPU family; "any" (the figure does not depend on it) or "unstated" (the source does not say). */
  gpuFamily: string
  /** Range in `unit` (base units). A single published value has low = high. */
  low: number
  high: number
  unit: 's' | 'B/s'
  /** Group size a collective figure applies to. */
  ranks?: number
  /** Message sizes (bytes) the figure applies to, inclusive. */
  sizes?: [number, number]
  /** Where the number comes from: the original public source (repository and file, issue, paper). */
  source: string
  /** How it was measured and what it means. */
  conditions: string
  /** The source gives the value only roughly ("~14 µs"); low/high are ±10 % around it. */
  approximate?: boolean
  /** Link classes (nvidia-smi topo -m; `NV` for any NV#) the figure was measured over; absent: not stated. */
  links?: readonly string[]
  /** GPUs on their own root ports (`direct`) or behind PCIe switches (`switch`); absent: not stated. */
  attach?: 'direct' | 'switch'
  /** NCCL transports the figure is consistent with (collective bands). */
  transports?: readonly NcclTransport[]
  /** `single-process`: nccl-tests `-g N`, one process driving every GPU. */
  launch?: 'single-process'
  /** Settings the figure was measured with (e.g. NCCL_ALGO=Ring). */
  env?: Readonly<Record<string, string>>
  /** NCCL channel count the figure was measured with. */
  channels?: number
}

/** The transports NCCL reports in its `via …` lines, by family. */
export type NcclTransport = 'P2P' | 'SHM' | 'NET' | 'NVLS'
