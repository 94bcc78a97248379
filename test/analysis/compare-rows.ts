/**
 * Hand-made time rows and result sets for the compare unit tests (generated, not real output):
 * one row per call, values in whole seconds so medians and ratios are exact.
 */
import type { GroupingStat } from '../../src/analysis/_types.ts'
import type { Row } from '../../src/model/index.ts'
import { makeRow } from '../../src/model/index.ts'
import type { ReadSet } from '../../src/resultset/index.ts'

export type Extra = Partial<Row>
export const row = (value: number, extra: Extra = {}): Row =>
  makeRow({
    bench: 'nccl.all_reduce',
    metric: 'time',
    unit: 's',
    value,
    sizeBytes: 8,
    source: { file: 'a.txt', line: 1 },
    ...extra,
  })
/** A result set at sets/x (id set-1) holding `rows`. */
export const setOf = (rows: Row[], simulated = false): ReadSet =>
  ({ dir: 'sets/x', manifest: { id: 'set-1', simulated }, diagnostics: [], rows }) as unknown as ReadSet
/** One row per trial (1, 2, 3, …) of one grouping and group. */
export const trials = (grouping: string, group: string, values: number[], extra: Extra = {}): Row[] =>
  values.map((v, i) => row(v, { grouping, group, trial: i + 1, ...extra }))
/** What a test reads of a grouping: name, n, median, CI, how groups combined, the sample. */
export const brief = (g: GroupingStat | undefined) => g && [g.grouping, g.n, g.median, g.ci, g.combined, g.values]
