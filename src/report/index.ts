/** Charts to files and the one-file HTML report (IO over the pure plot builders). */
export { escapeHtml, scriptJson, renderHtml, table, paragraphs, list } from './_html.ts'
export type { ReportPage, ReportChart, Section } from './_html.ts'
export { buildReport, writeReport } from './_build.ts'
export type { ReportOptions } from './_build.ts'
export { plotSet, chartsOf, PLOT_KINDS } from './_plot.ts'
export type { PlotKind, PlotOptions } from './_plot.ts'
