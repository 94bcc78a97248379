/**
 * Hand-made diff cells and results for the diff format and projection tests: no statistics
 * run, every number chosen so the printed text can be worked out by hand.
 */
import type { CellConfig } from '../src/cells/index.ts'
import type { DiffCell, DiffResult, DiffSide } from '../src/diff/index.ts'
import type { Summary } from '../src/stats/index.ts'

/** The parts of a Summary the formatters read. */
export const summary = (median: number, ci: [number, number], n = 6): Summary =>
  ({ median, ci, n }) as unknown as Summary

/** A cell config of p2p.latency with every nullable field null, changed by `over`. */
export const cellConfig = (over: Partial<CellConfig> = {}): CellConfig => ({
  bench: 'p2p.latency',
  metric: 'latency',
  unit: 's',
  src: null,
  dst: null,
  ranks: null,
  sizeBytes: null,
  placement: null,
  p2p: null,
  timer: null,
  ...over,
})

/**
 * A significant, tested regression: A 10 µs (CI 9–11 µs, n = 6), B 20 µs (CI 19–21 µs, n = 7),
 * delta +100 %, p 0.0123, q 0.0456, resolution 100 ns; `over` changes what a case needs.
 */
export function diffCell(c: Partial<CellConfig>, over: Partial<DiffCell> = {}): DiffCell {
  const cfg = cellConfig(c)
  return {
    key: `k${cfg.src}${cfg.dst}${cfg.sizeBytes}${cfg.metric}`,
    bench: cfg.bench,
    metric: cfg.metric,
    unit: cfg.unit,
    label: '',
    config: cfg,
    a: summary(1e-5, [9e-6, 1.1e-5], 6),
    b: summary(2e-5, [1.9e-5, 2.1e-5], 7),
    values: [60, 70],
    delta: 1,
    fit: { ratio: 2, se: 0.05, df: 10, na: 6, nb: 7 },
    deltaCi: [0.8, 1.2],
    p: 0.0123,
    exact: true,
    tested: true,
    reachable: true,
    resolution: 1e-7,
    q: 0.0456,
    significant: true,
    better: 'lower',
    worse: 1,
    regression: true,
    errors: [],
    warnings: [],
    ...over,
  }
}

/** Side A of a result (runs/a, 26 rows, 4 cells), changed by `over`. */
export const diffSide = (over: Partial<DiffSide> = {}): DiffSide => ({
  dir: 'runs/a',
  id: 'id-a',
  origin: 'sweep',
  simulated: false,
  rows: 26,
  cells: 4,
  ...over,
})

/** A result of `cells` at alpha 0.05 and level 0.95, latency tested, nothing else to say. */
export function diffResult(cells: DiffCell[], over: Partial<DiffResult> = {}): DiffResult {
  return {
    a: diffSide(),
    b: diffSide({ dir: 'runs/b', id: 'id-b', rows: 30, cells: 5 }),
    alpha: 0.05,
    level: 0.95,
    simulated: false,
    cells,
    geomeans: [],
    onlyA: [],
    onlyB: [],
    testing: { metrics: ['latency'], cells: 1, expectedFalsePositives: 0, unreachable: [], minSamples: 4 },
    errors: [],
    warnings: [],
    ...over,
  }
}

/** The first line of the testing statement at alpha 0.05 and level 0.95. */
export const DIFF_HEAD =
  'delta = B vs A over launches (the unit of replication: each launch is the median of its iterations; ' +
  'n counts launches); ~ = not significant (Mann-Whitney U, exact below 50 values, ties included; ' +
  'p > 0.05, or within the printed resolution); ± or [lo, hi] = 95% CI of the median; ' +
  '[lo, hi] after delta = 95% CI of the change (Welch t on log launch medians)'
