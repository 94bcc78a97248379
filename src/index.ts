/**
 * gpucomm's public library API: named re-exports only. Each folder's own `index.ts` has the
 * full surface; this door lists what a program embedding gpucomm needs.
 */

export type { Analysis, Band, Comparison, DecodeModel, Fit, Verdict } from './analysis/index.ts'
export { analyze, BANDS, compare, MODEL_PRESETS, resolveModel } from './analysis/index.ts'
export { buildNative, findNvcc } from './build/index.ts'
export { cellKey, cells } from './cells/index.ts'
export type { DiffCell, DiffOptions, DiffResult } from './diff/index.ts'
export { diffSets, formatDiff } from './diff/index.ts'
export { HarnessError } from './errors/index.ts'
export type { ImportInput, ImportOptions, ImportSummary } from './importer/index.ts'
export { importFiles } from './importer/index.ts'
export type { Diagnostic, HostFacts, Manifest, Metric, PointOutcome, Row, SourceFile, Unit } from './model/index.ts'
export { makeRow, rowProblem, SCHEMA_VERSION, SIM_MARKER } from './model/index.ts'
export type { NamedChart } from './output/index.ts'
export {
  buildReport,
  diffCharts,
  groupsCharts,
  heatmapCharts,
  latencyCharts,
  plotSet,
  renderChart,
  renderSvg,
  svgToPng,
  writeReport,
} from './output/index.ts'
export type { Origin, ParseOutput, Parser } from './parsers/index.ts'
export { detectParser, PARSERS, parserById, parseText } from './parsers/index.ts'
export type { LoadedSet } from './resultset/index.ts'
export { Appender, loadSet, newManifest, readManifest, readRows, writeManifest } from './resultset/index.ts'
export { runSweep } from './run/index.ts'
export type { SimOptions } from './sim/index.ts'
export { presetNames, presetTruth, simulate, trueTime, writeSimTopology } from './sim/index.ts'
export type { SortedSample, Summary } from './stats/index.ts'
export { geomean, mannWhitney, medianCI, modifiedZ, quantile, sortSample, summarize } from './stats/index.ts'
export { plan, resolveSpec } from './sweep/index.ts'
export type {
  CollectOptions,
  Finding,
  Grouping,
  HypervisorInfo,
  LatencyBand,
  P2PCapability,
  P2PStatus,
  TopoBridge,
  TopoGpu,
  TopologyReport,
  TopoPair,
  TopoSource,
} from './topology/index.ts'
export {
  adviseGroupings,
  captureTopology,
  collectTopology,
  pairLinkClass,
  rankGroupings,
  renderTopology,
} from './topology/index.ts'
