/** The JSON shapes `compare` returns (groupings, conclusions, the decode-step model); base units. */

/** Median ± CI of one grouping at one size. */
export interface GroupingStat {
  grouping: string
  /** Values in the sample: one per trial (with `--pool`, the median of every group's values in it). */
  n: number
  median: number
  ci: [number | null, number | null]
  /**
   * How the groups of the grouping make one sample: 'single' (one group), 'max' (concurrent
   * groups: per trial the slowest, as a step waits for it), 'median' (concurrent groups
   * compared with a grouping of another group count: per trial the median of its groups,
   * like with like) or 'pooled' (`--pool`).
   */
  combined: 'single' | 'max' | 'median' | 'pooled'
  /** The sample (seconds), in trial order. */
  values: number[]
  /** Medians per GPU group inside the grouping (a TP4 grouping has two groups). */
  groups: { group: string; n: number; median: number }[]
}

/** One size of a comparison. */
export interface SizeComparison {
  sizeBytes: number
  groupings: GroupingStat[]
  /** The grouping with the lowest median time where the test (p < 0.05) says so; else null. */
  winner: string | null
  /** Slowest median / fastest median (≥ 1). */
  ratio: number | null
  /** Mann-Whitney U p-value between the two fastest groupings, when both have samples. */
  p: number | null
}

/** Where a band of sizes sits on the α–β line. */
export type SizeBand = 'latency' | 'transition' | 'bandwidth'

/** One sentence of `compare`: how much faster one axis value is than another over a band of sizes. */
export interface Conclusion {
  faster: string
  slower: string
  band: SizeBand
  fromBytes: number
  toBytes: number
  /** Sizes in the band, and launches a side (the fewer of the two) the ratio rests on. */
  sizes: number
  pairs: number
  /** Slower/faster: geometric means of each side's launch values over the band (≥ 1). */
  ratio: number
  /** Welch t 95 % interval of that ratio over launches; null bounds when under two launches a side. */
  ci: [number | null, number | null]
  /** The CI's larger half-width; null when unbounded. */
  pm: number | null
  /** The CI lies above 1: a difference beyond the noise. */
  clear: boolean
  /** The α–β (ring model) reading of the ratio, when it accounts for it. */
  reason: string | null
  /** The sentence, e.g. "tp4 is 1.91 ± 0.04× faster than tp8 at 8 B–32 KiB (latency-bound): …". */
  text: string
}

/** One bench compared across the values of the `by` axis. */
export interface BenchComparison {
  bench: string
  metric: 'time'
  groupings: string[]
  sizes: SizeComparison[]
  /** One per size band (and pair of axis values): the hyperfine-style summary. */
  conclusions: Conclusion[]
}

/** A model preset for the decode model. */
export interface ModelPreset {
  id: string
  name: string
  layers: number
  hidden: number
  dtypeBytes: number
  /** Concurrent sequences: tokens per decode step. */
  batch: number
  allreducesPerLayer: number
  source: string
}

/** One parallel plan of the decode model (TP8, TP4×PP2). */
export interface DecodePlan {
  plan: 'TP8' | 'TP4×PP2'
  tp: number
  pp: number
  /** The grouping whose measurements were used, or null when none matched. */
  grouping: string | null
  /** All-reduces on the critical path of one decode step (all stages, in sequence). */
  allreduces: number
  /** Measured all-reduce time at the payload (seconds), null when not measured. */
  allreduceTime: number | null
  /** How it was obtained: between two measured sizes (log-log), or the α–β fit beyond them. */
  allreduceFrom: 'interpolated' | 'measured' | 'fit-extrapolated' | 'none'
  /** Pipeline-boundary send/recv per step, and the time of one (seconds). */
  sendRecvs: number
  sendRecvTime: number | null
  sendRecvFrom: string
  /** Communication time per decode step (seconds) and the communication-only ceiling. */
  commTime: number | null
  tokPerSec: number | null
}

/** The two readings (per hop, whole transfer) of a p2p floor α in the decode model (docs/REFERENCE.md). */
export interface P2pReading {
  reading: 'per-hop' | 'whole-transfer'
  formula: string
  tp8: { allreduce: number; step: number; tokPerSec: number }
  tp4: { allreduce: number; step: number; tokPerSec: number }
}

/** The decode-step communication model. */
export interface DecodeModel {
  model: ModelPreset
  /** Bytes per all-reduce: batch × hidden × dtype bytes. */
  payloadBytes: number
  allreducesPerStep: number
  plans: DecodePlan[]
  /** From the p2p floor, when one was measured: both readings and which one the data supports. */
  p2pReadings: {
    alpha: number
    readings: P2pReading[]
    supported: 'per-hop' | 'whole-transfer' | 'undecided'
    why: string
  } | null
  notes: string[]
}

/** What `compare` returns. */
export interface Comparison {
  dir: string
  id: string
  simulated: boolean
  /** The simulator's known shift (`--sim-scale`), when the set was made with one. */
  simScale?: number
  by: string
  /** Concurrent groups pooled (`--pool`) instead of the slowest per trial. */
  pool: boolean
  benches: BenchComparison[]
  decode: DecodeModel | null
  warnings: string[]
}
