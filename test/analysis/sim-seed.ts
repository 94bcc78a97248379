/**
 * One preset's SIMULATED p2p matrix and all_reduce (8 and 4 GPUs) at one seed, parsed and
 * analyzed in-process (no CLI), and the words of band ranges read back as numbers.
 */
import assert from 'node:assert/strict'
import type { Analysis, TopologyView } from '../../src/analysis/index.ts'
import { analyzeSet } from '../../src/analysis/index.ts'
import type { Row } from '../../src/model/index.ts'
import { DETECT_BYTES, detectParser } from '../../src/parsers/index.ts'
import { newManifest } from '../../src/resultset/index.ts'
import type { SimOptions } from '../../src/sim/index.ts'
import { simulate } from '../../src/sim/index.ts'

const ALL = [0, 1, 2, 3, 4, 5, 6, 7]
const SIZES = [8, 64, 512, 4096, 32768, 65536, 262144]

/** Rows of one simulated output, parsed as import would. */
export function rowsOf(text: string, file: string): Row[] {
  const parser = detectParser(text.slice(0, DETECT_BYTES))
  assert.ok(parser, file)
  const rows: Row[] = []
  const lp = parser.open({ file }, (r) => rows.push(r))
  text.split('\n').forEach((l, i) => lp.line(l, i + 1))
  lp.end()
  return rows
}

/**
 * The rows of one preset and seed and their analysis (5 bootstrap replicates, no cells). The
 * pairs through p2pBandwidthLatencyTest (one 16 B copy), or with `p2pSizes` through p2p_bench
 * (CE copies, P2P on and off, these sizes: a latency-vs-size curve per pair).
 */
export function simSeed(
  preset: string,
  seed: number,
  topology: TopologyView,
  p2pSizes?: number[],
): { rows: Row[]; analysis: Analysis } {
  const base = { preset, gpus: ALL, seed, trial: 0 }
  const p2p: SimOptions = p2pSizes
    ? {
        ...base,
        format: 'p2p-bench',
        sizes: p2pSizes,
        bwSizes: [],
        iters: 5,
        copies: ['ce'],
        p2pModes: ['enabled', 'disabled'],
      }
    : { ...base, format: 'p2p' }
  const runs: SimOptions[] = [p2p, ...allReduceRuns(preset, seed, [ALL, [0, 1, 2, 3]], SIZES)]
  const rows = simRows(runs)
  return { rows, analysis: analyzeSim(`sim-${preset}-${seed}`, rows, topology, 5) }
}

/** One all_reduce nccl-tests run per group of GPUs, at these sizes (trial 0). */
export function allReduceRuns(
  preset: string,
  seed: number,
  groups: readonly number[][],
  sizes: readonly number[],
): SimOptions[] {
  return groups.map((gpus) => ({
    preset,
    format: 'nccl-tests',
    collective: 'all_reduce',
    gpus,
    sizes: [...sizes],
    seed,
    trial: 0,
  }))
}

/** The rows of simulated runs, each nccl-tests run's rows in the group of its GPUs ("0-3"). */
export function simRows(runs: readonly SimOptions[]): Row[] {
  return runs.flatMap((o, i) => {
    const group = o.format === 'nccl-tests' ? `${o.gpus?.[0]}-${o.gpus?.at(-1)}` : undefined
    return rowsOf(simulate(o), `raw/sim-${i}.txt`).map((r) => (group ? { ...r, group } : r))
  })
}

/** SIMULATED rows analysed in-process as an imported set (no cells, `replicates` bootstrap replicates). */
export function analyzeSim(dir: string, rows: Row[], topology: TopologyView, replicates: number): Analysis {
  const manifest = newManifest({ origin: 'import', simulated: true, command: ['generated-by-test'] })
  return analyzeSet({ dir, manifest, rows, diagnostics: [] }, { topology, cells: false, replicates })
}

const UNIT: Record<string, number> = { ns: 1e-9, µs: 1e-6, ms: 1e-3, s: 1 }
const NUM = String.raw`(\d+(?:\.\d+)?)(?: (ns|µs|ms|s))?`
/** "12.6–15.4 µs", "980 ns–1.2 µs", "14 µs" → seconds. */
export function parseRange(t: string): [number, number] {
  const m = new RegExp(`^${NUM}(?:–${NUM})?$`).exec(t)
  assert.ok(m, `range '${t}'`)
  const hiUnit = (m[4] ?? m[2]) as string
  const lo = Number(m[1]) * (UNIT[m[2] ?? hiUnit] as number)
  const hi = m[3] === undefined ? lo : Number(m[3]) * (UNIT[hiUnit] as number)
  return [lo, hi]
}

/** "14.1 µs" → seconds. */
export const parseSeconds = (t: string): number => {
  const m = /^(\d+(?:\.\d+)?) (ns|µs|ms|s)$/.exec(t)
  assert.ok(m, `value '${t}'`)
  return Number(m[1]) * (UNIT[m[2] as string] as number)
}
