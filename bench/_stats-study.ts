/**
 * The calibration studies of `diff` on the simulator, whose truth is known (issue 31): pairs
 * of SIMULATED sets of one preset with different seeds, B optionally made with a known shift
 * (`--sim-scale F`: every simulated time × F, bandwidth ÷ F). Per cell class
 * (same-GPU p2p, cross-GPU p2p, NCCL): the share of tested cells flagged (significant at
 * α = 0.05) and the coverage of the 95 % CI of the change; per pair: whether
 * `--fail-on-regression PCT` fails. In process, library calls only.
 */
import type { DiffCell } from '../src/diff/index.ts'
import { diffSets, gate } from '../src/diff/index.ts'
import type { SimLoadedSpec } from '../test/sim-loaded.ts'
import { simLoaded } from '../test/sim-loaded.ts'

/** The cell classes the acceptance is stated for. */
export const CLASSES = ['same-GPU p2p', 'cross-GPU p2p', 'NCCL'] as const
export type CellClass = (typeof CLASSES)[number]

export function classOf(c: DiffCell): CellClass {
  if (c.bench.startsWith('nccl.')) return 'NCCL'
  return c.config.src !== null && c.config.src === c.config.dst ? 'same-GPU p2p' : 'cross-GPU p2p'
}

/**
 * Small sets at the sweep's default 6 trials: p2pBandwidthLatencyTest matrices of 4 GPUs
 * (self-copies on the diagonal, one value a launch), p2p_bench latency at 8 B with 20
 * iterations a launch (P2P on and off), all_reduce on GPUs 0-3 at 8 B and 1 MiB.
 */
export const STUDY_SET: Omit<SimLoadedSpec, 'preset' | 'seed'> = {
  trials: 6,
  p2pGpus: [0, 1, 2, 3],
  groups: [[0, 1, 2, 3]],
  sizes: [8, 1 << 20],
  bench: { sizes: [8], iters: 20 },
}

type PerClass = Record<CellClass, number>
const zero = (): PerClass => ({ 'same-GPU p2p': 0, 'cross-GPU p2p': 0, NCCL: 0 })

/** What one study found. */
export interface Tally {
  preset: string
  pairs: number
  scale: number
  gatePct: number
  tested: PerClass
  flagged: PerClass
  /** Cells with a CI of the change, and those whose CI holds the true change. */
  withCi: PerClass
  covered: PerClass
  /** Pairs on which `--fail-on-regression gatePct` fails. */
  gateFails: number
}

/**
 * `pairs` pairs of sets of `preset` (seeds from `seedBase`), B slowed by `scale`; the gate
 * at `gatePct` percent with the Benjamini–Hochberg control, as `diff` runs it by default.
 */
export function study(preset: string, pairs: number, scale: number, gatePct: number, seedBase: number): Tally {
  const t: Tally = {
    preset,
    pairs,
    scale,
    gatePct,
    tested: zero(),
    flagged: zero(),
    withCi: zero(),
    covered: zero(),
    gateFails: 0,
  }
  for (let i = 0; i < pairs; i++) {
    const a = simLoaded({ ...STUDY_SET, preset, seed: seedBase + 2 * i })
    const b = simLoaded({ ...STUDY_SET, preset, seed: seedBase + 2 * i + 1, simScale: scale })
    const r = diffSets(a, b)
    for (const c of r.cells) {
      if (!c.tested) continue
      const k = classOf(c)
      t.tested[k]++
      if (c.significant) t.flagged[k]++
      if (!c.deltaCi) continue
      // The true change of B/A − 1: times × scale, bandwidths ÷ scale.
      const truth = c.better === 'lower' ? scale - 1 : 1 / scale - 1
      t.withCi[k]++
      if (c.deltaCi[0] <= truth && truth <= c.deltaCi[1]) t.covered[k]++
    }
    if (gate(r, gatePct).failures.length > 0) t.gateFails++
  }
  return t
}

/** "3.1 % (12 of 388)". */
export const share = (k: number, n: number): string => `${n ? ((100 * k) / n).toFixed(1) : '–'} % (${k} of ${n})`
