import type { BenchDef, Point, SweepSpec } from '../sweep/index.ts'

/** What an instrument asks to run for one group of a point (before the launcher wraps it). */
export interface Invocation {
  /** Program and arguments (argv[0] is the program; never a shell string). */
  argv: string[]
  /** Environment added to the launcher's (NCCL_* axes, NCCL_DEBUG, …). */
  env: Record<string, string>
  /** Suggested hard cap for this launch; the driver's watchdog caps at the smaller one. */
  timeoutMs?: number
}

/** How the launcher will run one group, which shapes the command line (-g N vs one GPU per rank). */
export interface LaunchShape {
  /** GPUs of this group (physical indices). */
  gpus: number[]
  /** Processes started for this group: 1 = one process drives every GPU of the group. */
  procs: number
}

/** Everything a command line may depend on besides the point. */
export interface InstrumentContext {
  spec: SweepSpec
  /** The repository root (the simulator runs its bin/gpucomm.js). */
  repoRoot: string
  /** The node binary (process.execPath). */
  nodePath: string
  /** The result-set directory (absolute), for per-launch scratch files such as a bootstrap dir. */
  scratchDir?: string
}

/** Files and facts whose bytes identify an instrument build; the driver hashes them. */
export interface InstrumentIdentity {
  name: string
  version?: string
  /** Files or directories to hash (binaries, sources); a missing one hashes as absent. */
  paths: string[]
  /** Other facts that change the numbers (e.g. the simulator preset and seed). */
  extra?: string
}

/**
 * An instrument plug-in: pure functions from a point to a command line and the parser
 * that reads its output. Instruments never spawn processes or print.
 */
export interface Instrument {
  readonly id: string
  readonly description: string
  /** True for the simulator: its result sets are marked simulated. */
  readonly simulated: boolean
  /**
   * How the output numbers devices: "visible" = 0..n-1 of CUDA_VISIBLE_DEVICES (the
   * driver maps them back to physical indices), "physical" = the indices asked for.
   */
  readonly deviceIds: 'visible' | 'physical'
  /** The benches this instrument runs for a spec. */
  benches(spec: SweepSpec): BenchDef[]
  /** Why it cannot run here (e.g. a binary is missing), or undefined. `exists` is injected IO. */
  unavailable(ctx: InstrumentContext, exists: (path: string) => boolean): string | undefined
  /** The command for one group of a point; `attempt` is 1-based. Pure. */
  command(point: Point, shape: LaunchShape, ctx: InstrumentContext, attempt: number): Invocation
  /** Id of the parser (src/parsers registry) that reads this point's stdout. */
  parser(point: Point): string
  /** What identifies this build (hashed into the instrument hash). */
  identity(ctx: InstrumentContext): InstrumentIdentity
  /**
   * A simulated instrument's reading of the GPUs' PCIe links under load (the machine it
   * models, not this host's), for the sweep to record; real instruments leave it out (the
   * driver reads sysfs or nvidia-smi -q). Pure.
   */
  linkUnderLoad?(ctx: InstrumentContext, gpus: readonly number[]): SimLinkReading[]
}

/** One GPU link as a simulated instrument reads it under load: bus id, generation, lanes (current = trained). */
export interface SimLinkReading {
  bdf: string
  gen: number
  width: number
}
