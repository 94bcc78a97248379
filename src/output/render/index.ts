/** Rendering of vega-lite specs to SVG (headless vega) and PNG (resvg with system fonts). */

export { findFontFiles, requireFonts } from './_fonts.ts'
export type { ChartFaces, WidthFunction } from './_metrics.ts'
export { chartFaces, textWidthFor } from './_metrics.ts'
export type { RenderedChart } from './_render.ts'
export { CHART_FONT, renderChart, renderSvg, svgToPng } from './_render.ts'
export type { Box, SceneItem } from './_scene.ts'
export { overlapArea, overlappingTexts, sceneOf } from './_scene.ts'
