import type { Fleet } from './fleet/_fleet.ts'
/**
 * The JSON shapes `analyze` and `compare` return (and `--json` prints). All values are in
 * base units: seconds, bytes, bytes/second. Intervals that cannot be bounded (too few
 * samples) are `null` at the open end, since JSON has no infinity.
 */

import type { CellConfig } from '../cells/index.ts'
import type { Summary } from '../stats/index.ts'
import type { AlphaBeta } from './fit/_alphabeta.ts'
import type { SeriesId } from './fit/_series.ts'

/** The mechanism that explains a floor. */
export type MechanismId =
  | 'same-gpu'
  | 'p2p-pcie'
  | 'p2p-nvlink'
  | 'host-staged'
  | 'host-staged-slow'
  | 'nccl-p2p'
  | 'nccl-shm'
  | 'nccl-net'
  | 'nccl-nvls'
  | 'nccl-mnnvl'
  | 'undetermined'

/** A mechanism in plain words, with the detail that names it fully. */
export interface Mechanism {
  id: MechanismId
  /** Plain words, e.g. "P2P over PCIe (NODE: across host bridges within one CPU socket)". */
  text: string
  /** PCIe or NVLink link class of the pair (p2p mechanisms), when known. */
  linkClass?: string
  /** NCCL transport(s) as NCCL names them (collectives), e.g. ["SHM"], ["P2P/IPC"]. */
  transports?: string[]
  /** host-staged-slow: the likely causes, the best supported first. */
  causes?: string[]
}

/** One fact a verdict rests on, with where it was read. */
export interface Evidence {
  /** 1: what the tool itself reported; 2: topology and configuration; 3: the measured value. */
  strength: 1 | 2 | 3
  fact: string
  source: string
}

/** A band a verdict cites, with how far the value sits from it. */
export interface CitedBand {
  id: string
  label: string
  /** "10.27–14.22 µs". */
  range: string
  source: string
  /**
   * `match`: every condition of the band holds for this machine; `reference`: NCCL's own model;
   * `nearest`: the closest band of the same mechanism, shown because none matched (see `differs`).
   */
  role: 'match' | 'reference' | 'nearest'
  /** Conditions of a `nearest` band that this machine does not meet (GPU family, link classes, …). */
  differs?: string[]
  /** What was compared: "floor α", or "fitted time at 32 KiB–64 KiB". */
  compared: string
  /** Value ÷ nearest band edge − 1: 0 inside, +0.04 = 4 % above the top, −0.03 = 3 % below the bottom. */
  distance: number
  /** inside the band; within its tolerance (edge ± BAND_TOLERANCE, or the value's CI reaches it); outside. */
  position: 'inside' | 'tolerance' | 'outside'
}

/** Evidence that disagrees, as a finding. */
export interface Conflict {
  text: string
  /** The facts that disagree. */
  facts: string[]
}

/** One segment of a segmented α–β fit (between protocol breakpoints). */
export interface Segment {
  /** Smallest and largest message size in the segment (bytes). */
  fromBytes: number
  toBytes: number
  points: number
  alpha: number
  /** null when the segment's time does not grow with size (β not resolved). */
  beta: number | null
  /** Root-mean-square relative residual of the segment's line. */
  relRms: number
}

/** The α–β fit of one pair or group: time = α + size/β. */
export interface Fit extends SeriesId, AlphaBeta {
  /** Every bench whose rows went into the fit (`p2p.latency` also takes in `p2p.bw_uni` of the same pair). */
  benches: string[]
  /** Link class of the pair from the topology capture (NODE, SYS, PIX, NV18, …), when known. */
  linkClass?: string
  /** The mechanism that explains the floor, from the evidence. */
  mechanism: Mechanism
  /** The facts behind it, strongest first. */
  evidence: Evidence[]
  /** Bands cited for the mechanism (filtered by the machine's context), each with its distance. */
  cited: CitedBand[]
  /** Evidence that disagrees (a finding, not a failure). */
  conflicts: Conflict[]
  /** Ids of the cited bands the floor falls in (within tolerance). */
  bands: string[]
  /** Ids of the bandwidth bands β falls in. */
  betaBands: string[]
  /** One sentence placing the floor among the bands. */
  verdict: string
}

/**
 * Statistics of one cell (bench × pair or group × size × env × placement × metric), from
 * the cells module; CI ends that cannot be bounded (n < 6 at 95 %) are null.
 */
export interface AnalysisCell extends Omit<Summary, 'ci' | 'outliers'> {
  /** The cell key (`cellKey` of src/cells), the join key of diff. */
  key: string
  config: CellConfig
  /** The median's CI; an end that cannot be bounded is null (JSON has no ±∞). */
  ci: [number | null, number | null]
  /** Number of values flagged by the modified z-score (|z| > 3.5). */
  outliers: number
  /** Launches (trials) in the cell, and the standard deviation within / between launches. */
  launches: number
  withinStdev: number | null
  betweenStdev: number | null
}

/** A verdict line: what the analysis concludes about one subject. */
export interface Verdict {
  subject: string
  kind: 'floor' | 'class' | 'outlier' | 'note'
  text: string
  /** Floor verdicts: the mechanism, its evidence and conflicts. */
  mechanism?: Mechanism
  evidence?: Evidence[]
  conflicts?: Conflict[]
  /** Cited bands with their distance (floor verdicts; empty otherwise). */
  bands: CitedBand[]
}

/** Pairs aggregated by link class (from the topology capture; "all" without one). */
export interface LinkClassSummary {
  linkClass: string
  bench: string
  p2p: string | null
  /** `bounce`: P2P off, staged through host memory by the bench itself (p2p_bench). */
  staging?: 'bounce'
  copy?: 'ce' | 'sm'
  /** false when P2P was requested but the pairs had no peer access (host-staged fallback). */
  peerAccess?: boolean
  /** The arm (NCCL env and host-axis values, "cstates=shallow") when the set has several: never pooled. */
  arm?: string
  /** The mechanism most of the class's pairs share. */
  mechanism?: Mechanism
  pairs: number
  medianAlpha: number
  minAlpha: number
  maxAlpha: number
}

/** A GPU whose pairs are slower than the rest of their class. */
export interface GpuOutlier {
  gpu: number
  bench: string
  linkClass: string
  /** Median α over the GPU's pairs / median α over the class's pairs without it. */
  ratio: number
  pairs: number
}

/** Everything `analyze` finds in a result set. */
export interface Analysis {
  dir: string
  id: string
  simulated: boolean
  /** The simulator's known shift (`--sim-scale`), when the set was made with one. */
  simScale?: number
  fits: Fit[]
  cells: AnalysisCell[]
  verdicts: Verdict[]
  classes: LinkClassSummary[]
  outliers: GpuOutlier[]
  /** Where link classes came from, or why there were none. */
  topology: { source: string | null; note: string }
  /** Context the seeds need (e.g. the meaning of the 5–8 µs figure). */
  notes: string[]
  warnings: string[]
  /** Across nodes, for a cluster sweep: outlier nodes and links, pairwise bandwidth, scaling. */
  fleet?: Fleet
}

export type { Band, BandKind, BandMetric, NcclTransport } from '../bands/index.ts'
export type * from './compare/_types-compare.ts'

/** Re-exported for callers that build cells themselves. */
export type { Summary }
