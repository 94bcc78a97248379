/**
 * Types of the simulator: presets (the physics, with sources), options of one simulated run,
 * and the truth a test checks analysis against. Units: parameters are written in the units
 * their sources use (µs, GB/s = 1e9 B/s) and named so; the truth API answers in base units.
 */

import { SIMULATED_COLLECTIVES } from '../collectives/index.ts'

/** The collectives the simulator prints (those the registry gives ring steps). */
export const COLLECTIVES: readonly string[] = SIMULATED_COLLECTIVES
/** One of COLLECTIVES (a collective name of the registry). */
export type Collective = string

/** Output formats: nccl-tests `*_perf` text, p2pBandwidthLatencyTest text, or gpucomm's own p2p_bench output. */
export const FORMATS = ['nccl-tests', 'p2p', 'p2p-bench'] as const
/** One of FORMATS. */
export type SimFormat = (typeof FORMATS)[number]

/**
 * Topology outputs `gpucomm sim` prints (what `nvidia-smi topo -m`, `nvidia-smi topo -p2p r`,
 * `-p2p w` and `lspci -tv` would print on the preset's machine). Kept apart from FORMATS:
 * they describe the machine, they are not a benchmark run.
 */
export const TOPO_FORMATS = ['topo-m', 'topo-p2p-r', 'topo-p2p-w', 'lspci-tv'] as const
/** One of TOPO_FORMATS. */
export type TopoFormat = (typeof TOPO_FORMATS)[number]

/** Faults the simulator can act out, for testing the sweep's failure handling. */
export const FAULTS = ['hang', 'crash', 'garbage', 'truncated', 'corrupt', 'exit'] as const
/** One of FAULTS. */
export type Fault = (typeof FAULTS)[number]

/** NCCL's protocols the model knows (LL128 is not modelled: PCIe-only paths never use it). */
export type Protocol = 'LL' | 'Simple'

/** PCIe/NVLink path levels in NCCL's order (src/graph/paths.cc); a lower index is closer. */
export const PATH_LEVELS = ['NV', 'PIX', 'PXB', 'PHB', 'NODE', 'SYS'] as const
/** One of PATH_LEVELS. */
export type PathLevel = (typeof PATH_LEVELS)[number]

/** p2p_bench's P2P modes: peer access on, off (the driver stages), or staged through host memory by the bench. */
export type P2pMode = 'enabled' | 'disabled' | 'bounce'

/** What a p2p copy between two GPUs costs on one class of path. */
export interface LinkParams {
  /** Path level between the two GPUs, as `nvidia-smi topo -m` would print it. */
  level: PathLevel
  /** Whether cudaDeviceCanAccessPeer says yes (CAN vs CANNOT). */
  peerAccess: boolean
  /** 16 B copy, GPU-event time per copy with peer access enabled (µs). Ignored without peer access. */
  latEnabledUs: number
  /** Same, P2P disabled: the driver stages the copy through host memory (µs). */
  latDisabledUs: number
  /** Host time to enqueue one async copy (the CPU matrix), P2P enabled / disabled (µs). */
  cpuLatEnabledUs: number
  cpuLatDisabledUs: number
  /** Copy bandwidths (GB/s), unidirectional and bidirectional, P2P enabled / disabled. */
  bwUniEnabledGBs: number
  bwUniDisabledGBs: number
  bwBiEnabledGBs: number
  bwBiDisabledGBs: number
}

/** A copy on one GPU (the diagonal of every p2p matrix). */
export interface LocalParams {
  latUs: number
  cpuLatUs: number
  bwUniGBs: number
  bwBiGBs: number
}

/** One NCCL transport's cost per ring step and bus bandwidth, per protocol. */
export interface TransportParams {
  /** What NCCL_DEBUG=INFO would call it, e.g. "SHM", "P2P/IPC", "P2P/NVLink". */
  label: string
  /** Latency per ring step (NCCL's hwLat), LL and Simple (µs). */
  hopLLUs: number
  hopSimpleUs: number
  /** Bus bandwidth the ring reaches at large sizes, LL and Simple (GB/s). */
  busBwLLGBs: number
  busBwSimpleGBs: number
}

/** The seeded noise model of one preset (all factors multiply a time). */
export interface NoiseParams {
  /** σ of the log-normal jitter on one printed value (nccl-tests: at 20 iterations). */
  sigma: number
  /** Probability that a printed value is an outlier, and its slow-down range. */
  outlierRate: number
  outlierMin: number
  outlierMax: number
  /** σ of the log-normal factor shared by every value of one trial (drift between trials). */
  driftSigma: number
  /** Slow-down of the very first iteration of a run without warm-up (a cold start). */
  coldFactor: number
}

/** A PCI function of a simulated `lspci -tv` tree. */
export interface PciNode {
  /** `dd.f` on its bus. */
  dev: string
  /** `Vendor Device` as lspci prints it (a bridge with devices below prints none). */
  name?: string
  /** A bridge: its secondary bus number and the functions on that bus. */
  bus?: number
  /** A bridge's subordinate bus, when firmware reserved more buses than the ones below use (default: the highest below). */
  subordinate?: number
  children?: readonly PciNode[]
  /** The physical GPU this function belongs to (the GPU and its audio function), so a GPU subset can be shown. */
  gpu?: number
}

/** A PCI root bus (one host bridge / root complex) and the functions on it. */
export interface PciRoot {
  domain: number
  bus: number
  devices: readonly PciNode[]
}

/** What the preset's machine shows the topology tools: NUMA, CPUs, hypervisor, PCI tree. */
export interface MachineSpec {
  /** NUMA node of a physical GPU; null where the OS shows none (nvidia-smi prints N/A). */
  numa(gpu: number): number | null
  /** The GPU's CPU affinity as `nvidia-smi topo -m` prints it (a cpulist). */
  cpuAffinity(gpu: number): string
  /** /proc/cpuinfo's vendor_id. */
  cpuVendor: string
  /** A guest: what DMI says (the `hypervisor` CPU flag is set too). Absent on bare metal. */
  vm?: { sysVendor: string; productName: string }
  /** NVLinks per GPU pair, printed as NV<k> for pairs at level NV. */
  nvlinks?: number
  /** The PCI tree `lspci -tv` prints; absent when not modelled. */
  pci?: readonly PciRoot[]
  /** Each GPU's PCIe link as trained (generation, lanes): what a reading under load gives. Absent: not modelled. */
  pcieLink?: { gen: number; width: number }
}

/** A simulated machine: every number documented with its source in the preset file. */
export interface Preset {
  name: string
  description: string
  gpuName: string
  hostname: string
  /** PCI bus number of each GPU (domain 0, device 0), index = CUDA ordinal. */
  pciBus: readonly number[]
  /** The path class of an ordered pair of distinct GPUs (physical indices). */
  link(src: number, dst: number): LinkParams
  local: LocalParams
  nccl: {
    /** NCCL's base latency per collective call, LL and Simple (µs). */
    baseLLUs: number
    baseSimpleUs: number
    /** The farthest path level NCCL uses P2P on by default (NCCL_P2P_LEVEL's default here). */
    p2pLevel: PathLevel
    p2p: TransportParams
    shm: TransportParams
    /** SHM with NCCL_SHM_USE_CUDA_MEMCPY=1: every step is a host-staged copy-engine copy. */
    shmMemcpy: TransportParams
    /**
     * Where NCCL's tuner switches P2P and SHM rings from LL to Simple, by group size, where
     * published for the machine (its model, not the measured lines, decides); otherwise where
     * the two lines cross.
     */
    simpleFromBytes?: Readonly<Record<number, number>>
    /**
     * Present where NCCL's tuner takes Simple from the smallest message on SHM rings that cross
     * the CPU sockets (a SYS pair in the group), unless NCCL_GRAPH_FILE gives it the topology:
     * why, with its source (AMD_XGMI_SIMPLE in presets/_common.ts).
     */
    shmSimpleAcrossSockets?: string
  }
  noise: NoiseParams
  /** How host knobs move a host-staged copy (a model; absent: knobs change nothing). */
  host?: HostModel
  /** The machine as the topology tools see it (`nvidia-smi topo`, `lspci -tv`, hypervisor checks). */
  machine: MachineSpec
}

/** The pairs p2p_bench measures (its --pairs). */
export type P2pPairs = 'all' | 'self' | 'cross' | readonly (readonly [number, number])[]

/**
 * A MODEL of the host's part in a host-staged copy, in µs per copy (and per host-staged ring
 * step), each with the assumption it rests on and its source.
 */
export interface HostModel {
  /** Removed by cstates=shallow: the wake-up of a thread that slept in a deep idle state. */
  wakeUs: number
  /** Added by numa=remote: staging through the other socket's memory. */
  crossSocketUs: number
  /** Removed by iommu=identity: IOMMU translation of the staged DMA. */
  iommuUs: number
  /** The assumptions and sources, in words (shown with the preset). */
  basis: string
}

/** Options of one simulated run (the CLI's flags, already parsed). */
export interface SimOptions {
  preset: string
  format: SimFormat
  collective?: Collective
  /** Physical GPU indices, in rank order. Default: every GPU of the preset. */
  gpus?: readonly number[]
  /** Message sizes in bytes (nccl-tests; p2p-bench: latency sizes). Default: 8 B … 64 MiB, ×2 (p2p-bench: 4 B … 1 MiB). */
  sizes?: readonly number[]
  /** p2p-bench: bandwidth sizes (bw_uni, bw_bi); none skips those tests. Default: 64 KiB … 256 MiB, ×4. */
  bwSizes?: readonly number[]
  /** p2p-bench: `all` (every ordered pair and each GPU to itself), `self`, `cross`, or [src, dst] device indices. */
  pairs?: P2pPairs
  /** p2p-bench: copy kinds, as its --copy (default both; the model costs them the same). */
  copies?: readonly ('ce' | 'sm')[]
  /** p2p-bench: P2P modes, as its --p2p (default enabled,disabled,bounce, as the bench's). */
  p2pModes?: readonly P2pMode[]
  /** How the sizes were given, for the banner's `step:` ("2(factor)", "1024(bytes)"). */
  step?: string
  iters?: number
  warmup?: number
  seed?: number
  trial?: number
  /** Requested environment (NCCL_P2P_DISABLE, NCCL_PROTO, NCCL_P2P_LEVEL, …). */
  env?: Readonly<Record<string, string>>
  /** Host knob values to model (cstates, numa, iommu), as `sweep --host-axis` sets them. */
  host?: Readonly<Record<string, string>>
  fault?: Fault
  /** Number of MPI/Slurm processes the ranks are spread over (1 = a single `-g N` process). */
  processes?: number
  /**
   * A known shift (`--sim-scale F`): every simulated time × F, every bandwidth ÷ F, with the
   * same noise draws. Default 1. Exists so gates and tests can be calibrated on a known truth.
   */
  scale?: number
}

/** A question about the model's true value (what noise-free hardware would print). */
export type TruthQuery =
  | {
      kind: 'collective'
      collective: Collective
      gpus: readonly number[]
      sizeBytes: number
      env?: Readonly<Record<string, string>>
    }
  | { kind: 'p2p-latency'; src: number; dst: number; p2p: 'enabled' | 'disabled'; timer?: 'gpu' | 'cpu' }

/** A question about a true p2p copy bandwidth. */
export interface BandwidthQuery {
  src: number
  dst: number
  p2p: 'enabled' | 'disabled'
  direction: 'uni' | 'bi'
}

/** The α–β line of one protocol: time = alphaS + sizeBytes / betaBps. */
export interface AlphaBeta {
  alphaS: number
  /** Effective bandwidth in terms of nccl-tests' size column (algbw at infinite size), B/s. */
  betaBps: number
  /** Bus bandwidth at infinite size (betaBps × busbw factor), B/s. */
  busBwBps: number
}

/** The model of one collective on one group of GPUs. */
export interface CollectiveModel {
  collective: Collective
  ranks: number
  transport: string
  /** Ring steps (α = base + steps·hop). */
  steps: number
  /** nccl-tests' busbw factor (2(n−1)/n for all_reduce, …). */
  busFactor: number
  ll: AlphaBeta
  simple: AlphaBeta
  /** Sizes below this use LL, from here on Simple (the crossover of the two lines, or the preset's tuner switch). */
  breakpointBytes: number
  /** A protocol forced by NCCL_PROTO, if any. */
  forced?: Protocol
}
