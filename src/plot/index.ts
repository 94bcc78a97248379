/** Chart builders: pure functions from measured or analysed data to vega-lite specs. */

export type { ChartContext } from './_common.ts'
export { chartTitle } from './_common.ts'
export type { DiffBar } from './_diff.ts'
export { diffChart } from './_diff.ts'
export type { NamedChart } from './_from.ts'
export { diffCharts, groupsCharts, heatmapCharts, latencyCharts } from './_from.ts'
export type { GroupPoint } from './_groups.ts'
export { groupsChart } from './_groups.ts'
export type { PairCell } from './_heatmap.ts'
export { heatmapChart } from './_heatmap.ts'
export type { BandShade, FitLine, SizePoint } from './_latency.ts'
export { bandwidthChart, latencyChart } from './_latency.ts'
