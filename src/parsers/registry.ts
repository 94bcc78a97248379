import type { Parser } from './types.ts'

/**
 * Every parser gpucomm knows, in one explicit list (no discovery). Add a format by
 * adding its file and one line here.
 */
export const PARSERS: readonly Parser[] = [
]
