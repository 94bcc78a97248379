/** Turns one nvbandwidth matrix (text or JSON) into rows; N/A cells yield none and are counted. */
import type { Row } from '../../model/index.ts'
import type { DiagSink } from '../_matrix-common.ts'
import { scaled } from '../_matrix-common.ts'
import type { NvbwTestcaseMeta } from './_nvbw-meta.ts'
import { nvbwTestcase } from './_nvbw-testcases.ts'

/** One printed matrix row: its device index, cell texts and the line of each cell. */
export interface NvbwMatrixRow {
  row: number
  cells: string[]
  lines: number[]
}

/** One matrix of a testcase, as read. */
export interface NvbwMatrix {
  testcase: string
  /** Bench suffix: the testcase, or the SUM key of a part (`…_read1`, `…_total`). */
  key: string
  description: string
  cols: number[]
  rows: NvbwMatrixRow[]
  line: number
}

/** Everything emitMatrix needs besides the matrix. */
export interface NvbwEmitContext {
  file: string
  trial: number
  sizeBytes: (latency: boolean) => number | null
  emit: (row: Row) => void
  diags: DiagSink
}

/** Emits the rows of one matrix and returns how many rows and N/A cells it had. */
export function emitMatrix(m: NvbwMatrix, ctx: NvbwEmitContext): { rows: number; na: number } {
  const tc = nvbwTestcase(m.key, m.description)
  const size = ctx.sizeBytes(tc.metric === 'latency')
  let rows = 0
  let na = 0
  let naOff = 0
  for (const r of m.rows) {
    for (let k = 0; k < r.cells.length && k < m.cols.length; k++) {
      const text = r.cells[k] as string
      const col = m.cols[k] as number
      const line = r.lines[k] ?? r.lines[0] ?? m.line
      if (text === 'N/A') {
        na++
        if (col !== r.row) naOff++
        continue
      }
      const value = scaled(text, tc.exp)
      if (value === undefined) {
        ctx.diags.add(line, 'warn', 'bad-cell', `${m.key}: cell (${r.row}, ${col}) is "${text}", not a number; no row`)
        continue
      }
      const { src, dst } = tc.place(r.row, col)
      const row: Row = {
        bench: `nvbw.${m.key}`,
        metric: tc.metric,
        unit: tc.unit,
        value,
        sizeBytes: size,
        ranks: null,
        src,
        dst,
        placement: null,
        p2p: tc.p2p,
        timer: null,
        trial: ctx.trial,
        source: { file: ctx.file, line },
      }
      if (tc.copy) row.copy = tc.copy
      if (tc.direction) row.direction = tc.direction
      ctx.emit(row)
      rows++
    }
  }
  if (na > 0) {
    const off =
      naOff > 0
        ? `, ${naOff} off the diagonal (pairs the test could not run, e.g. without peer access)`
        : ' (the diagonal)'
    ctx.diags.add(m.line, 'info', 'na-cell', `${m.key}: ${na} N/A cells${off}; no rows for them`)
  }
  return { rows, na }
}

/** Emits one matrix (emitMatrix) and summarizes it in its testcase's meta, if any (at most 16 matrices a testcase). */
export function emitRecorded(m: NvbwMatrix, ctx: NvbwEmitContext, tc: NvbwTestcaseMeta | null): void {
  const { rows, na } = emitMatrix(m, ctx)
  if (tc && tc.matrices.length < 16)
    tc.matrices.push({
      key: m.key,
      description: m.description,
      line: m.line,
      rows: m.rows.length,
      columns: m.cols.length,
      emitted: rows,
      na,
    })
}

/** Part suffix of a bidirectional matrix from its description ("… Read1 bandwidth" → `_read1`). */
export function partSuffix(description: string): string {
  const m = /\b(Read1|Read2|Write1|Write2|Total)\b/.exec(description)
  return m ? `_${(m[1] as string).toLowerCase()}` : ''
}
