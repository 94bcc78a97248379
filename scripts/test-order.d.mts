/** Per-file seconds of earlier runs, keyed by the path relative to the repository. */
export type Past = Record<string, number>
export function readPast(file: string): Past
export function savePast(file: string, root: string, perFile: Record<string, number>): void
export function longestFirst(files: string[], past: Past): string[]
export function balance(files: string[], past: Past, n: number): string[][]
