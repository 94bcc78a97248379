import type { TopLevelSpec } from 'vega-lite'
import type { ChartContext } from './_common.ts'
import { base, chartTitle, r4, spanDomain } from './_common.ts'

/** One cell of a pair matrix: src → dst, a value in base units, the link class if known. */
export interface PairCell {
  src: number
  dst: number
  value: number
  link?: string
}

/**
 * A src × dst heatmap of latency (µs) or bandwidth (GB/s), each cell annotated with value and
 * link class. The colour scale spans the pairs only (at least ±10 % of their median): a GPU's copy to itself (the diagonal) is
 * drawn grey with its value, so it cannot flatten the differences between pairs.
 */
export function heatmapChart(
  cells: readonly PairCell[],
  metric: 'latency' | 'bandwidth',
  label: string,
  ctx: ChartContext,
): TopLevelSpec {
  const unit = metric === 'latency' ? 'µs' : 'GB/s'
  const values = heatmapValues(cells, metric === 'latency' ? 1e6 : 1e-9)
  const pairs = values.filter((v) => !v.self).map((v) => v.v as number)
  const n = new Set(cells.flatMap((c) => [c.src, c.dst])).size
  const side = Math.max(220, Math.min(560, n * 64))
  return {
    ...base(side, side),
    title: chartTitle(`${label} (${unit}; row = source)`, ctx),
    data: { values },
    encoding: {
      // Upright GPU labels where a cell is wide enough for them (8 GPUs: 70 px a cell).
      x: {
        field: 'dst',
        type: 'ordinal',
        title: 'destination',
        ...(side / n >= 48 ? { axis: { labelAngle: 0 } } : {}),
      },
      y: { field: 'src', type: 'ordinal', title: 'source' },
    },
    layer: heatmapLayers(metric, unit, spanDomain(pairs)),
  } as TopLevelSpec
}

/**
 * The cells in display units (× scale), each with its text: the value over the link class (or
 * "same GPU"); a GPU of the matrix without a copy to itself gets a diagonal cell "same GPU / not
 * run" (P2P off skips it), drawn grey as a measured one, never a blank square.
 */
function heatmapValues(cells: readonly PairCell[], scale: number) {
  const measured = cells.map((c) => ({
    src: `GPU${c.src}`,
    dst: `GPU${c.dst}`,
    v: r4(c.value * scale) as number | null,
    text: `${r4(c.value * scale)}${c.src === c.dst ? '\nsame GPU' : c.link ? `\n${c.link}` : ''}`,
    link: c.link ?? '',
    self: c.src === c.dst,
  }))
  const gpus = [...new Set(cells.flatMap((c) => [c.src, c.dst]))]
  const notRun = gpus
    .filter((g) => !cells.some((c) => c.src === g && c.dst === g))
    .map((g) => ({ src: `GPU${g}`, dst: `GPU${g}`, v: null, text: 'same GPU\nnot run', link: '', self: true }))
  return [...measured, ...notRun]
}

/** The pairs coloured over [lo, hi], the diagonal grey, and every cell's text on top. */
function heatmapLayers(metric: 'latency' | 'bandwidth', unit: string, [lo, hi]: [number, number]): unknown[] {
  // White text only on the dark end of the scale: cells near the median (noise) keep one text colour.
  const dark = r4(lo + 0.7 * (hi - lo))
  return [
    {
      transform: [{ filter: '!datum.self' }],
      mark: 'rect',
      encoding: {
        color: {
          field: 'v',
          type: 'quantitative',
          title: [`${unit} (pairs)`, 'scale ≥ ±10 %', 'of the median'],
          // The pairs' own range, at least ±10 % of their median: noise (13.56–13.88 µs) is one
          // colour, while 12.7 vs 14.4 µs (or NODE 0.40 vs SYS 0.48 µs) read as different ones.
          scale: { scheme: metric === 'latency' ? 'orangered' : 'blues', domain: [lo, hi] },
        },
        tooltip: [{ field: 'src' }, { field: 'dst' }, { field: 'v', title: unit }, { field: 'link' }],
      },
    },
    {
      transform: [{ filter: 'datum.self' }],
      mark: { type: 'rect', color: '#e8e8e8' },
      encoding: { tooltip: [{ field: 'src' }, { field: 'v', title: `${unit} (same GPU)` }] },
    },
    {
      mark: { type: 'text', fontSize: 10, lineBreak: '\n' },
      encoding: {
        text: { field: 'text' },
        color: {
          condition: [
            { test: `!datum.self && datum.v > ${dark}`, value: 'white' },
            { test: 'datum.v === null', value: '#666' },
          ],
          value: 'black',
        },
      },
    },
  ]
}
