/**
 * Plain-text building blocks any layer may use: aligned tables, the answer-first block (question,
 * answer, grouped table, what was left out) and Markdown-safe text. They know rows only by their
 * units; what is said about a measurement, and every composed output (show, progress, charts,
 * the report), lives in output/.
 */

export type { Answer } from './_answer.ts'
export { ANSWER_ROWS, pctRange, pctText, plural, rangeText, renderAnswer } from './_answer.ts'
export { mdCode, mdText } from './_markdown.ts'
export { renderTable } from './_table.ts'
