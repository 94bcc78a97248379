/**
 * `analyzeSet` (src/analysis/_analyze.ts) on hand-made sets, continued: the fleet analysis of a
 * cluster set (from rows and from IndexedRows, on its fabric) and `toAnalysisCell`, a cell's
 * statistics as the JSON fields a user reads.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Analysis } from '../../src/analysis/index.ts'
import { toAnalysisCell } from '../../src/analysis/index.ts'
import type { CellStats } from '../../src/cells/index.ts'
import type { Row } from '../../src/model/index.ts'
import { indexedRows, makeRow } from '../../src/model/index.ts'
import { analyzeRows as analyze, close, staged } from '../analysis/analyze-rows.ts'
import { nodeNames, perNodeRows } from '../analysis/fleet-rows.ts'

test('a cluster set has a fleet analysis over its nodes (from IndexedRows too), on its fabric; without a node list, none', () => {
  const nodes = nodeNames(8)
  const per = perNodeRows(nodes, { node03: { intraBw: 0.5 } })
  const cluster = { extra: { cluster: { nodes } } }
  const slowNode = (a: Analysis) => a.fleet?.outliers.map((o) => `${o.kind}:${o.hosts.join('+')}:${o.metric}`)
  assert.deepEqual(slowNode(analyze(per, { cells: false }, cluster)), ['node:node03:intra.busbw'])
  const ix = indexedRows(
    per,
    Int32Array.from(per.keys()),
    Float64Array.from(per, (r) => r.value),
    per.length,
  )
  assert.deepEqual(slowNode(analyze(ix as unknown as Row[], { cells: false }, cluster)), ['node:node03:intra.busbw'])
  // The scaling anchor of analysis-fleet-scaling, 2 nodes × 8 GPUs at 128 MiB in 10.2126 ms: on
  // InfiniBand the model's busbw is the measured one; the socket fabric (6.25 GB/s) caps it.
  const S = 128 * 2 ** 20
  const anchor = (['busbw', 'time'] as const).map((metric) =>
    makeRow({
      bench: 'nccl.all_reduce',
      metric,
      unit: metric === 'busbw' ? 'B/s' : 's',
      value: metric === 'busbw' ? 251658240 / 10.2126e-3 : 10.2126e-3,
      sizeBytes: S,
      ranks: 16,
      grouping: 'scaling',
      host: 'n1,n2',
      source: { file: 'generated-scaling', line: 1 },
    }),
  )
  const model = (fabric: unknown) =>
    analyze(anchor, { cells: false }, { extra: { cluster: { nodes: ['n1', 'n2'], fabric } } }).fleet?.scaling[0]?.model
      .busbwBps ?? 0
  close(model('socket'), 251658240 / (212.6e-6 + 251658240 / 6.25e9))
  close(model(undefined), 251658240 / 10.2126e-3)
  close(model(7), 251658240 / 10.2126e-3)

  const rows = [
    ...staged(0, 1, 13).map((r) => ({ ...r, host: 'n1' })),
    ...staged(0, 1, 13).map((r) => ({ ...r, host: 'n2' })),
  ]
  const fleet = analyze(rows, {}, { extra: { cluster: { nodes: ['n1', 'n2'], fabric: 'ib-ndr' } } }).fleet
  assert.deepEqual(fleet?.nodes, ['n1', 'n2'])
  assert.equal('fleet' in analyze(rows, {}, { extra: { cluster: { nodes: 'n1,n2' } } }), false)
  assert.equal('fleet' in analyze(rows, {}, { extra: { sweep: {} } }), false)
})

test('toAnalysisCell: the summary as JSON-safe fields, unbounded CI ends null, launches and their spreads', () => {
  const summary = { n: 4, median: 2, mean: 2.5, stdev: 1, min: 1, max: 4, p5: 1.1, p95: 3.9, mad: 0.5, ciLevel: 1 }
  const c = (ci: [number, number], variance: CellStats['variance']): CellStats =>
    ({
      key: 'k',
      config: { bench: 'b' },
      summary: { ...summary, ci, outliers: [0, 3], warnings: ['small n'] },
      variance,
    }) as CellStats
  assert.deepEqual(toAnalysisCell(c([-Infinity, Infinity], null)), {
    key: 'k',
    config: { bench: 'b' },
    ...summary,
    ci: [null, null],
    outliers: 2,
    launches: 1,
    withinStdev: null,
    betweenStdev: null,
    warnings: ['small n'],
  })
  const v = toAnalysisCell(c([1, 3], { launches: 3, within: 4, between: 9 }))
  assert.deepEqual([v.ci, v.launches, v.withinStdev, v.betweenStdev], [[1, 3], 3, 2, 3])
  const nan = toAnalysisCell(c([NaN, 3], { launches: 2, within: NaN, between: Infinity }))
  assert.deepEqual([nan.ci, nan.launches, nan.withinStdev, nan.betweenStdev], [[null, 3], 2, null, null])
})
