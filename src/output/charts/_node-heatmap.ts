import type { TopLevelSpec } from 'vega-lite'
import type { ChartContext } from './_common.ts'
import { base, chartTitle, r4, spanDomain } from './_common.ts'

/** One node pair's bandwidth (B/s). */
export interface NodePairCell {
  hosts: readonly [string, string]
  busbwBps: number
}

/** Cells are annotated with their value up to this many nodes; larger fleets are colour only. */
const LABELLED_NODES = 24

/**
 * A node × node heatmap of pairwise bandwidth (GB/s), symmetric (each pair drawn both ways),
 * the colour scale spanning the pairs measured, so one slow node shows as a pale cross and
 * one slow link as a pale pair of cells.
 */
/** What the node heatmap shows, in a caption. */
export const NODE_HEATMAP_CAPTION =
  'sendrecv busbw between one GPU on each node of a pair (the network path alone), median of ' +
  'the largest sizes; a slow node is a pale cross, a slow link a pale pair of cells.'

export function nodeHeatmapChart(cells: readonly NodePairCell[], label: string, ctx: ChartContext): TopLevelSpec {
  const values = cells.flatMap((c) => {
    const v = r4(c.busbwBps / 1e9)
    return [
      { a: c.hosts[0], b: c.hosts[1], v },
      { a: c.hosts[1], b: c.hosts[0], v },
    ]
  })
  const nodes = [...new Set(values.map((x) => x.a))].sort()
  const vs = values.map((x) => x.v)
  // At least ±10 % of the median: noise between healthy links is one colour, a slow node stands out.
  const [lo, hi] = spanDomain(vs)
  // 48 px a node up to 18 nodes: room for a cell's "44.55" at 11 px and an upright "node01".
  const side = Math.max(240, Math.min(900, nodes.length * 48))
  const upright = side / nodes.length >= 48 ? { axis: { labelAngle: 0 } } : {}
  const layers: unknown[] = [
    {
      mark: 'rect',
      encoding: {
        color: {
          field: 'v',
          type: 'quantitative',
          title: 'GB/s',
          scale: { scheme: 'blues', domain: [lo, hi] },
        },
        tooltip: [
          { field: 'a', title: 'node' },
          { field: 'b', title: 'peer' },
          { field: 'v', title: 'busbw GB/s' },
        ],
      },
    },
  ]
  if (nodes.length <= LABELLED_NODES)
    layers.push({
      mark: { type: 'text', fontSize: side / nodes.length >= 48 ? 11 : 9 },
      encoding: {
        text: { field: 'v' },
        color: { condition: { test: `datum.v > ${r4((lo + hi) / 2)}`, value: 'white' }, value: 'black' },
      },
    })
  return {
    ...base(side, side),
    title: chartTitle(`${label}: busbw GB/s per node pair`, ctx),
    data: { values },
    encoding: {
      x: { field: 'b', type: 'ordinal', title: 'peer', sort: nodes, ...upright },
      y: { field: 'a', type: 'ordinal', title: 'node', sort: nodes },
    },
    layer: layers,
  } as TopLevelSpec
}
