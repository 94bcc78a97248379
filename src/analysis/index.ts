/**
 * Analysis: turns a result set into answers. α–β fits (time = α + size/β, robust, with a
 * seeded bootstrap interval and protocol breakpoints) per pair and group; the floor α placed
 * among published expectation bands with a verdict; pairs aggregated by link class with
 * outlier GPUs; `compare` of groupings (TP8 vs TP4) per size with the decode-step model.
 * The JSON shapes are the exported interfaces (`Analysis`, `Fit`, `Comparison`, …).
 */

export type { Fabric, NcclModelKey } from '../bands/index.ts'
export {
  BAND_TOLERANCE,
  BANDS,
  BANDWIDTH_BANDS,
  COLLECTIVE_BANDS,
  FABRICS,
  FAULT_FACTORS,
  inBand,
  LATENCY_BANDS,
  NCCL_MODEL,
  NCCL_TREE,
  NET_HOP,
  NICS_PER_NODE,
  ncclModelBand,
  networkReferenceRows,
  POINT_TOLERANCE,
} from '../bands/index.ts'
export { hashSeed, mulberry32 } from '../random/index.ts'
export type { AnalyzeOptions } from './_analyze.ts'
export { analyzeSet, toAnalysisCell } from './_analyze.ts'
export { analyze, compare } from './_api.ts'
export { comparisonAnswer, comparisonAnswerText } from './_compare-answer.ts'
export type { FitGroup } from './_digest.ts'
export { analysisAnswer, analysisAnswerText, bandLines, groupedFloors, groupFits } from './_digest.ts'
export type { FleetLaunch } from './_fleet-import.ts'
export type { TopologyView } from './_join.ts'
export { gpuOutliers, linkClasses, OUTLIER_RATIO } from './_join.ts'
export { renderAnalysis, renderComparison, verdictSections } from './_text.ts'
export { loadTopology, viewOfReport } from './_topology.ts'
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
export { bandRange, LINK_WORDS, MECHANISM_WORDS } from './_words.ts'
export type { CompareOptions } from './compare/_compare.ts'
export { axisValue, compareSet, perTrialMax } from './compare/_compare.ts'
export { comparisonCsv, comparisonMarkdown } from './compare/_compare-format.ts'
export { conclusions } from './compare/_conclusion.ts'
export { decodeModel, p2pReadings, timeAt } from './compare/_decode.ts'
export type { ModelOverrides } from './compare/models.ts'
export { MODEL_PRESETS, resolveModel } from './compare/models.ts'
export type { AlphaBeta, FitOptions } from './fit/_alphabeta.ts'
export { fitSeries } from './fit/_alphabeta.ts'
export type { LineFit, SegmentFit, SegmentOptions, XY } from './fit/_fit.ts'
export { huberLine, relResiduals, segmentedFit } from './fit/_fit.ts'
export { MODE_GAP } from './fit/_modes.ts'
export type { Series, SeriesId } from './fit/_series.ts'
export { buildSeries, seriesId } from './fit/_series.ts'
export type { Fleet, FleetOutlier, FleetPair } from './fleet/_fleet.ts'
export { analyzeFleet, MIN_FLEET_DELTA } from './fleet/_fleet.ts'
export type { FleetScaling } from './fleet/_fleet-scaling.ts'
export { fleetHeading, launchLines, outlierLine, outlierLines, scalingTable } from './fleet/_fleet-text.ts'
export type { CiteContext } from './verdict/_cite.ts'
export { bandDistance, citeFor, fittedTime, hardUnmet, positionOf, softUnmet } from './verdict/_cite.ts'
export type { MachineContext, Sourced } from './verdict/_context.ts'
export { gpuFamilyOf, machineContext, transportFamily } from './verdict/_context.ts'
export { judgePair, RANGES } from './verdict/_mechanism.ts'
export { conditionsOf, referenceTable } from './verdict/_reference.ts'
export type { NcclSeen } from './verdict/_sources.ts'
export type { Stated } from './verdict/_stated.ts'
export { bandClause, statedBand } from './verdict/_stated.ts'
export { groupGpus, judgeCollective } from './verdict/_transport.ts'
export type { FitCore, Judged } from './verdict/_verdict.ts'
export { alphaCiText, bandById, betaBands, citedText, judgeFit, subjectOf, verdictText } from './verdict/_verdict.ts'
