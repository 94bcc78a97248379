import type { TopLevelSpec } from 'vega-lite'
import { requireFonts } from './_fonts.ts'
import { installTextMetrics } from './_metrics.ts'

/** The font every chart uses; DejaVu Sans is what Debian ships and resvg finds. */
export const CHART_FONT = 'DejaVu Sans'

/** Compiles a vega-lite spec and renders it to SVG with a headless vega view. */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  await installTextMetrics()
  const vl = await import('vega-lite')
  const vega = await import('vega')
  const withFont: TopLevelSpec = { ...spec, config: { font: CHART_FONT, ...(spec.config ?? {}) } } as TopLevelSpec
  const compiled = vl.compile(withFont).spec
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' })
  try {
    return await view.toSVG()
  } finally {
    view.finalize()
  }
}

/** Rasterizes SVG to PNG with resvg, loading the system fonts (fails clearly without any). */
export async function svgToPng(
  svg: string,
  opts: { scale?: number; fontDirs?: readonly string[] } = {},
): Promise<Buffer> {
  const fontFiles = requireFonts(opts.fontDirs)
  const { Resvg } = await import('@resvg/resvg-js')
  const r = new Resvg(svg, {
    background: 'white',
    fitTo: { mode: 'zoom', value: opts.scale ?? 2 },
    font: { fontFiles, loadSystemFonts: false, defaultFontFamily: CHART_FONT, sansSerifFamily: CHART_FONT },
  })
  return r.render().asPng()
}

/** A rendered chart: the spec, its SVG and its PNG. */
export interface RenderedChart {
  spec: TopLevelSpec
  svg: string
  png: Buffer
}

/** Renders one spec to SVG and PNG. */
export async function renderChart(spec: TopLevelSpec, opts: { scale?: number } = {}): Promise<RenderedChart> {
  const svg = await renderSvg(spec)
  return { spec, svg, png: await svgToPng(svg, opts) }
}
