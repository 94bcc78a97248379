/** Rendering of vega-lite specs to SVG (headless vega) and PNG (resvg with system fonts). */
export { renderSvg, svgToPng, renderChart, CHART_FONT } from './_render.ts'
export type { RenderedChart } from './_render.ts'
export { findFontFiles, requireFonts } from './_fonts.ts'
export { pngInfo } from './_png.ts'
export type { PngInfo } from './_png.ts'
