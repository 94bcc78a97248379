/** Presenting rows to people and other tools: the show table, CSV and JSON lines, a sweep's progress and summary. */

export type { Answer } from './_answer.ts'
export { ANSWER_ROWS, pctRange, pctText, plural, rangeText, renderAnswer } from './_answer.ts'
export { csvHeader, csvRecords, rowsToCsv, rowsToJsonl } from './_csv.ts'
export type { LiveOptions, ProgressSink } from './_live-progress.ts'
export { liveLine, liveProgress, plainProgress } from './_live-progress.ts'
export type { ShowGroup } from './_show-answer.ts'
export { endSizes, showAnswer, showAnswerText, showGroups } from './_show-answer.ts'
export { clock, progressLine } from './_sweep-progress.ts'
export { outcomeCounts, summarizeSweep } from './_sweep-summary.ts'
export type { ShowLine } from './_table.ts'
export { renderTable, showLines, showTable, who } from './_table.ts'
