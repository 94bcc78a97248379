import type { NcclAccount } from './_nccl-account.ts'

/**
 * The result-set model: plain, JSON-serializable data in base units
 * (bytes, seconds, bytes/second). Nothing here does IO.
 */

/** Base units only; conversion to µs, GB/s etc. happens at the edge. */
export type Unit = 's' | 'B/s' | 'count'

/** What a row measures. */
export type Metric = 'time' | 'algbw' | 'busbw' | 'wrong' | 'latency' | 'bandwidth'

/** Where a row came from: the raw file (relative to the result set) and its 1-based line. */
export interface SourceRef {
  file: string
  line: number
}

/**
 * One measurement. `bench` names the benchmark: `nccl.<collective>`, `p2p.latency`,
 * `p2p.bw_uni`, `p2p.bw_bi`, `nvbw.<testcase>`, `native.<name>`.
 */
export interface Row {
  bench: string
  metric: Metric
  unit: Unit
  value: number
  sizeBytes: number | null
  /**
   * The size the run was asked for, when the source says it and it differs from the printed
   * `sizeBytes` (nccl-tests prints count × type size, so all_gather at 8 B on 8 ranks prints 0 B).
   * Cells are keyed by it: 8 B and 16 B requests stay apart though both print 0 B.
   */
  requestedBytes?: number
  ranks: number | null
  src: number | null
  dst: number | null
  placement: 'out-of-place' | 'in-place' | null
  p2p: 'enabled' | 'disabled' | null
  timer: 'gpu' | 'cpu' | null
  trial: number
  source: SourceRef
  dtype?: string
  redop?: string
  root?: number
  /** false when the pair had no peer access although P2P was requested (host-staged fallback). */
  peerAccess?: boolean
  /** Copy engine (`ce`) or SM kernel (`sm`) copy, for p2p benches. */
  copy?: 'ce' | 'sm'
  /**
   * `bounce`: a P2P-disabled copy the bench itself staged through pinned host memory (in chunks),
   * rather than one the driver staged (cudaMemcpyPeerAsync with peer access off, no field).
   */
  staging?: 'bounce'
  /** Copies one timed sample covered (its value is per copy), for p2p benches that batch. */
  batch?: number
  /** Read or write direction of a P2P test where the tool distinguishes it. */
  direction?: 'read' | 'write'
  /** Per-iteration index, when the instrument printed every iteration. */
  iteration?: number
  /** GPUs of the group a collective ran on, e.g. "0-3" or "0,2,4,6". */
  group?: string
  /** Name of the grouping the point belonged to, e.g. "tp8", "tp4". */
  grouping?: string
  /** Sweep point id this row belongs to. */
  point?: string
  /** Requested environment settings of the point (NCCL_* etc.). */
  env?: Record<string, string>
  /** Host knob values of the point (sweep --host-axis), e.g. {"cstates": "shallow"}. */
  hostAxis?: Record<string, string>
  /** Host that printed the row, when known. */
  host?: string
}

/** A parse or load problem; parsing goes on after one. */
export interface Diagnostic {
  file: string
  line: number
  severity: 'info' | 'warn' | 'error'
  /** Stable short code, e.g. `incomplete`, `na-cell`, `corrupt-line`. */
  code: string
  message: string
}

/** Facts about the host a set was measured on, each optional. */
export interface HostFacts {
  hostname?: string
  gpus?: { index: number; name?: string; busId?: string; computeCap?: string }[]
  driver?: string
  cuda?: string
  nccl?: string
  ncclTests?: string
  env?: Record<string, string>
  [key: string]: unknown
}

/** One imported file, as kept under raw/. */
export interface SourceFile {
  /** Path as the user gave it ("-" for stdin). */
  path: string
  /** Path under the result set, e.g. "raw/000-foo.txt". */
  raw: string
  sha256: string
  bytes: number
  /** Parser id that read it. */
  format: string
  /** What the parser learnt about the file (versions, banner parameters, ...). */
  meta: Record<string, unknown>
  rows: number
  diagnostics: number
  /** NCCL's own account, when the file holds NCCL_DEBUG=INFO lines (transports, channels, tuner choices, version). */
  nccl?: NcclAccount
}

/** Outcome of one sweep point. */
export type PointOutcome =
  | { status: 'ok'; attempts: number; wallS: number; rows: number }
  | { status: 'failed'; attempts: number; exitCode: number | null; reason: string }
  | { status: 'hung'; attempts: number; reason: string }
  | { status: 'corrupt'; attempts: number; reason: string }
  | { status: 'skipped'; reason: string }

/** One committed samples part (Manifest.parts). */
export interface PartRecord {
  file: string
  sha256: string
}

/** `manifest.json` of a result set. */
export interface Manifest {
  /** 2: samples in Parquet parts under samples/; 1: samples.jsonl (still read; written as 2). */
  schema: 1 | 2
  id: string
  created: string
  origin: 'import' | 'sweep'
  simulated: boolean
  /**
   * Simulated sets made with `--sim-scale F`: every time × F, bandwidths ÷ F (a known shift
   * for calibrating gates). Absent: 1.
   */
  simScale?: number
  instrument?: { name: string; version?: string; hash?: string }
  host?: HostFacts
  command: string[]
  gpucommVersion: string
  sources?: SourceFile[]
  outcomes?: Record<string, PointOutcome>
  /**
   * The committed samples parts (file names under samples/, in write order) with each one's
   * sha256: a part counts only once listed here. Absent in sets written before it existed
   * (every part there counts, unchecked).
   */
  parts?: PartRecord[]
  /** Anything a later stage adds (sweep spec, topology capture path, ...). */
  extra?: Record<string, unknown>
}

/** The current manifest schema version. */
export const SCHEMA_VERSION = 2 as const

/**
 * First line of every text the simulator prints. Importers and parsers that see it mark
 * the result set `simulated`; it is never printed by a real instrument.
 */
export const SIM_MARKER = '# SIMULATED by gpucomm sim'
