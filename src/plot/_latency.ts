import type { TopLevelSpec } from 'vega-lite'
import type { ChartContext } from './_common.ts'
import { base, chartTitle, r4, sizeAxis } from './_common.ts'

/** One measured point of a size series (a median with its CI), in base units. */
export interface SizePoint {
  series: string
  sizeBytes: number
  value: number
  lo?: number
  hi?: number
}

/** A fitted α–β line of one series: time = alpha + size / beta (s, B/s). */
export interface FitLine {
  series: string
  alpha: number
  beta: number
  minSize: number
  maxSize: number
}

/** An expectation band (in seconds for latency charts, B/s for bandwidth charts). */
export interface BandShade {
  label: string
  low: number
  high: number
  source: string
}

/** Latency (time) vs message size, log-log, with fitted lines, floors and bands. */
export function latencyChart(
  points: readonly SizePoint[],
  fits: readonly FitLine[],
  bands: readonly BandShade[],
  ctx: ChartContext,
  what = 'time per transfer',
): TopLevelSpec {
  const us = (s: number): number => r4(s * 1e6)
  const data = points.map((p) => ({
    series: p.series,
    size: p.sizeBytes,
    us: us(p.value),
    lo: us(p.lo ?? p.value),
    hi: us(p.hi ?? p.value),
  }))
  const fitData = fits.flatMap((f) => {
    const out = []
    for (let s = f.minSize; s <= f.maxSize * 1.0001; s *= 2)
      out.push({ series: f.series, size: s, us: us(f.alpha + s / f.beta) })
    return out
  })
  const floors = fits.map((f) => ({
    series: f.series,
    us: us(f.alpha),
    label: `${f.series} floor α = ${us(f.alpha)} µs`,
  }))
  const bandData = bands.map((b) => ({ label: `${b.label} (${b.source})`, lo: us(b.low), hi: us(b.high) }))
  const x = sizeAxis
  const y = { field: 'us', type: 'quantitative', scale: { type: 'log' }, title: `${what} (µs)` } as const
  return {
    ...base(),
    title: chartTitle(`Latency vs size: ${what}`, ctx),
    layer: [
      {
        data: { values: bandData },
        mark: { type: 'rect', opacity: 0.15 },
        encoding: {
          y: { field: 'lo', type: 'quantitative', scale: { type: 'log' } },
          y2: { field: 'hi' },
          color: { field: 'label', type: 'nominal', title: 'expectation band', scale: { scheme: 'set2' } },
        },
      },
      {
        data: { values: data },
        mark: { type: 'rule' },
        encoding: { x, y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' }, detail: { field: 'series' } },
      },
      {
        data: { values: data },
        mark: { type: 'point', filled: true, size: 30 },
        encoding: {
          x,
          y,
          shape: { field: 'series', type: 'nominal', title: 'pair / group' },
          tooltip: [{ field: 'series' }, { field: 'size' }, { field: 'us', title: 'median µs' }],
        },
      },
      {
        data: { values: fitData },
        mark: { type: 'line', strokeWidth: 1.5 },
        encoding: { x, y, detail: { field: 'series' }, strokeDash: { value: [4, 2] }, color: { value: '#444' } },
      },
      {
        data: { values: floors },
        mark: { type: 'rule', strokeDash: [2, 2], color: '#b00020' },
        encoding: { y: { field: 'us', type: 'quantitative' }, tooltip: [{ field: 'label' }] },
      },
    ],
    resolve: { scale: { color: 'independent' } },
  } as TopLevelSpec
}

/** Bandwidth vs size (GB/s, log x), one line per series, bands shaded. */
export function bandwidthChart(
  points: readonly SizePoint[],
  bands: readonly BandShade[],
  ctx: ChartContext,
  what = 'bandwidth',
): TopLevelSpec {
  const gb = (v: number): number => r4(v / 1e9)
  const data = points.map((p) => ({ series: p.series, size: p.sizeBytes, gbps: gb(p.value) }))
  const bandData = bands.map((b) => ({ label: `${b.label} (${b.source})`, lo: gb(b.low), hi: gb(b.high) }))
  const x = sizeAxis
  return {
    ...base(),
    title: chartTitle(`Bandwidth vs size: ${what}`, ctx),
    layer: [
      {
        data: { values: bandData },
        mark: { type: 'rect', opacity: 0.15 },
        encoding: {
          y: { field: 'lo', type: 'quantitative' },
          y2: { field: 'hi' },
          color: { field: 'label', type: 'nominal', title: 'expectation band', scale: { scheme: 'set2' } },
        },
      },
      {
        data: { values: data },
        mark: { type: 'line', point: true },
        encoding: {
          x,
          y: { field: 'gbps', type: 'quantitative', title: `${what} (GB/s)` },
          detail: { field: 'series' },
          strokeDash: { field: 'series', type: 'nominal', title: 'pair / group' },
        },
      },
    ],
    resolve: { scale: { color: 'independent' } },
  } as TopLevelSpec
}
