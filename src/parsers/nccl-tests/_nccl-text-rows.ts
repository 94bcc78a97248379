/**
 * Pieces of the nccl-tests text parser: what it says about a result row as it takes it in (an
 * error printed inside the row, a row cut short, per-iteration columns, once per run), and the
 * `#` lines other than banner, rank and footer lines (table header, modes, memory, errors).
 */

import type { Diagnostic } from '../../model/index.ts'
import type { ParsedRow } from './_nccl-row.ts'
import { layoutFromHeader } from './_nccl-row.ts'
import type { Run } from './_nccl-run.ts'
import { num } from './_nccl-tokens.ts'

/** Adds the notes a row deserves (the caller fixes the line). */
export function rowNotes(
  row: ParsedRow,
  run: Run,
  add: (severity: Diagnostic['severity'], code: string, message: string) => void,
): void {
  if (row.glued !== undefined) {
    const failure = /fail|error|timeout|abort/i.test(row.glued)
    add(
      failure ? 'error' : 'warn',
      failure ? 'row-error' : 'bad-row',
      `${failure ? 'error printed inside a result row' : 'unreadable cells in a result row'}: ` +
        `${row.glued.slice(0, 200)}`,
    )
  } else if (row.blocks.length < 2 && !row.inPlaceOnly) {
    add(
      'warn',
      'partial-row',
      `result row cut short (${row.blocks.length} of 2 placements complete); the complete cells are kept`,
    )
  }
  if (row.layout.perIter && !run.info.perIterColumns) {
    run.info.perIterColumns = true
    add(
      'info',
      'per-iteration-columns',
      'the i_min/i_max/i_p99/i_cv% cells (-I) are summaries; they are not stored as rows',
    )
  }
}

/** What otherComment needs of the parser: the current run, a new one, the file facts, notes. */
export interface CommentTarget {
  run: Run | undefined
  readonly file: Record<string, unknown>
  runFor(no: number, newIf: (r: Run) => boolean): Run
  note(no: number, severity: Diagnostic['severity'], code: string, message: string): void
}

/** A `#` line that is not a banner, rank or footer line. */
export function otherComment(p: CommentTarget, t: string[], no: number): void {
  const w0 = t[0] as string
  const rest = t.join(' ')
  if (w0 === 'size' || w0 === 'bytes') {
    if (!t.includes('time') && !t.includes('cputime')) return
    const run = p.runFor(no, (r) => r.tableRows > 0 || r.footer)
    run.layout = layoutFromHeader(t)
    run.headerSeen = true
    if (t.includes('cputime')) run.timeLabel = 'cputime'
    if (w0 === 'bytes') run.timeExp = -3
  } else if (t.includes('out-of-place')) {
    p.runFor(no, (r) => r.tableRows > 0 || r.footer).headerSeen = true
  } else if (w0 === '(B)' && t.includes('(ms)') && p.run) p.run.timeExp = -3
  else if (w0 === 'Using' && t[1] === 'devices') p.runFor(no, (r) => r.headerSeen || r.tableRows > 0 || r.footer)
  else if (w0 === 'Reducing' && t[1] === 'maxBytes' && p.run) p.run.info.reducedMaxBytes = num(t[3] ?? '')
  else if ((w0 === 'Blocking' || w0 === 'Parallel' || w0 === 'Per-Iteration') && p.run) p.run.modes.push(rest)
  else if (w0 === 'Writing' && t[1] === 'JSON') p.file.jsonOutput = t.slice(4).join(' ')
  else if (w0 === 'GPU' && t[1] === 'memory' && p.run)
    p.run.info.gpuMemoryUsage = rest.slice(rest.indexOf(':') + 1).trim()
  else if (w0 === 'error:' && t.length > 1)
    p.note(no, 'error', 'nccl-error', `nccl-tests reported: ${rest.slice(7, 300)}`)
  else if (w0 === 'NCCL' && t[1] === 'Tests' && t[2] === 'compiled' && p.run) p.run.info.ncclCompiled = t[5]
}
