/** Sweep types: the spec (what to measure) and the points a plan expands it into. */

/** How points are ordered: trial-major round robin, or shuffled by the recorded seed. */
export type Order = 'interleaved' | 'shuffled'

/** Which launcher starts the processes of one group. */
export type LauncherId = 'local' | 'mpirun' | 'srun'

/** How srun asks for GPUs: one per task, a node-level gres request, or not at all. */
export type SrunGpus = 'gpus-per-task' | 'gres' | 'none'

/** A fault the simulator injects into matching points (tests of the driver). */
export interface SimFault {
  /** Substring of the point id that selects the points. */
  match: string
  fault: 'hang' | 'crash' | 'garbage' | 'truncated' | 'corrupt' | 'exit'
  /** Inject only on attempts up to this number (1 = first attempt only); all when absent. */
  attempts?: number
}

/** Paths of the upstream and native binaries, when given. */
export interface InstrumentPaths {
  ncclTestsDir?: string
  p2pBin?: string
  nvbandwidthBin?: string
  nativeDir?: string
}

/** A resolved sweep specification (from flags or a bench/*.json preset). */
export interface SweepSpec {
  /** Instrument ids, e.g. ["sim"] or ["nccl-tests", "p2p"]. */
  instruments: string[]
  /** Simulator preset (sim only). */
  preset?: string
  /** The simulator's known shift (`--sim-scale`, sim only): times × F, bandwidths ÷ F. Absent: 1. */
  simScale?: number
  gpus: number[]
  /** Ordered GPU pairs to measure; "none" skips the pair benches. */
  pairs: 'none' | [number, number][]
  /** Grouping tokens: tp8, tp4, tp2, best, or explicit "0-3/4-7". */
  groupings: string[]
  collectives: string[]
  sizes: number[]
  /** NCCL (or other) env axes, in order; the plan takes their cartesian product. */
  env: [string, string[]][]
  /** Host knob axes (`--host-axis cstates=default,shallow`), crossed with every point. */
  host: [string, string[]][]
  /** A stand-in root whose sys/ the host knobs read and write instead of the live one (tests). */
  hostRoot?: string
  trials: number
  warmup: number
  iters: number
  order: Order
  seed: number
  launcher: LauncherId
  /** Hosts for mpirun/srun ("" entries never); empty = local host / the allocation. */
  hosts: string[]
  srunGpus: SrunGpus
  /** Capture NCCL_DEBUG=INFO and parse NCCL's own account of each collective point. */
  ncclDebug: boolean
  /** Watchdog: kill a launch that prints nothing for this long (seconds). */
  noOutputTimeoutS: number
  /** Watchdog: kill a launch that runs longer than this (seconds). */
  hardTimeoutS: number
  retries: number
  retryBackoffS: number
  paths: InstrumentPaths
  faults: SimFault[]
  /** Adaptive repetition (--target-ci): `trials` is then the maximum. */
  adaptive?: AdaptiveSpec
  /** A sweep across nodes (--nodes/--pattern); src/cluster plans and runs it. */
  cluster?: ClusterInput
}

/** The cluster flags of a spec, as given (src/cluster checks them against the nodes). */
export interface ClusterInput {
  /** Simulated node count, or how many nodes of the allocation to use. */
  nodes?: number
  /** per-node, node-pairs, scaling. */
  patterns: string[]
  /** node-pairs: the first K rounds only (K-regular). */
  pairsPerNode?: number
  /** Simulated faults, KIND@NODE. */
  inject: string[]
  /** Simulated inter-node network. */
  fabric?: string
}

/** Adaptive repetition: launch a point until its median's 95 % CI is within the target. */
export interface AdaptiveSpec {
  /** Target half-width of the CI of the median, in percent of the median. */
  targetCiPct: number
  minTrials: number
  maxTrials: number
}

/** What kind of measurement a bench makes. */
export type BenchKind = 'pairs' | 'collective'

/** One sweep point: one measurement launched as one or more concurrent groups. */
export interface Point {
  /** Stable id, the same for the same measurement in every plan (resume matches on it). */
  id: string
  instrument: string
  /** Row bench family: "p2p", "nccl.all_reduce", "native.<name>", … */
  bench: string
  kind: BenchKind
  /** Collective name (collective points). */
  collective?: string
  /** Grouping name (collective points), e.g. "tp4". */
  grouping?: string
  /** GPU groups launched concurrently; a pairs point has one group (the GPUs involved). */
  groups: number[][]
  /** Requested pairs (pairs points). */
  pairs?: [number, number][]
  sizes: number[]
  /** Requested env of this point (one value per env axis). */
  env: Record<string, string>
  /** Host knob values of this point (one per host axis), when the sweep has host axes. */
  host?: Record<string, string>
  /** 1-based trial number. */
  trial: number
}

/** A point the plan could not form, with the reason (recorded as skipped). */
export interface SkippedPoint {
  id: string
  reason: string
}

/** The expanded plan: points in execution order plus the skips. */
export interface Plan {
  points: Point[]
  skipped: SkippedPoint[]
}
