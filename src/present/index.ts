/** Presenting rows to people and other tools: the show table, CSV and JSON lines. */
export { rowsToCsv, rowsToJsonl } from './_csv.ts'
export type { ShowLine } from './_table.ts'
export { renderTable, showLines, showTable, who } from './_table.ts'
