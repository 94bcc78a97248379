/**
 * Host facts: the power, link, IOMMU and NUMA state of the machine that sits inside a
 * host-staged copy's cost. Plain JSON data; every fact carries where it was read.
 */

/** One PCIe link, read at its downstream end (the GPU, or a switch's upstream port). */
export interface LinkReading {
  /** The device at the downstream end of the link (`dddd:bb:dd.f`). */
  bdf: string
  /** The port above it, when known. */
  parent?: string
  role: 'gpu' | 'switch-upstream'
  /** PCIe generation (1 = 2.5 GT/s … 6 = 64 GT/s) the link runs at now, and the most both ends can do. */
  gen?: { current: number; max: number }
  /** Lanes now, and the most both ends can do. */
  width?: { current: number; max: number }
  /** Per-link ASPM states the kernel exposes (`link/l0s_aspm`, `link/l1_aspm`, …) that are on. */
  aspmOn?: string[]
  /** `sysfs` (at rest unless said otherwise), `nvidia-smi -q`, or the simulator's model of the link. */
  reading: 'sysfs' | 'nvidia-smi -q' | 'simulated'
  from: string
  /** Set when the current values were read while a bandwidth test ran (a sweep point): when and how. */
  underLoad?: string
}

/** One CPU idle state of cpu0 (`cpuidle/stateN`). */
export interface IdleState {
  index: number
  name: string
  /** Exit latency, seconds. */
  exitLatencyS: number
  disabled: boolean
}

/** CPU power management as the OS sees it. */
export interface CpuPower {
  idleDriver?: string
  idleGovernor?: string
  states: IdleState[]
  /** The deepest state not disabled, by exit latency. */
  deepestEnabled?: IdleState
  freqGovernor?: string
  freqDriver?: string
  /** `/sys/devices/system/cpu/amd_pstate/status`: active, passive, guided or disable. */
  amdPstate?: string
  from: string[]
}

/** IOMMU state: kernel command line and each GPU's group type. */
export interface IommuState {
  /** IOMMU-related kernel parameters as given (`iommu=pt`, `amd_iommu=on`, …). */
  cmdline: string[]
  /** GPU index → group default-domain type (identity, DMA, DMA-FQ, unmanaged, blocked). */
  gpuGroupType: Record<number, string>
  /** Number of IOMMU groups seen. */
  groups: number
  from: string[]
}

/** NUMA as the OS exposes it. */
export interface NumaState {
  /** Online nodes (`/sys/devices/system/node/node*`). */
  nodes: number[]
  from: string
}

/** Everything read about the host. */
export interface HostFacts {
  /** GPU index → its links, GPU first, then upward. */
  links: Record<number, LinkReading[]>
  /** `/sys/module/pcie_aspm/parameters/policy`, the bracketed choice. */
  aspmPolicy?: string
  cpu: CpuPower
  iommu: IommuState
  numa?: NumaState
  /** Whether the link readings were taken while a bandwidth test ran (`--under-load`). */
  underLoad: boolean
}

/** What the host readers need of a GPU (topology's TopoGpu carries these fields). */
export interface HostGpu {
  index: number
  /** `dddd:bb:dd.f`, lowercase. */
  busId?: string
  iommuGroup?: number
  /** Bridges from the root port down to the GPU. */
  upstream?: readonly { bdf: string; role: string }[]
}
