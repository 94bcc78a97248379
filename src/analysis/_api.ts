/** The async entry points: load a set (and its topology capture) from a directory, then analyze or compare. */

import { CellsWorker } from '../cells/index.ts'
import { isIndexed } from '../model/index.ts'
import type { ReadSet } from '../resultset/index.ts'
import { loadSamples, partBytes } from '../resultset/index.ts'
import type { AnalyzeOptions } from './_analyze.ts'
import { analyzeSet, toAnalysisCell } from './_analyze.ts'
import { loadTopology } from './_topology.ts'
import type { Analysis, Comparison } from './_types.ts'
import type { CompareOptions } from './compare/_compare.ts'
import { compareSet } from './compare/_compare.ts'

/**
 * Analyzes a result set (a directory or an already loaded set): α–β fits per pair and
 * group, cells, verdicts against the expectation bands, and the join with the set's
 * topology capture when it has one. Throws HarnessError (exit 2) for a missing directory
 * or one that is not a result set.
 */
export async function analyze(set: string | ReadSet, opts: AnalyzeOptions = {}): Promise<Analysis> {
  // A big set's cells are built on a second thread while this one fits the series; the
  // thread starts while the set is read when its parts are big enough to hold that many rows.
  const min = opts.workerMin ?? WORKER_MIN
  const early = opts.cells !== false && typeof set === 'string' && partBytes(set) >= min * BYTES_PER_ROW
  const worker = early ? new CellsWorker() : undefined
  // One pass per analysis step over rows replayed from 12 bytes each (loadSamples), not row objects.
  const s =
    typeof set === 'string'
      ? await loadSamples(set).catch((e: unknown) => {
          worker?.stop()
          throw e
        })
      : set
  const rows = s.rows
  const use = opts.cells !== false && isIndexed(rows) && rows.n >= min
  if (!use) worker?.stop()
  const job = use ? (worker ?? new CellsWorker()).run(rows) : undefined
  const more = job ? { cells: false } : {}
  const t = opts.topology !== undefined ? undefined : await loadTopology(s.dir, s.manifest)
  const a = analyzeSet(s, { ...opts, ...more, ...(t ? { topology: t.view, topologyNote: t.note } : {}) })
  if (job) a.cells = (await job).map(toAnalysisCell)
  return a
}

/** Rows from which `analyze` builds the cells on a worker thread (AnalyzeOptions.workerMin). */
const WORKER_MIN = 1_000_000
/** Fewer bytes of Parquet than a row takes at the least (generated samples take about 9). */
const BYTES_PER_ROW = 2

/** Compares the values of one axis (default `grouping`) per bench and size; with `model`, the decode model. */
export async function compare(set: string | ReadSet, opts: CompareOptions = {}): Promise<Comparison> {
  // Rows replayed from 12 bytes each (loadSamples); compare keeps values, not rows.
  return compareSet(typeof set === 'string' ? await loadSamples(set) : set, opts)
}
