/**
 * The topology model and the `gpucomm topo --json` object. Plain JSON data; every fact
 * carries where it was read (`from`: `file:line`, a sysfs path, or a command).
 */
import type { HostFacts } from '../host/index.ts'
import type { Diagnostic } from '../model/index.ts'

/** nvidia-smi's P2P status values (OK, CNS, GNS, TNS, NS, DR, U). */
export type P2PStatus = 'OK' | 'CNS' | 'GNS' | 'TNS' | 'NS' | 'DR' | 'U'

/** P2P capabilities `topo -p2p` reports: r, w, n, a, p; `unknown` when the capture does not say which. */
export type P2PCapability = 'read' | 'write' | 'nvlink' | 'atomics' | 'pci' | 'unknown'

/** A bridge on a GPU's path to its root bus. */
export interface TopoBridge {
  bdf: string
  role: 'root-port' | 'switch-upstream' | 'switch-downstream' | 'bridge'
  /**
   * Access Control Services, from PCI config space when readable (root only):
   * `absent`, `unreadable`, or the capability and control registers.
   */
  acs?: 'absent' | 'unreadable' | { capability: number; control: number; p2pRequestRedirect: boolean }
}

/** One GPU, indexed as nvidia-smi indexes it (PCI bus order). */
export interface TopoGpu {
  index: number
  name?: string
  /** `dddd:bb:dd.f`, lowercase. */
  busId?: string
  /** `vvvv:dddd`, e.g. 10de:2bb5. */
  pciId?: string
  numa?: number
  cpuAffinity?: string
  /** Root bus `dddd:bb` (one per PCIe root complex / host bridge). */
  rootBus?: string
  /** The root port the GPU hangs below. */
  rootPort?: string
  iommuGroup?: number
  /** Bridges from the root port down to the GPU. */
  upstream?: TopoBridge[]
  /** Upstream ports of the PCIe switches on the path, nearest the root first. */
  switchPath?: string[]
  /** Kernel driver in use (nvidia, vfio-pci, …) when known. */
  driver?: string
  /** Where each field was read. */
  from: Record<string, string>
}

/** Expected small-copy cost of a pair, with its basis. */
export interface LatencyBand {
  /** Seconds. */
  lowS: number
  highS: number
  why: string
  reference?: string
}

/** One unordered GPU pair (a < b). */
export interface TopoPair {
  a: number
  b: number
  /** Link class exactly as nvidia-smi prints it (NV18, PIX, PXB, PHB, NODE, SYS, SOC). */
  link?: string
  /** PCIe path class from `nvidia-smi topo -mp` only (NVLink not shown there): never a link class. */
  pciPath?: string
  /** P2P status per capability, e.g. {"read": "OK", "write": "NS"}. */
  p2p: Partial<Record<P2PCapability, string>>
  sameRootComplex?: boolean
  sameSwitch?: boolean
  sameNuma?: boolean
  /** Expected per-copy latency of a small (16 B) copy-engine copy. */
  expected?: LatencyBand
  /** Ranking cost used by the grouping advice (lower is better). */
  cost: number
  from: Record<string, string>
}

/** A verdict: a rule that fired. */
export interface Finding {
  /** Stable id, e.g. `p2p-unavailable`, `own-root-complex`. */
  id: string
  severity: 'info' | 'warn' | 'problem'
  /** One plain sentence. */
  message: string
  /** The facts the rule used, each with its source. */
  facts: string[]
  reference?: string
  gpus?: number[]
}

/** A way to split GPUs into tensor-parallel groups, with its cost. */
export interface Grouping {
  size: number
  groups: number[][]
  /** Highest pair cost inside any group. */
  worstCost: number
  /** Mean pair cost over the pairs inside groups. */
  meanCost: number
  reason: string
}

/** What is known about virtualization. */
export interface HypervisorInfo {
  detected: boolean
  kind: 'vm' | 'container' | 'none' | 'unknown'
  cpuFlag?: boolean
  sysVendor?: string
  productName?: string
  /** `systemd-detect-virt --vm`'s answer, when it ran (e.g. kvm, none). */
  virt?: string
  /** `systemd-detect-virt --container`'s answer when it names one (docker, lxc, …). */
  container?: string
  from: string[]
}

/** One thing read: a file, a command's output or the sysfs tree. */
export interface TopoSource {
  /** `sysfs`, `cpuinfo`, `command`, `input`. */
  kind: string
  /** Path or command line. */
  name: string
  /** Parser id, for outputs. */
  format?: string
  ok: boolean
  note?: string
}

/** The `gpucomm topo --json` object. */
export interface TopologyReport {
  schema: 1
  gpus: TopoGpu[]
  pairs: TopoPair[]
  findings: Finding[]
  /** Best few groupings for each TP size (2, 4, 8 where possible), best first. */
  groupings: Grouping[]
  hypervisor: HypervisorInfo
  /** CPU vendor from /proc/cpuinfo (AuthenticAMD, GenuineIntel, …). */
  cpuVendor?: string
  /** PCI root buses (`dddd:bb`) seen in sysfs or lspci. */
  pciRootBuses: string[]
  /** PCIe link, power, IOMMU and NUMA state of the host (sysfs, nvidia-smi -q), when read. */
  host?: HostFacts
  sources: TopoSource[]
  diagnostics: Diagnostic[]
  /**
   * True when what was read is SIMULATED (a capture written by the simulator, or inputs that
   * start with its marker): the report describes a preset machine, not a real one.
   */
  simulated?: true
}

/** Where to read the topology from. */
export interface CollectOptions {
  /** A sysfs tree elsewhere: DIR/sys/… (or DIR itself as /sys) and DIR/proc/cpuinfo. */
  sysfsRoot?: string
  /** Saved outputs: nvidia-smi topo -m / -p2p, lspci -tv / -nn, IOMMU group listings. */
  inputs?: string[]
  /** A capture written by captureTopology / `gpucomm topo --capture`. */
  from?: string
  /** Timeout per launched command in milliseconds (default 15000). */
  timeoutMs?: number
  /** The sources describe a simulated machine (gpucomm sim): the report, and a capture, say so. */
  simulated?: boolean
  /** The sources were read while a bandwidth test ran: PCIe link speeds below maximum count as faults. */
  underLoad?: boolean
}
