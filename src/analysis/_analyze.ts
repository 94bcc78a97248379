/**
 * `analyze`: a result set → fits (α–β per pair and group), cells, verdicts placing every
 * floor among the expectation bands, and the topology join.
 */

import type { Cell } from '../cells/index.ts'
import { cells as buildCells } from '../cells/index.ts'
import type { LoadedSet } from '../resultset/index.ts'
import { formatSeconds } from '../units/index.ts'
import type { FitOptions } from './_alphabeta.ts'
import { fitSeries } from './_alphabeta.ts'
import type { TopologyView } from './_join.ts'
import { gpuOutliers, joinVerdicts, linkClasses } from './_join.ts'
import type { Series } from './_series.ts'
import { buildSeries } from './_series.ts'
import type { Analysis, AnalysisCell, Fit, Verdict } from './_types.ts'
import type { VerdictContext } from './_verdict.ts'
import { betaBands, floorBands, gpuFamilyOf, subjectOf, verdictText } from './_verdict.ts'

/** Options of `analyzeSet`. */
export interface AnalyzeOptions extends FitOptions {
  /** Link classes of GPU pairs (from the set's topology capture). */
  topology?: TopologyView | null
  /** Why there is no topology (shown in the output), when `topology` is absent. */
  topologyNote?: string
  /** Leave the per-cell statistics out (they can be large). */
  cells?: boolean
}

const finiteOrNull = (v: number): number | null => (Number.isFinite(v) ? v : null)

/** A cells-module cell as JSON-safe output. */
export function toAnalysisCell(c: Cell): AnalysisCell {
  const s = c.summary
  const v = c.variance
  return {
    key: c.key,
    config: c.config,
    n: s.n,
    median: s.median,
    mean: s.mean,
    stdev: s.stdev,
    min: s.min,
    max: s.max,
    p5: s.p5,
    p95: s.p95,
    mad: s.mad,
    ci: [finiteOrNull(s.ci[0]), finiteOrNull(s.ci[1])],
    ciLevel: s.ciLevel,
    outliers: s.outliers.length,
    launches: v?.launches ?? 1,
    withinStdev: v && Number.isFinite(v.within) ? Math.sqrt(v.within) : null,
    betweenStdev: v && Number.isFinite(v.between) ? Math.sqrt(v.between) : null,
    warnings: s.warnings,
  }
}

/** Fit of one series, joined with its link class, bands and verdict. */
function fitOf(s: Series, opts: AnalyzeOptions, ctx: VerdictContext): Fit {
  const ab = fitSeries(s, opts)
  const id = s.id
  const linkClass =
    id.src !== undefined && id.dst !== undefined && id.src !== id.dst
      ? opts.topology?.linkClass(id.src, id.dst)
      : undefined
  const core = { ...id, ...(linkClass ? { linkClass } : {}), benches: [...s.benches].sort(), ...ab }
  const fit: Fit = { ...core, bands: floorBands(core), betaBands: betaBands(core), verdict: '' }
  fit.verdict = verdictText(fit, ctx)
  return fit
}

const ORDER = (a: Fit, b: Fit): number =>
  a.bench.localeCompare(b.bench) ||
  (a.src ?? -1) - (b.src ?? -1) ||
  (a.dst ?? -1) - (b.dst ?? -1) ||
  (a.group ?? '').localeCompare(b.group ?? '') ||
  (a.ranks ?? 0) - (b.ranks ?? 0) ||
  JSON.stringify(a).localeCompare(JSON.stringify(b))

/** The notes every analysis carries for the seeds' questions. */
function notesFor(fits: readonly Fit[]): string[] {
  const notes: string[] = []
  if (fits.some((f) => f.src !== undefined && f.src !== f.dst)) {
    notes.push(
      "The '5–8 µs for same-socket NODE pairs' figure matches no published per-pair p2p latency; the nearest published 5–8 µs number is p2pmark's 8-GPU effective latency under all-to-all load, 6.03–7.39 µs (band p2pmark-effective-latency-8gpu; REFERENCE.md §1).",
    )
  }
  if (fits.some((f) => f.bands.some((b) => b.startsWith('p2p-off-')))) {
    notes.push(
      'A floor of ~10–15 µs per small copy is what host-staged copies cost (P2P off), in a VM or on bare metal; peer access would bring it to ~0.4–1.5 µs (REFERENCE.md §1).',
    )
  }
  return notes
}

/** Analyzes a loaded result set (pure: the topology, if any, is passed in). */
export function analyzeSet(set: LoadedSet, opts: AnalyzeOptions = {}): Analysis {
  const ctx: VerdictContext = { gpuFamily: gpuFamilyOf(set.manifest.host?.gpus?.[0]?.name) }
  const fits = buildSeries(set.rows)
    .map((s) => fitOf(s, opts, ctx))
    .sort(ORDER)
  const classes = linkClasses(fits)
  const outliers = gpuOutliers(fits)
  const verdicts: Verdict[] = fits.map((f) => ({
    subject: subjectOf(f),
    kind: 'floor',
    text: f.verdict,
    bands: f.bands,
  }))
  verdicts.push(...joinVerdicts(classes, outliers, formatSeconds))
  const notes = notesFor(fits)
  for (const n of notes) verdicts.push({ subject: 'note', kind: 'note', text: n, bands: [] })
  const warnings = set.diagnostics.map((d) => d.message)
  if (fits.length === 0) warnings.push('no time or latency rows with message sizes: nothing to fit')
  return {
    dir: set.dir,
    id: set.manifest.id,
    simulated: set.manifest.simulated,
    fits,
    cells: opts.cells === false ? [] : buildCells(set.rows).map(toAnalysisCell),
    verdicts,
    classes,
    outliers,
    topology: opts.topology
      ? { source: opts.topology.source, note: 'pairs aggregated by link class' }
      : { source: null, note: opts.topologyNote ?? 'no topology capture: pairs aggregated as one class' },
    notes,
    warnings,
  }
}
