/** Presenting rows to people and other tools: the show table, CSV and JSON lines, a sweep's progress and summary. */

export { csvHeader, csvRecords, rowsToCsv, rowsToJsonl } from './_csv.ts'
export type { LiveOptions, ProgressSink } from './_live-progress.ts'
export { liveLine, liveProgress, plainProgress } from './_live-progress.ts'
export type { ShowGroup } from './_show-answer.ts'
export { endSizes, showAnswer, showAnswerText, showGroups } from './_show-answer.ts'
export type { StageOptions, StageSink } from './_stages.ts'
export { noStages, stageLine, stageProgress } from './_stages.ts'
export { clock, progressLine } from './_sweep-progress.ts'
export { outcomeCounts, summarizeSweep } from './_sweep-summary.ts'
export type { ShowLine } from './_table.ts'
export { showLines, showTable, who } from './_table.ts'
