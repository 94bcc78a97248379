/**
 * `diff`: compare two result sets cell by cell, benchstat-style (medians with CIs, delta,
 * Mann-Whitney U p, `~` when not significant, a geomean row per metric, cells found in one
 * set only), and format the result as text, Markdown, CSV or JSON.
 */

export type { DiffCounts, GroupVerdict } from './_counts.ts'
export { countsText, diffCounts, groupVerdict, outcomeOf } from './_counts.ts'
export { diffSets, regressions, relDelta } from './_diff.ts'
export type { DigestClasses, DigestGroup, DigestOptions, LinkClassOf } from './_digest.ts'
export { answerSizes, diffAnswer, diffAnswerText, diffHeadline, digestGroups } from './_digest.ts'
export type { GateFailure, GateResult } from './_evidence.ts'
export { failureText, gate, worseBound, worsePValue } from './_evidence.ts'
export type { Field } from './_fields.ts'
export { FIELD_NAMES, fieldOf } from './_fields.ts'
export type { DiffFormat } from './_format.ts'
export {
  diffCsv,
  diffJson,
  diffMarkdown,
  diffTables,
  diffText,
  formatDiff,
  medianPm,
  signedPct,
  testingLines,
} from './_format.ts'
export {
  benjaminiHochberg,
  canReach,
  isTested,
  PRIMARY_METRICS,
  printedStep,
  uTestMinN,
  withinResolution,
} from './_gate.ts'
export type { ObservedChange } from './_observed.ts'
export { changeText } from './_observed.ts'
export type { Filter, ProjectedRow, ProjectedTable, SetProjection, TableProjection } from './_project.ts'
export { matches, parseFields, parseFilter, projectSet, projectTables } from './_project.ts'
export type {
  DiffCell,
  DiffGeomean,
  DiffOptions,
  DiffResult,
  DiffSide,
  DiffTesting,
  GateCorrection,
} from './_types.ts'
