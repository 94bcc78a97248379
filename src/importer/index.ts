/** Import: existing tool outputs → a result set (streamed, raw bytes kept). */

export type { ImportOptions, ImportSummary } from './_import.ts'
export { importFiles, THREAD_MIN_BYTES } from './_import.ts'
export { eachLine } from './_lines.ts'
export type { ImportInput } from './_plan.ts'
