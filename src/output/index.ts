/**
 * Everything gpucomm shows people: text answers, tables, CSV and progress (text/), vega-lite
 * chart specs (charts/), SVG/PNG rendering (render/) and the one-file HTML report (report/).
 * Output sits above the analysis it presents; the plain-text building blocks that lower layers
 * use too (tables, answer blocks, Markdown-safe text) are in src/text/.
 */

export * from './charts/index.ts'
export * from './render/index.ts'
export * from './report/index.ts'
export * from './text/index.ts'
