/**
 * `analyze`: a result set → fits (α–β per pair and group), cells, verdicts placing every
 * floor among the expectation bands, and the topology join.
 */

import type { CellStats } from '../cells/index.ts'
import { cells as buildCells } from '../cells/index.ts'
import type { Row } from '../model/index.ts'
import type { ReadSet } from '../resultset/index.ts'
import { formatSeconds } from '../units/index.ts'
import { importedFleet } from './_fleet-import.ts'
import type { TopologyView } from './_join.ts'
import { gpuOutliers, joinVerdicts, linkClasses } from './_join.ts'
import type { Analysis, AnalysisCell, Fit, Verdict } from './_types.ts'
import type { FitOptions } from './fit/_alphabeta.ts'
import { fitSeries } from './fit/_alphabeta.ts'
import { refineHostStaged } from './fit/_modes.ts'
import type { Series } from './fit/_series.ts'
import { buildSeries } from './fit/_series.ts'
import type { Fleet } from './fleet/_fleet.ts'
import { analyzeFleet } from './fleet/_fleet.ts'
import type { CiteContext } from './verdict/_cite.ts'
import type { MachineContext } from './verdict/_context.ts'
import { machineContext } from './verdict/_context.ts'
import { RANGES } from './verdict/_mechanism.ts'
import type { SourceLike } from './verdict/_sources.ts'
import type { Judged } from './verdict/_verdict.ts'
import { betaBands, judgeFit, subjectOf, verdictText } from './verdict/_verdict.ts'

/** Options of `analyzeSet`. */
export interface AnalyzeOptions extends FitOptions {
  /** Link classes of GPU pairs (from the set's topology capture). */
  topology?: TopologyView | null
  /** Why there is no topology (shown in the output), when `topology` is absent. */
  topologyNote?: string
  /** Leave the per-cell statistics out (they can be large). */
  cells?: boolean
  /**
   * `analyze` builds the cells on a worker thread, beside the fits, for sets of at least
   * this many rows read by `loadSamples` (default 1,000,000).
   */
  workerMin?: number
}

const finiteOrNull = (v: number): number | null => (Number.isFinite(v) ? v : null)

/** A cells-module cell as JSON-safe output. */
export function toAnalysisCell(c: CellStats): AnalysisCell {
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

/** Fit of one series, joined with its link class, mechanism, bands and verdict (text built later). */
function fitOf(s: Series, opts: AnalyzeOptions, ctx: MachineContext, cites: WeakMap<Fit, CiteContext>): Fit {
  const ab = fitSeries(s, opts)
  const id = s.id
  const linkClass =
    id.src !== undefined && id.dst !== undefined && id.src !== id.dst
      ? opts.topology?.linkClass(id.src, id.dst)
      : undefined
  const core = { ...id, ...(linkClass ? { linkClass } : {}), benches: [...s.benches].sort(), ...ab }
  const j: Judged | undefined = judgeFit(core, s, ctx)
  const fit: Fit = {
    ...core,
    mechanism: j?.mechanism ?? { id: 'undetermined', text: 'no mechanism model for this bench' },
    evidence: j?.evidence ?? [],
    cited: j?.cited ?? [],
    conflicts: j?.conflicts ?? [],
    bands: j?.bands ?? [],
    betaBands: betaBands(core),
    verdict: '',
  }
  if (j) cites.set(fit, j.cite)
  return fit
}

const ORDER = (a: Fit, b: Fit): number =>
  a.bench.localeCompare(b.bench) ||
  (a.src ?? -1) - (b.src ?? -1) ||
  (a.dst ?? -1) - (b.dst ?? -1) ||
  (a.group ?? '').localeCompare(b.group ?? '') ||
  (a.ranks ?? 0) - (b.ranks ?? 0) ||
  JSON.stringify(a).localeCompare(JSON.stringify(b))

const US = 1e-6
/**
 * Where the '5–8 µs NODE' figure could be compared with the floors: a PCIe machine (no NVLink)
 * with cross-GPU pairs that are NODE, or with 4 GPUs or more (p2pmark's figure is for 8).
 */
function nodeNoteApplies(fits: readonly Fit[], ctx: MachineContext): boolean {
  if (ctx.nvlink?.value === true) return false
  const pairs = fits.filter(
    (f) =>
      f.src !== undefined &&
      f.src !== f.dst &&
      ['p2p-pcie', 'host-staged', 'host-staged-slow', 'undetermined'].includes(f.mechanism.id),
  )
  if (pairs.some((f) => f.linkClass === 'NODE')) return true
  const gpus = new Set(pairs.flatMap((f) => [f.src, f.dst]))
  return gpus.size >= 4
}

/** The notes an analysis carries, each once and only where it applies. */
function notesFor(fits: readonly Fit[], ctx: MachineContext): string[] {
  const notes: string[] = []
  if (nodeNoteApplies(fits, ctx)) {
    notes.push(
      "The '5–8 µs for same-socket NODE pairs' figure matches no published per-pair p2p latency; " +
        "the nearest published 5–8 µs number is p2pmark's 8-GPU effective latency under all-to-all " +
        'load, 6.03–7.39 µs (band p2pmark-effective-latency-8gpu: github.com/voipmonitor/rtx6kpro ' +
        'hardware/pcie-bandwidth.md, method github.com/lukealonso/p2pmark).',
    )
  }
  if (fits.some((f) => f.mechanism.id.startsWith('host-staged'))) {
    const s = RANGES['host-staged']
    const p = RANGES['p2p-pcie']
    notes.push(
      `Host-staged copies (no peer access) cost ${(s.low / US).toFixed(1)}–` +
        `${(s.high / US).toFixed(1)} µs per small copy in the published measurements, in VMs and on bare metal; peer access ` +
        `over PCIe brings it to ${(p.low / US).toFixed(2)}–` +
        `${(p.high / US).toFixed(2)} µs (sources: docs/REFERENCE.md).`,
    )
  }
  return notes
}

/** Analyzes a loaded result set (pure: the topology, if any, is passed in). */
export function analyzeSet(set: ReadSet, opts: AnalyzeOptions = {}): Analysis {
  const ctx = machineContext(set, opts.topology)
  const cites = new WeakMap<Fit, CiteContext>()
  const left = { nonPositive: 0 }
  const fits = buildSeries(set.rows, left)
    .map((s) => fitOf(s, opts, ctx, cites))
    .sort(ORDER)
  const modeNotes = refineHostStaged(fits)
  for (const f of fits) {
    const cite = cites.get(f)
    f.verdict = verdictText(f, cite ? { ...f, cite } : undefined)
  }
  const classes = linkClasses(fits)
  const outliers = gpuOutliers(fits)
  const verdicts: Verdict[] = fits.map((f) => ({
    subject: subjectOf(f),
    kind: 'floor',
    text: f.verdict,
    mechanism: f.mechanism,
    evidence: f.evidence,
    conflicts: f.conflicts,
    bands: f.cited,
  }))
  verdicts.push(...joinVerdicts(classes, outliers, formatSeconds))
  const notes = [...notesFor(fits, ctx), ...modeNotes]
  for (const n of notes) verdicts.push({ subject: 'note', kind: 'note', text: n, bands: [] })
  const warnings = set.diagnostics.map((d) => d.message)
  if (fits.length === 0) warnings.push('no time or latency rows with message sizes: nothing to fit')
  if (left.nonPositive > 0)
    warnings.push(`${left.nonPositive} time value(s) ≤ 0 or not a number left out of the fits: not a measured time`)
  return {
    dir: set.dir,
    id: set.manifest.id,
    simulated: set.manifest.simulated,
    ...(set.manifest.simScale !== undefined ? { simScale: set.manifest.simScale } : {}),
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
    ...fleetOf(set),
  }
}

/** The fleet analysis of a cluster sweep (its manifest records the nodes), or of an import's multi-host runs, else nothing. */
function fleetOf(set: ReadSet): { fleet?: Fleet } {
  const rec = set.manifest.extra?.cluster as { nodes?: unknown; fabric?: unknown } | undefined
  if (!rec || !Array.isArray(rec.nodes)) {
    if (set.manifest.origin !== 'import') return {}
    const rows = Array.isArray(set.rows) ? (set.rows as Row[]) : Array.from(set.rows, (r) => ({ ...r }))
    const fleet = importedFleet(rows, (set.manifest.sources ?? []) as SourceLike[])
    return fleet ? { fleet } : {}
  }
  const fabric = typeof rec.fabric === 'string' ? rec.fabric : undefined
  // The fleet analysis keeps rows: copies, since a SampleSet reuses its row objects.
  const rows = Array.isArray(set.rows) ? (set.rows as Row[]) : Array.from(set.rows, (r) => ({ ...r }))
  return { fleet: analyzeFleet(rows, rec.nodes as string[], fabric) }
}
