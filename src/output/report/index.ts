/** Charts to files and the one-file HTML report (IO over the pure plot builders). */

export type { ReportOptions } from './_build.ts'
export { buildReport, REPORT_STEPS, reportPage, writeReport } from './_build.ts'
export type { Html, ReportChart, ReportPage, Section } from './_html.ts'
export { details, escapeHtml, html, list, paragraphs, renderHtml, scriptJson, table } from './_html.ts'
export type { PlotKind, PlotOptions } from './_plot.ts'
export { busbwChartsOf, chartContext, chartsOf, PLOT_KINDS, plotSet } from './_plot.ts'
export { CHART_KINDS } from './kinds/index.ts'
