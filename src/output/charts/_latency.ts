import type { TopLevelSpec } from 'vega-lite'
import type { ChartContext } from './_common.ts'
import { base, chartTitle, fittedLog, logAxis, PLOT_HEIGHT, r4 } from './_common.ts'
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

/** Band colours: darker than the series' palette, so a band is seen under a line of the same hue. */
const BAND_COLOURS = ['#7570b3', '#1b9e77', '#e7298a', '#a6761d', '#666666']

/**
 * Bands as layers: a range as a shaded rectangle with an outline (seen even when narrow), a
 * single published value (low = high) as a dashed rule; named in their own legend.
 */
function bandLayers(bands: readonly BandShade[], conv: (v: number) => number, yScale: object): object[] {
  const ranges = bands
    .filter((b) => b.high > b.low)
    .map((b) => ({ band: bandLabel(b), lo: conv(b.low), hi: conv(b.high) }))
  const values = bands.filter((b) => !(b.high > b.low)).map((b) => ({ band: bandLabel(b), lo: conv(b.low) }))
  const names = bands.map(bandLabel)
  const scale = { domain: names, range: names.map((_, i) => BAND_COLOURS[i % BAND_COLOURS.length] as string) }
  const color = {
    field: 'band',
    type: 'nominal',
    title: 'published expectation bands (source)',
    scale,
    legend: { ...WRAPPED_LEGEND, orient: 'bottom', direction: 'vertical', columns: 1, symbolOpacity: 0.6 },
  }
  const y = { field: 'lo', type: 'quantitative', scale: yScale }
  return [
    ...(ranges.length
      ? [
          {
            data: { values: ranges },
            mark: { type: 'rect', fillOpacity: 0.22, strokeOpacity: 0.9, strokeWidth: 1 },
            encoding: { y, y2: { field: 'hi' }, color, stroke: color },
          },
        ]
      : []),
    ...(values.length
      ? [{ data: { values }, mark: { type: 'rule', strokeWidth: 2, strokeDash: [6, 3] }, encoding: { y, color } }]
      : []),
  ]
}

/** Marker shapes, one per series in order (told apart when lines coincide). */
const SHAPES = ['circle', 'square', 'triangle-up', 'diamond', 'cross', 'triangle-down']

/** Median per size across the series' members, the spread as a shaded area, one colour per series. */
function seriesLayers(
  data: object[],
  x: object,
  yField: string,
  yTitle: string,
  yScale: object | undefined,
  names: string[],
  yAxis?: object,
): object[] {
  const color = {
    field: 'series',
    type: 'nominal',
    title: null,
    scale: colorScale(names),
    legend: { ...WRAPPED_LEGEND, orient: 'right' },
  }
  // A marker shape per series as well as a colour: two series with the same floor (NODE and SYS
  // host-staged) draw one line over the other, and the markers beneath still show.
  const shape = { ...color, scale: { domain: names, range: names.map((_, i) => SHAPES[i % SHAPES.length] as string) } }
  const sc = yScale ? { scale: yScale } : {}
  const y = { field: yField, type: 'quantitative', title: yTitle, ...sc, ...(yAxis ? { axis: yAxis } : {}) }
  return [
    {
      data: { values: data },
      mark: { type: 'area', opacity: 0.22 },
      encoding: {
        x,
        y: { field: 'lo', type: 'quantitative', ...sc },
        y2: { field: 'hi' },
        color: { ...color, legend: null },
      },
    },
    {
      data: { values: data },
      mark: { type: 'line', point: { filled: false, size: 44, strokeWidth: 1.5 }, strokeWidth: 2 },
      encoding: {
        x,
        y,
        color,
        shape,
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

/** A series' legend entry with its floor: "SYS (32 pairs; floor α 0.481 µs)". */
const withFloor = (series: string, us: number): string => {
  const m = / \(([^)]*)\)$/.exec(series)
  return m ? `${series.slice(0, m.index)} (${m[1]}; floor α ${us} µs)` : `${series} (floor α ${us} µs)`
}

/**
 * Latency (time) vs message size, log-log: per series (a link class, a grouping) the median
 * across its pairs or groups with their spread, each floor α as a dotted rule named in the
 * series' legend entry (labels beside the rules overprinted when two floors were close), and
 * the published expectation bands; the y axis fitted to what is drawn.
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
  const floorOf = new Map(floors.map((f) => [f.series, us(f.alpha)]))
  const named = (series: string): string => {
    const f = floorOf.get(series)
    return f === undefined ? series : withFloor(series, f)
  }
  const data = points.map((p) => ({
    series: named(p.series),
    size: p.sizeBytes,
    us: us(p.value),
    lo: us(p.lo ?? p.value),
    hi: us(p.hi ?? p.value),
  }))
  const names = [...new Set(data.map((p) => p.series))]
  const x = sizeAxisFor(points.map((p) => p.sizeBytes))
  const floorData = floors.map((f) => ({ series: named(f.series), us: us(f.alpha) }))
  const yScale = fittedLog([
    ...data.flatMap((d) => [d.lo, d.hi]),
    ...floorData.map((f) => f.us),
    ...bands.flatMap((b) => [us(b.low), us(b.high)]),
  ])
  const title = chartTitle(`Latency vs size: ${what}`, ctx)
  return {
    ...base(),
    title: note ? { ...title, subtitle: [...[title.subtitle ?? []].flat(), note] } : title,
    layer: [
      ...bandLayers(bands, us, yScale),
      ...seriesLayers(
        data,
        x,
        'us',
        'time per operation, median (µs)',
        yScale,
        names,
        logAxis(yScale.domain, PLOT_HEIGHT),
      ),
      {
        data: { values: floorData },
        mark: { type: 'rule', strokeDash: [2, 2], strokeWidth: 1.5 },
        encoding: {
          y: { field: 'us', type: 'quantitative', scale: yScale },
          color: { field: 'series', type: 'nominal', scale: colorScale(names), legend: null },
        },
      },
    ],
    resolve: { scale: { color: 'independent', stroke: 'independent', shape: 'independent' } },
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
  const yScale = { zero: true }
  return {
    ...base(),
    title: note ? { ...title, subtitle: [...[title.subtitle ?? []].flat(), note] } : title,
    layer: [
      ...bandLayers(bands, gb, yScale),
      ...seriesLayers(data, sizeAxisFor(points.map((p) => p.sizeBytes)), 'gbps', `${what} (GB/s)`, yScale, names),
    ],
    resolve: { scale: { color: 'independent', stroke: 'independent', shape: 'independent' } },
  } as TopLevelSpec
}
