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
export type { CiteContext } from './_cite.ts'
export { bandDistance, citeFor, fittedTime, hardUnmet, positionOf, softUnmet } from './_cite.ts'
export type { CompareOptions } from './_compare.ts'
export { axisValue, compareSet, perTrialMax } from './_compare.ts'
export { comparisonCsv, comparisonMarkdown } from './_compare-format.ts'
export { conclusions } from './_conclusion.ts'
export type { MachineContext, NcclSeen, Sourced } from './_context.ts'
export { gpuFamilyOf, machineContext, transportFamily } from './_context.ts'
export { decodeModel, p2pReadings, timeAt } from './_decode.ts'
export type { FitGroup } from './_digest.ts'
export { analysisAnswer, analysisAnswerText, groupFits } from './_digest.ts'
export type { LineFit, SegmentFit, SegmentOptions, XY } from './_fit.ts'
export { huberLine, relResiduals, segmentedFit } from './_fit.ts'
export type { Fleet, FleetOutlier, FleetPair } from './_fleet.ts'
export { analyzeFleet, MIN_FLEET_DELTA } from './_fleet.ts'
export type { FleetLaunch } from './_fleet-import.ts'
export type { FleetScaling } from './_fleet-scaling.ts'
export { fleetHeading, launchLines, outlierLine, outlierLines, scalingTable } from './_fleet-text.ts'
export type { TopologyView } from './_join.ts'
export { gpuOutliers, linkClasses, OUTLIER_RATIO } from './_join.ts'
export { judgePair, RANGES } from './_mechanism.ts'
export { MODE_GAP } from './_modes.ts'
export { conditionsOf, referenceTable } from './_reference.ts'
export type { Series, SeriesId } from './_series.ts'
export { buildSeries, seriesId } from './_series.ts'
export { renderAnalysis, renderComparison, verdictSections } from './_text.ts'
export { loadTopology, viewOfReport } from './_topology.ts'
export { groupGpus, judgeCollective } from './_transport.ts'
export type {
  Analysis,
  AnalysisCell,
  Band,
  BandKind,
  BandMetric,
  BenchComparison,
  CitedBand,
  Comparison,
  Conclusion,
  Conflict,
  DecodeModel,
  DecodePlan,
  Evidence,
  Fit,
  GpuOutlier,
  GroupingStat,
  LinkClassSummary,
  Mechanism,
  MechanismId,
  ModelPreset,
  NcclTransport,
  P2pReading,
  Segment,
  SizeBand,
  SizeComparison,
  Verdict,
} from './_types.ts'
export type { FitCore, Judged } from './_verdict.ts'
export { bandById, betaBands, citedText, judgeFit, subjectOf, verdictText } from './_verdict.ts'
export { bandRange, LINK_WORDS, MECHANISM_WORDS } from './_words.ts'
export type { NcclModelKey } from './bands.ts'
export {
  BAND_TOLERANCE,
  BANDS,
  BANDWIDTH_BANDS,
  COLLECTIVE_BANDS,
  inBand,
  LATENCY_BANDS,
  NCCL_MODEL,
  ncclModelBand,
  POINT_TOLERANCE,
} from './bands.ts'
export type { Fabric } from './bands-network.ts'
export { FABRICS, FAULT_FACTORS, NCCL_TREE, NET_HOP, NICS_PER_NODE, networkReferenceRows } from './bands-network.ts'
export type { ModelOverrides } from './models.ts'
export { MODEL_PRESETS, resolveModel } from './models.ts'
