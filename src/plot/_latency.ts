import type { TopLevelSpec } from 'vega-lite'
import type { ChartContext } from './_common.ts'
import { base, chartTitle, r4 } from './_common.ts'
import { colorScale, sizeAxisFor, WRAPPED_LEGEND, wrap } from './_style.ts'

/** One point of a size series: the median across the series' pairs or groups, and their spread, in base units. */
export interface SizePoint {
  series: string
  sizeBytes: number
  value: number
  /** The spread (lowest and highest pair or group median); absent with a single member. */
  lo?: number
  hi?: number
}

/** A floor drawn as a labelled rule: the series' median α (s). */
export interface FloorRule {
  series: string
  alpha: number
}

/** An expectation band (in seconds for latency charts, B/s for bandwidth charts). */
export interface BandShade {
  label: string
  low: number
  high: number
  source: string
}

const bandLabel = (b: BandShade): string => wrap(`${b.label} (${b.source})`)

/**
 * Bands as layers: a range as a shaded rectangle, a single published value (low = high) as a
 * visible rule; labelled through a wrapped legend.
 */
function bandLayers(bands: readonly BandShade[], conv: (v: number) => number, logY: boolean): object[] {
  const ranges = bands
    .filter((b) => b.high > b.low)
    .map((b) => ({ band: bandLabel(b), lo: conv(b.low), hi: conv(b.high) }))
  const values = bands.filter((b) => !(b.high > b.low)).map((b) => ({ band: bandLabel(b), lo: conv(b.low) }))
  const color = {
    field: 'band',
    type: 'nominal',
    title: 'published expectation bands (source)',
    scale: { scheme: 'set2' },
    legend: { ...WRAPPED_LEGEND, orient: 'bottom', direction: 'vertical', columns: 1 },
  }
  const y = { field: 'lo', type: 'quantitative', ...(logY ? { scale: { type: 'log' } } : {}) }
  return [
    ...(ranges.length
      ? [
          {
            data: { values: ranges },
            mark: { type: 'rect', opacity: 0.18 },
            encoding: { y, y2: { field: 'hi' }, color },
          },
        ]
      : []),
    ...(values.length
      ? [{ data: { values }, mark: { type: 'rule', strokeWidth: 2, strokeDash: [6, 3] }, encoding: { y, color } }]
      : []),
  ]
}

/** Median per size across the series' members, the spread as a shaded area, one colour per series. */
function seriesLayers(
  data: object[],
  x: object,
  yField: string,
  yTitle: string,
  logY: boolean,
  names: string[],
): object[] {
  const color = {
    field: 'series',
    type: 'nominal',
    title: null,
    scale: colorScale(names),
    legend: { ...WRAPPED_LEGEND, orient: 'right' },
  }
  const y = { field: yField, type: 'quantitative', title: yTitle, ...(logY ? { scale: { type: 'log' } } : {}) }
  return [
    {
      data: { values: data },
      mark: { type: 'area', opacity: 0.22 },
      encoding: { x, y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' }, color: { ...color, legend: null } },
    },
    {
      data: { values: data },
      mark: { type: 'line', point: { filled: true, size: 36 }, strokeWidth: 2 },
      encoding: {
        x,
        y,
        color,
        tooltip: [
          { field: 'series' },
          { field: 'size' },
          { field: yField, title: 'median' },
          { field: 'lo', title: 'lowest' },
          { field: 'hi', title: 'highest' },
        ],
      },
    },
  ]
}

/**
 * Latency (time) vs message size, log-log: per series (a link class, a grouping) the median
 * across its pairs or groups with their spread, each floor α as a labelled rule, and the
 * published expectation bands.
 */
export function latencyChart(
  points: readonly SizePoint[],
  floors: readonly FloorRule[],
  bands: readonly BandShade[],
  ctx: ChartContext,
  what = 'time per transfer',
  note?: string,
): TopLevelSpec {
  const us = (s: number): number => r4(s * 1e6)
  const data = points.map((p) => ({
    series: p.series,
    size: p.sizeBytes,
    us: us(p.value),
    lo: us(p.lo ?? p.value),
    hi: us(p.hi ?? p.value),
  }))
  const names = [...new Set(points.map((p) => p.series))]
  const x = sizeAxisFor(points.map((p) => p.sizeBytes))
  const maxSize = Math.max(...points.map((p) => p.sizeBytes))
  const floorData = floors.map((f) => ({
    series: f.series,
    us: us(f.alpha),
    size: maxSize,
    label: `${f.series.replace(/ \([^)]*\)$/, '')} floor α ${us(f.alpha)} µs`,
  }))
  const title = chartTitle(`Latency vs size: ${what}`, ctx)
  return {
    ...base(),
    title: note ? { ...title, subtitle: [...[title.subtitle ?? []].flat(), note] } : title,
    layer: [
      ...bandLayers(bands, us, true),
      ...seriesLayers(data, x, 'us', `${what} (µs)`, true, names),
      {
        data: { values: floorData },
        mark: { type: 'rule', strokeDash: [2, 2], strokeWidth: 1.5 },
        encoding: {
          y: { field: 'us', type: 'quantitative' },
          color: { field: 'series', type: 'nominal', scale: colorScale(names), legend: null },
        },
      },
      {
        data: { values: floorData },
        mark: { type: 'text', align: 'right', baseline: 'bottom', dy: -2, fontSize: 11, fontWeight: 'bold' },
        encoding: {
          x,
          y: { field: 'us', type: 'quantitative' },
          text: { field: 'label' },
          color: { field: 'series', type: 'nominal', scale: colorScale(names), legend: null },
        },
      },
    ],
    resolve: { scale: { color: 'independent' } },
  } as TopLevelSpec
}

/** Bandwidth vs size (GB/s, log x): the median per series with its spread, bands shaded (nccl-tests' busbw figure). */
export function bandwidthChart(
  points: readonly SizePoint[],
  bands: readonly BandShade[],
  ctx: ChartContext,
  what = 'bandwidth',
  note?: string,
): TopLevelSpec {
  const gb = (v: number): number => r4(v / 1e9)
  const data = points.map((p) => ({
    series: p.series,
    size: p.sizeBytes,
    gbps: gb(p.value),
    lo: gb(p.lo ?? p.value),
    hi: gb(p.hi ?? p.value),
  }))
  const names = [...new Set(points.map((p) => p.series))]
  const title = chartTitle(`Bandwidth vs size: ${what}`, ctx)
  return {
    ...base(),
    title: note ? { ...title, subtitle: [...[title.subtitle ?? []].flat(), note] } : title,
    layer: [
      ...bandLayers(bands, gb, false),
      ...seriesLayers(data, sizeAxisFor(points.map((p) => p.sizeBytes)), 'gbps', `${what} (GB/s)`, false, names),
    ],
    resolve: { scale: { color: 'independent' } },
  } as TopLevelSpec
}
