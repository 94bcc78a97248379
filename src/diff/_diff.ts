/**
 * `diffSets`: benchstat for result sets. Both sets are grouped into cells by key; every
 * cell found in both is compared launch by launch: each launch (trial) of a cell is reduced
 * to the median of its iterations, and the medians, the Mann-Whitney U test and the Welch
 * interval of the change all work on those launch medians (iterations are not independent).
 */

import type { RowGroup } from '../cells/index.ts'
import { compareCells, groupRows, keyLabel, lowerIsBetter } from '../cells/index.ts'
import { badInput } from '../errors/index.ts'
import type { Metric } from '../model/index.ts'
import type { ReadSet } from '../resultset/index.ts'
import { rowCount } from '../resultset/index.ts'
import type { LogRatio } from '../stats/index.ts'
import {
  DEFAULT_THRESHOLDS,
  geomean,
  launchMedians,
  logRatio,
  mannWhitney,
  ratioInterval,
  summarize,
} from '../stats/index.ts'
import { gate } from './_evidence.ts'
import { attachErrors, testingOf, withFdr } from './_findings.ts'
import { canReach, isTested, printedStep, withinResolution } from './_gate.ts'
import { withChanges } from './_observed.ts'
import type { DiffCell, DiffGeomean, DiffOptions, DiffResult, DiffSide, GateCorrection } from './_types.ts'

/** (b − a)/a, with 0 when both are 0 and ±∞ when only a is 0. */
export function relDelta(a: number, b: number): number {
  if (a === 0) return b === 0 ? 0 : b > 0 ? Infinity : -Infinity
  return (b - a) / a
}

function side(set: ReadSet, n: number): DiffSide {
  const m = set.manifest
  const scale = m.simScale !== undefined ? { simScale: m.simScale } : {}
  return { dir: set.dir, id: m.id, origin: m.origin, simulated: m.simulated, ...scale, rows: rowCount(set), cells: n }
}

/**
 * se = 0 (every launch printed one value on each side): the spread is below what the tool
 * prints, not zero. The printed resolution is the floor: half a printed step on each side's
 * median as its standard error, so the CI of the change (and the gate's bound) is never
 * zero-width. Before, 10.0 µs × 6 against 10.5 µs × 6 gave "+5.00% [+5.0%, +5.0%]".
 */
function floored(fit: LogRatio | undefined, step: number, ma: number, mb: number): LogRatio | null {
  if (!fit) return null
  if (fit.se > 0 || step <= 0) return fit
  return { ...fit, se: Math.hypot(step / 2 / ma, step / 2 / mb) }
}

function compareCell(
  key: string,
  ga: RowGroup,
  gb: RowGroup,
  opts: { alpha: number; level: number; metrics?: Metric[] },
): DiffCell {
  const { alpha, level } = opts
  const la = launchMedians(ga.values, ga.launch)
  const lb = launchMedians(gb.values, gb.launch)
  const a = summarize(la, level, 'launches')
  const b = summarize(lb, level, 'launches')
  const { config } = ga
  const tested = isTested(config.metric, opts.metrics)
  const reachable = canReach(la.length, lb.length, alpha)
  const mw = tested ? mannWhitney(la, lb) : { p: NaN, exact: false }
  const p = tested && Number.isNaN(mw.p) ? 1 : mw.p
  const resolution = printedStep(ga.values, gb.values)
  const delta = relDelta(a.median, b.median)
  const fit = floored(logRatio(la, lb), resolution, a.median, b.median)
  const ci = fit ? ratioInterval(fit, level) : null
  const lower = lowerIsBetter(config.metric, config.unit)
  const worse = lower ? delta : -delta
  const significant = tested && reachable && p <= alpha && !withinResolution(a.median, b.median, resolution)
  const warnings = [...a.warnings.map((w) => `A: ${w}`), ...b.warnings.map((w) => `B: ${w}`)]
  return {
    key,
    bench: config.bench,
    metric: config.metric,
    unit: config.unit,
    label: keyLabel(key),
    config,
    a,
    b,
    delta,
    fit,
    deltaCi: ci ? [ci[0] - 1, ci[1] - 1] : null,
    values: [ga.values.length, gb.values.length],
    p,
    exact: mw.exact,
    tested,
    reachable,
    resolution,
    q: NaN,
    significant,
    better: lower ? 'lower' : 'higher',
    worse,
    regression: significant && worse > 0,
    errors: [],
    warnings,
  }
}

function geomeans(rows: readonly DiffCell[], warnings: string[]): DiffGeomean[] {
  const byMetric = new Map<string, DiffCell[]>()
  for (const c of rows) {
    const k = `${c.metric}\u0000${c.unit}`
    const list = byMetric.get(k)
    if (list) list.push(c)
    else byMetric.set(k, [c])
  }
  const out: DiffGeomean[] = []
  for (const list of byMetric.values()) {
    const first = list[0] as DiffCell
    const a = geomean(list.map((c) => c.a.median))
    const b = geomean(list.map((c) => c.b.median))
    if (Number.isNaN(a) || Number.isNaN(b)) {
      warnings.push(`no geomean for metric ${first.metric}: some medians are zero or negative`)
      continue
    }
    out.push({ metric: first.metric, unit: first.unit, cells: list.length, a, b, delta: b / a - 1 })
  }
  return out
}

/** Per-cell warnings folded into "message (N cells)" lines, in first-seen order. */
function foldWarnings(rows: readonly DiffCell[]): string[] {
  const counts = new Map<string, number>()
  for (const c of rows) for (const w of c.warnings) counts.set(w, (counts.get(w) ?? 0) + 1)
  return [...counts].map(([w, n]) => `${w} (${n} cell${n === 1 ? '' : 's'})`)
}

function setWarnings(a: ReadSet, b: ReadSet): string[] {
  const w: string[] = []
  for (const [name, s] of [
    ['A', a],
    ['B', b],
  ] as const) {
    if (s.diagnostics.length > 0)
      w.push(
        `${name}: ${s.diagnostics.length} unreadable line${s.diagnostics.length === 1 ? '' : 's'} in ${s.dir} skipped`,
      )
    if (rowCount(s) === 0) w.push(`${name}: ${s.dir} holds no rows`)
  }
  if (a.manifest.simulated || b.manifest.simulated) {
    w.push(
      `SIMULATED data: ${[a, b]
        .filter((s) => s.manifest.simulated)
        .map((s) => s.dir)
        .join(' and ')}`,
    )
  }
  return w
}

/**
 * Compares result set B against A, cell by cell. Throws `badInput` (exit 2) when exactly
 * one set is SIMULATED, unless `allowSim`.
 */
export function diffSets(a: ReadSet, b: ReadSet, opts: DiffOptions = {}): DiffResult {
  const alpha = opts.alpha ?? DEFAULT_THRESHOLDS.alpha
  const level = opts.level ?? DEFAULT_THRESHOLDS.ciLevel
  if (!(alpha > 0 && alpha < 1)) throw badInput(`diff: alpha must be between 0 and 1, got ${alpha}`)
  if (a.manifest.simulated !== b.manifest.simulated && !opts.allowSim) {
    const [sim, real] = a.manifest.simulated ? [a, b] : [b, a]
    throw badInput(
      `diff: ${sim.dir} is SIMULATED and ` +
        `${real.dir} is real; comparing them says nothing about hardware (pass --allow-sim to do it anyway)`,
    )
  }
  // Group only (no per-cell variance); summaries are computed for cells found in both.
  // Matched on what was asked; what the machine gave (peer access) is shown beside the cell.
  const ga = [...groupRows(a.rows, { requested: true })]
    .map(([key, g]) => ({ key, config: g.config, g }))
    .sort(compareCells)
  const gb = groupRows(b.rows, { requested: true })
  const nA = ga.length
  const nB = gb.size
  const rows: DiffCell[] = []
  const wrong: { key: string; a: RowGroup | undefined; b: RowGroup | undefined }[] = []
  const onlyA: string[] = []
  for (const { key, g } of ga) {
    const other = gb.get(key)
    if (g.config.metric === 'wrong') wrong.push({ key, a: g, b: other })
    else if (!other) onlyA.push(key)
    else rows.push(withChanges(compareCell(key, g, other, { alpha, level, metrics: opts.metrics }), g, other))
    gb.delete(key)
  }
  for (const [key, g] of gb) if (g.config.metric === 'wrong') wrong.push({ key, a: undefined, b: g })
  for (const w of wrong) gb.delete(w.key)
  const onlyB = [...gb]
    .map(([key, g]) => ({ key, config: g.config }))
    .sort(compareCells)
    .map((c) => c.key)
  const warnings = setWarnings(a, b)
  if (rows.length === 0)
    warnings.push('no cell is found in both sets: nothing to compare (are they from the same benchmarks and sizes?)')
  const gm = geomeans(rows, warnings)
  warnings.push(...foldWarnings(rows))
  const simulated = a.manifest.simulated || b.manifest.simulated
  withFdr(rows)
  const errors = attachErrors(rows, wrong)
  const testing = testingOf(rows, alpha, opts.metrics)
  return {
    a: side(a, nA),
    b: side(b, nB),
    alpha,
    level,
    simulated,
    cells: rows,
    geomeans: gm,
    onlyA,
    onlyB,
    testing,
    errors,
    warnings,
  }
}

/**
 * Cells on which `--fail-on-regression pct` fails, the largest bound first: B is worse than
 * A by more than `pct` percent at the stated confidence (see `gate`, which also gives the
 * bounds). `correction: 'bh'` (default) controls the false-discovery rate over the tested
 * cells; `'none'` takes each cell's one-sided p ≤ alpha as it stands.
 */
export function regressions(result: DiffResult, pct: number, correction: GateCorrection = 'bh'): DiffCell[] {
  return gate(result, pct, correction).failures.map((f) => f.cell)
}
