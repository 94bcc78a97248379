/**
 * Analysis: turns a result set into answers. α–β fits (time = α + size/β, robust, with a
 * seeded bootstrap interval and protocol breakpoints) per pair and group; the floor α placed
 * among published expectation bands with a verdict; pairs aggregated by link class with
 * outlier GPUs; `compare` of groupings (TP8 vs TP4) per size with the decode-step model.
 * The JSON shapes are the exported interfaces (`Analysis`, `Fit`, `Comparison`, …).
 */

export { hashSeed, mulberry32 } from '../random/index.ts'
export type { AlphaBeta, FitOptions } from './_alphabeta.ts'
export { fitSeries } from './_alphabeta.ts'
export type { AnalyzeOptions } from './_analyze.ts'
export { analyzeSet, toAnalysisCell } from './_analyze.ts'
export { analyze, compare } from './_api.ts'
export type { CompareOptions } from './_compare.ts'
export { axisValue, compareSet, perTrialMax } from './_compare.ts'
export { comparisonCsv, comparisonMarkdown } from './_compare-format.ts'
export { conclusions } from './_conclusion.ts'
export { decodeModel, p2pReadings, timeAt } from './_decode.ts'
export type { LineFit, SegmentFit, SegmentOptions, XY } from './_fit.ts'
export { huberLine, relResiduals, segmentedFit } from './_fit.ts'
export type { TopologyView } from './_join.ts'
export { gpuOutliers, linkClasses, OUTLIER_RATIO } from './_join.ts'
export type { Series, SeriesId } from './_series.ts'
export { buildSeries, seriesId } from './_series.ts'
export { renderAnalysis, renderComparison } from './_text.ts'
export { loadTopology, viewOfReport } from './_topology.ts'
export type {
  Analysis,
  AnalysisCell,
  Band,
  BandKind,
  BandMetric,
  BenchComparison,
  Comparison,
  Conclusion,
  DecodeModel,
  DecodePlan,
  Fit,
  GpuOutlier,
  GroupingStat,
  LinkClassSummary,
  ModelPreset,
  P2pReading,
  Segment,
  SizeBand,
  SizeComparison,
  Verdict,
} from './_types.ts'
export {
  bandById,
  bandRange,
  betaBands,
  candidateBands,
  floorBands,
  gpuFamilyOf,
  modelBandsFor,
  subjectOf,
  verdictText,
} from './_verdict.ts'
export type { NcclModelKey } from './bands.ts'
export {
  BANDS,
  BANDWIDTH_BANDS,
  COLLECTIVE_BANDS,
  inBand,
  LATENCY_BANDS,
  NCCL_MODEL,
  ncclModelBand,
  POINT_TOLERANCE,
} from './bands.ts'
export type { ModelOverrides } from './models.ts'
export { MODEL_PRESETS, resolveModel } from './models.ts'
