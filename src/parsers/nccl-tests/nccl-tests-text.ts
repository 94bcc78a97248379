/**
 * nccl-tests `*_perf` text output, v1.0 … v2.19 (real logs of each shape, with their
 * sources, under test/fixtures/nccl-tests):
 * banners, rank lines, `error` / `#wrong` tables, footers, launcher noise, glued error
 * lines, tag-output prefixes, log tails and aborted runs. Streaming: each line is seen once.
 */

import type { Diagnostic, Row } from '../../model/index.ts'
import { SIM_MARKER } from '../../model/index.ts'
import { GuardedLineParser } from '../_matrix-common.ts'
import { srunLabelEnd } from '../_text.ts'
import type { Origin, Parser } from '../types.ts'
import { COLLECTIVES } from './_nccl-collective.ts'
import { detectNcclText } from './_nccl-detect.ts'
import {
  fileMeta,
  ncclCodeToVersion,
  parseBanner,
  parseFooterValue,
  parseRankLine,
  parseVersionLine,
} from './_nccl-meta.ts'
import type { PresetCollective } from './_nccl-naming.ts'
import { presetCollective } from './_nccl-naming.ts'
import type { Layout, ParsedRow } from './_nccl-row.ts'
import { continueRow, markTraceRow, parseRow } from './_nccl-row.ts'
import type { RunSink } from './_nccl-run.ts'
import { Run } from './_nccl-run.ts'
import type { NextRun, OtherTarget } from './_nccl-text-other.ts'
import { otherLine } from './_nccl-text-other.ts'
import { otherComment, rowNotes } from './_nccl-text-rows.ts'
import { collectiveInText, firstNonBlank, isDigit, stripPrefix, tokenize } from './_nccl-tokens.ts'

/** Runs whose meta is kept in full (a log of thousands of runs keeps counts for the rest). */
const RUNS_KEPT = 100

class NcclTextParser extends GuardedLineParser implements OtherTarget {
  private readonly runMetas: Record<string, unknown>[] = []
  private runCount = 0
  private readonly collectives = new Set<string>()
  run: Run | undefined
  readonly file: Record<string, unknown> = {}
  private readonly tok: string[] = []
  private readonly sink: RunSink
  /** What lines before a run said of it (its command line, NCCL's nranks). */
  next: NextRun = {}
  private naCells = 0
  private naFirst = 0
  private broken: { row: ParsedRow; line: number } | undefined
  private rowLayout: Layout | undefined
  /** The collective assumed until the text names one (import --collective, or the file name). */
  private readonly preset: PresetCollective | undefined = presetCollective(this.origin.file, this.origin.collective)

  constructor(origin: Origin, emit: (row: Row) => void) {
    super(origin, emit, 'nccl-tests')
    this.sink = {
      file: origin.file,
      trial: Number.isInteger(origin.trial) ? (origin.trial as number) : 0,
      emit,
      diag: (line, severity, code, message) => this.diags.add(line, severity, code, message),
      na: (line) => {
        if (this.naCells++ === 0) this.naFirst = line
      },
    }
  }

  protected read(text: string, no: number): void {
    if (this.run) this.run.lastLine = no
    let s = text
    const label = srunLabelEnd(s)
    if (label > 0) {
      s = s.slice(label)
      this.file.srunLabel = true
    }
    if (s.charCodeAt(0) === 91 || s.indexOf('\x1b') !== -1) {
      const p = stripPrefix(s)
      s = p.text
      if (p.tagged) this.file.tagOutput = true
    }
    const i = firstNonBlank(s)
    if (i < 0) return this.settleBroken()
    const c = s.charCodeAt(i)
    if (c === 35) {
      this.settleBroken()
      return this.comment(s, i, no)
    }
    const t = tokenize(s, this.tok)
    if (this.broken && this.resume(t)) return
    this.settleBroken()
    if (isDigit(c) && this.tryRow(t, s, no)) return
    otherLine(this, s, t, no)
  }

  note(no: number, severity: Diagnostic['severity'], code: string, message: string): void {
    this.diags.add(no, severity, code, message)
  }

  /** The current run, or a new one when there is none or the current one is past `stage`. */
  runFor(no: number, newIf: (r: Run) => boolean): Run {
    const r = this.run
    if (r && !newIf(r)) return r
    if (r) this.close(r)
    const run = new Run(no, this.sink)
    const { command, launch, nranksInfo } = this.next
    if (command !== undefined) this.name(run, command, 'command', no)
    else if (this.preset) [run.collective, run.collectiveFrom] = [this.preset.name, this.preset.from]
    if (launch) run.launch = launch
    if (nranksInfo !== undefined) run.nranksInfo = nranksInfo
    this.next = {}
    this.rowLayout = undefined
    this.run = run
    return run
  }

  /** Finishes a run and keeps its meta (in full for the first RUNS_KEPT runs). */
  private close(r: Run): void {
    r.finish()
    if (r.emitted > 0 && r.collectiveFrom === 'file-name')
      this.diags.add(
        r.startLine,
        'info',
        'collective-from-file-name',
        `the text does not name its collective: ${r.collective}, from the file name ${this.sink.file}`,
      )
    if (this.runCount++ < RUNS_KEPT) this.runMetas.push(r.meta())
    if (r.collective !== undefined || r.tableRows > 0) this.collectives.add(r.collectiveName())
    const { version, ncclLibrary } = r.info
    if (typeof version === 'string') this.file.version ??= version
    if (typeof ncclLibrary === 'number' && this.file.nccl === undefined) this.file.nccl = ncclCodeToVersion(ncclLibrary)
  }

  /** A banner line of order 0 (version), 1 (test starting) or 2 (nThread). */
  banner(order: number, no: number): Run {
    const run = this.runFor(no, (r) => r.started || r.bannerOrder >= order)
    run.bannerOrder = order
    return run
  }

  private tryRow(t: string[], s: string, no: number): boolean {
    const layout = this.run?.layout ?? this.rowLayout
    const row = parseRow(t, layout) ?? (layout ? parseRow(t, undefined) : undefined)
    if (!row) return false
    if (markTraceRow(row, s)) {
      if (!this.file.traceMode)
        this.diags.add(
          no,
          'info',
          'trace-mode',
          'the out-of-place cells are blank (trace/replay mode): these rows are in-place only',
        )
      this.file.traceMode = true
    }
    if (!this.run?.layout && row.exact) this.rowLayout ??= row.layout
    if (row.glued !== undefined && row.blocks.length < 2) {
      this.broken = { row, line: no }
      return true
    }
    this.addRow(row, no)
    return true
  }

  private addRow(row: ParsedRow, no: number): void {
    const run = this.runFor(no, (r) => r.footer)
    rowNotes(row, run, (severity, code, message) => this.diags.add(no, severity, code, message))
    run.addRow(row, no)
  }

  /** A row broken by an error line may continue on the next line with only its cells. */
  private resume(t: string[]): boolean {
    const b = this.broken
    if (!b || !continueRow(b.row, t)) return false
    this.broken = undefined
    this.diags.add(
      b.line,
      'error',
      'row-error',
      `error printed inside a result row (row completed on the next line): ${(b.row.glued ?? '').slice(0, 200)}`,
    )
    delete b.row.glued
    this.addRow(b.row, b.line)
    return true
  }

  private settleBroken(): void {
    const b = this.broken
    if (!b) return
    this.broken = undefined
    this.addRow(b.row, b.line)
  }

  private comment(s: string, i: number, no: number): void {
    if (s.startsWith(SIM_MARKER, i)) {
      this.file.simulated = true
      return
    }
    const t = tokenize(s.slice(i + 1), this.tok)
    const w0 = t[0]
    if (w0 === undefined) return
    if (w0 === 'nccl-tests' && t[1] === 'version') Object.assign(this.banner(0, no).info, parseVersionLine(t))
    else if (w0 === 'Collective' && t[1] === 'test') this.collectiveLine(t, no)
    else if (w0 === 'nThread') this.banner(2, no).params = parseBanner(t)
    else if (w0 === 'Rank') {
      const d = parseRankLine(t)
      if (d) this.runFor(no, (r) => r.headerSeen || r.tableRows > 0 || r.footer).addDevice(d)
    } else if (w0 === 'Out' && t[1] === 'of') this.footerLine(no, 'oob', t)
    else if (w0 === 'Avg' && t[1] === 'bus') this.footerLine(no, 'avg', t)
    else otherComment(this, t, no)
  }

  private collectiveLine(t: string[], no: number): void {
    if (t[2] === 'concluded:') {
      if (this.run) this.run.concluded = true
      return
    }
    if (t[2] !== 'starting:') return
    const run = this.banner(1, no)
    run.program = t[3]
    const c = collectiveInText(t[3] ?? '', COLLECTIVES)
    if (c !== undefined) this.name(run, c, 'banner', no)
  }

  /** The text names the collective: it wins over an assumed one (a different --collective is warned about). */
  name(run: Run, c: string, from: 'banner' | 'command', no: number): void {
    if (run.collectiveFrom === 'option' && run.collective !== c)
      this.diags.add(no, 'warn', 'collective-mismatch', `the text names ${c}, not ${run.collective} (--collective)`)
    run.collective = c
    run.collectiveFrom = from
  }

  footerLine(no: number, which: 'oob' | 'avg', t: string[]): void {
    const v = parseFooterValue(t)
    if (!v) return
    const run = this.runFor(no, (r) => r[which] !== undefined)
    run[which] = v
    run.lastLine = no
  }

  protected finish(): void {
    this.settleBroken()
    if (this.run) this.close(this.run)
    this.run = undefined
    if (this.naCells > 0)
      this.diags.add(
        this.naFirst,
        'info',
        'na-cell',
        `${this.naCells} N/A cells (check disabled, or alltoall in-place): no rows for them`,
      )
    if (this.runCount === 0)
      this.diags.add(this.lastLine, 'warn', 'no-results', 'no nccl-tests banner, table or footer found')
  }

  protected fileMeta(): Record<string, unknown> {
    return fileMeta(this.file, this.runMetas, this.runCount, this.collectives, RUNS_KEPT)
  }
}

/** The nccl-tests text parser. */
export const ncclTestsText: Parser = {
  id: 'nccl-tests-text',
  description: 'nccl-tests *_perf text output (v1.0 … v2.19; mpirun/srun logs, tails, aborted runs)',
  kind: 'measurement',
  detect: detectNcclText,
  open: (origin, emit) => new NcclTextParser(origin, emit),
}
