/**
 * `diff`: compare two result sets cell by cell, benchstat-style (medians with CIs, delta,
 * Mann-Whitney U p, `~` when not significant, a geomean row per metric, cells found in one
 * set only), and format the result as text, Markdown, CSV or JSON.
 */
export { diffSets, regressions, relDelta, uTestMinN } from './_diff.ts'
export type { DiffFormat } from './_format.ts'
export { diffCsv, diffJson, diffMarkdown, diffText, formatDiff, medianPm, signedPct } from './_format.ts'
export type { DiffCell, DiffGeomean, DiffOptions, DiffResult, DiffSide } from './_types.ts'
