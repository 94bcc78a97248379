/**
 * Analysis: turns a result set into answers. α–β fits (time = α + size/β, robust, with a
 * seeded bootstrap interval and protocol breakpoints) per pair and group; the floor α placed
 * among published expectation bands with a verdict; pairs aggregated by link class with
 * outlier GPUs; `compare` of groupings (TP8 vs TP4) per size with the decode-step model.
 * The JSON shapes are the exported interfaces (`Analysis`, `Fit`, `Comparison`, …).
 */
export { analyze, compare } from './_api.ts'
export { analyzeSet, toAnalysisCell } from './_analyze.ts'
export type { AnalyzeOptions } from './_analyze.ts'
export { compareSet, axisValue } from './_compare.ts'
export type { CompareOptions } from './_compare.ts'
export { decodeModel, p2pReadings, timeAt } from './_decode.ts'
export { fitSeries } from './_alphabeta.ts'
export type { AlphaBeta, FitOptions } from './_alphabeta.ts'
export { huberLine, segmentedFit, relResiduals } from './_fit.ts'
export type { XY, LineFit, SegmentFit, SegmentOptions } from './_fit.ts'
export { buildSeries, seriesId } from './_series.ts'
export type { Series, SeriesId } from './_series.ts'
export { linkClasses, gpuOutliers, OUTLIER_RATIO } from './_join.ts'
export type { TopologyView } from './_join.ts'
export { loadTopology, viewOfReport } from './_topology.ts'
export { floorBands, betaBands, candidateBands, modelBandsFor, verdictText, subjectOf, bandById, bandRange, gpuFamilyOf } from './_verdict.ts'
export { BANDS, LATENCY_BANDS, COLLECTIVE_BANDS, BANDWIDTH_BANDS, NCCL_MODEL, ncclModelBand, inBand, POINT_TOLERANCE } from './bands.ts'
export type { NcclModelKey } from './bands.ts'
export { MODEL_PRESETS, resolveModel } from './models.ts'
export type { ModelOverrides } from './models.ts'
export { mulberry32, hashSeed } from '../random/index.ts'
export { renderAnalysis, renderComparison } from './_text.ts'
export type {
  Analysis, AnalysisCell, Fit, Segment, Band, BandKind, BandMetric, Verdict, LinkClassSummary, GpuOutlier,
  Comparison, BenchComparison, SizeComparison, GroupingStat, DecodeModel, DecodePlan, P2pReading, ModelPreset,
} from './_types.ts'
