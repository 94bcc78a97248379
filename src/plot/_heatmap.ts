import type { TopLevelSpec } from 'vega-lite'
import type { ChartContext } from './_common.ts'
import { base, chartTitle, r4 } from './_common.ts'

/** One cell of a pair matrix: src → dst, a value in base units, the link class if known. */
export interface PairCell {
  src: number
  dst: number
  value: number
  link?: string
}

/** A src × dst heatmap of latency (µs) or bandwidth (GB/s), each cell annotated with value and link class. */
export function heatmapChart(
  cells: readonly PairCell[],
  metric: 'latency' | 'bandwidth',
  label: string,
  ctx: ChartContext,
): TopLevelSpec {
  const scale = metric === 'latency' ? 1e6 : 1e-9
  const unit = metric === 'latency' ? 'µs' : 'GB/s'
  const values = cells.map((c) => ({
    src: `GPU${c.src}`,
    dst: `GPU${c.dst}`,
    v: r4(c.value * scale),
    text: `${r4(c.value * scale)}${c.link ? `\n${c.link}` : ''}`,
    link: c.link ?? '',
  }))
  const n = new Set(cells.flatMap((c) => [c.src, c.dst])).size
  const vs = values.map((v) => v.v)
  const mid = r4((Math.min(...vs) + Math.max(...vs)) / 2)
  const side = Math.max(220, Math.min(560, n * 64))
  return {
    ...base(side, side),
    title: chartTitle(`${label}: ${metric} ${unit} per pair (row = source)`, ctx),
    data: { values },
    encoding: {
      x: { field: 'dst', type: 'ordinal', title: 'destination' },
      y: { field: 'src', type: 'ordinal', title: 'source' },
    },
    layer: [
      {
        mark: 'rect',
        encoding: {
          color: {
            field: 'v',
            type: 'quantitative',
            title: unit,
            scale: { scheme: metric === 'latency' ? 'orangered' : 'blues' },
          },
          tooltip: [{ field: 'src' }, { field: 'dst' }, { field: 'v', title: unit }, { field: 'link' }],
        },
      },
      {
        mark: { type: 'text', fontSize: 10, lineBreak: '\n' },
        encoding: {
          text: { field: 'text' },
          color: { condition: { test: `datum.v > ${mid}`, value: 'white' }, value: 'black' },
        },
      },
    ],
  } as TopLevelSpec
}
