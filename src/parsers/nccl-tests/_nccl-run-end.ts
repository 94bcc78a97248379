/**
 * What a finished nccl-tests run reports missing or doubtful: an unnamed collective, sizes
 * printed as 0 B, a rank count taken from elsewhere than its rank lines, a table without its
 * footer, a failed data check.
 */
import type { Diagnostic } from '../../model/index.ts'
import type { Run } from './_nccl-run.ts'

type Diag = (line: number, severity: Diagnostic['severity'], code: string, message: string) => void

/** What the run keeps to itself that its end notes read. */
export interface RunEndFacts {
  /** Collectives the rows' busbw/algbw fit, when the text did not name one. */
  candidates: readonly string[] | undefined
  zeroSized: { rows: number; requested: number }
  widest: { alg: string; bus: string } | undefined
}

/** Reports, at the run's first or last line, what its end shows missing. */
export function runEndNotes(run: Run, facts: RunEndFacts, d: Diag): void {
  if (run.emitted > 0 && run.collectiveName() === 'unknown') {
    const cands = facts.candidates?.join(', ') ?? 'none'
    d(
      run.startLine,
      'warn',
      'collective-unknown',
      `the text does not say which collective this table measured (rows fit: ${cands}); rows use bench nccl.unknown`,
    )
  }
  const z = facts.zeroSized
  if (z.rows > z.requested)
    d(
      run.startLine,
      'info',
      'size-printed',
      `${z.rows - z.requested} table rows print size 0 B (count below the rank count) and the banner does not give the ` +
        `requested sizes (minBytes, maxBytes, step): their cells are keyed by the printed size, so ` +
        `those requests pool under 0 B`,
    )
  rankNotes(run, facts, d)
  tableNotes(run, d)
}

/** Where the rank count came from when the rank lines do not give it. */
function rankNotes(run: Run, facts: RunEndFacts, d: Diag): void {
  const r = run.ranks()
  const listed = run.ranksFromLines
  if (r.from === 'command-line' && listed !== undefined)
    d(
      run.startLine,
      'info',
      'ranks-from-command',
      `the rank lines list ${listed} ranks, the command line launches ${r.n} (${run.launch?.ranksFrom}): ` +
        `the list is cut short; ${r.n} ranks used`,
    )
  if (r.from === 'busbw/algbw' && listed !== undefined) {
    const f = run.factorRanks(listed)
    const [lo, hi] = f?.range ?? [0, 0]
    d(
      run.startLine,
      'info',
      'ranks-from-factor',
      `the rank lines list ${listed} ranks, but busbw/algbw (${facts.widest?.bus}/${facts.widest?.alg}) needs ` +
        `${lo === hi ? lo : `${lo}–${Number.isFinite(hi) ? hi : '∞'}`} ranks: the list is cut short; ${r.n} ranks used` +
        `${lo === hi ? '' : ' (the one power of two in that range)'}`,
    )
  }
  if (run.emitted > 0 && r.from === 'inferred')
    d(run.startLine, 'info', 'ranks-inferred', `no rank lines: ${r.n} ranks inferred from busbw/algbw or size/count`)
}

/** A table cut short or never started, a failed data check or bandwidth floor, a truncated rank line. */
function tableNotes(run: Run, d: Diag): void {
  if (run.tableRows > 0 && !run.footer) {
    d(
      run.lastLine,
      'warn',
      'incomplete',
      `the table ends without its footer (aborted or truncated run); ` +
        `${run.tableRows} rows read, the complete ones kept`,
    )
  } else if (run.tableRows === 0 && run.bannerOrder >= 0 && !run.footer) {
    d(run.lastLine, 'warn', 'incomplete', 'the run stopped before its first result row (no table, no footer)')
  }
  if (run.oob?.status === 'FAILED')
    d(run.lastLine, 'warn', 'out-of-bounds', `data check failed: "Out of bounds values : ${run.oob.value} FAILED"`)
  if (run.avg?.status === 'FAILED')
    d(run.lastLine, 'warn', 'min-bandwidth', 'average bus bandwidth below NCCL_TESTS_MIN_BW (FAILED)')
  if (run.devices.some((x) => x.truncated))
    d(
      run.startLine,
      'warn',
      'rank-lines-truncated',
      'a rank line was cut at 2048 bytes ("..."); the rank count may be short',
    )
}
