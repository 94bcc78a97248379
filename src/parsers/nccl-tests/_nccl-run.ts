/**
 * One nccl-tests run inside a text file (banner, devices, one table, footer): what it
 * says about itself, and the rows it turns into. Rows wait in `pending` while the
 * collective or the rank count is still unknown (headerless log tails), and while the rank
 * count rests on rank lines alone (the table's widest row may show the list was cut short).
 */
import type { Diagnostic, Row } from '../../model/index.ts'
import type { CellPlace } from './_nccl-cell.ts'
import { cellRow } from './_nccl-cell.ts'
import type { RowEvidence } from './_nccl-collective.ts'
import { CollectiveEvidence, factorOf, factorRange } from './_nccl-collective.ts'
import type { LaunchFacts } from './_nccl-command.ts'
import type { Device } from './_nccl-meta.ts'
import type { NamedFrom } from './_nccl-naming.ts'
import type { Block, Layout, ParsedRow } from './_nccl-row.ts'
import { runEndNotes } from './_nccl-run-end.ts'
import { runMeta } from './_nccl-run-meta.ts'
import { requestedSize } from './_nccl-sizes.ts'
import { isUInt, num } from './_nccl-tokens.ts'

/** Rows held back at most while the collective/ranks are undecided; then they go out as known. */
const PENDING_CAP = 20_000

/** Shared per-file sink of a run: where rows and diagnostics go. */
export interface RunSink {
  file: string
  trial: number
  emit: (row: Row) => void
  diag: (line: number, severity: Diagnostic['severity'], code: string, message: string) => void
  /** Counts an N/A cell (no row) at `line`. */
  na: (line: number) => void
}

/** State and output of one run. */
export class Run {
  /** 0 version line, 1 "Collective test starting", 2 nThread banner; -1 none yet. */
  bannerOrder = -1
  collective: string | undefined
  collectiveFrom: 'banner' | 'command' | 'rows' | NamedFrom | undefined
  program: string | undefined
  info: Record<string, unknown> = {}
  params: Record<string, number | string> | undefined
  modes: string[] = []
  devices: Device[] = []
  layout: Layout | undefined
  headerSeen = false
  /** Seconds per printed time unit (µs; ms for v1.0). */
  timeExp = -6
  timeLabel = 'time'
  tableRows = 0
  emitted = 0
  oob: { value: number; status?: string } | undefined
  avg: { value: number; status?: string } | undefined
  concluded = false
  nranksInfo: number | undefined
  maxDeviation: number | undefined
  wrongElements = 0
  lastLine: number
  /** What the command line that started this run says (ranks, hosts, NCCL settings). */
  launch: LaunchFacts | undefined
  /** The out-of-place cells of the row with the largest algbw (the most precise busbw/algbw). */
  private widest: { alg: string; bus: string } | undefined
  private oldEra = false
  private evidence: CollectiveEvidence | undefined
  private pending: { row: ParsedRow; line: number }[] = []
  private ranksCache: number | undefined | null = null
  private gaveUp = false
  /** The bench name once the collective is settled (rows no longer held). */
  private bench: string | undefined
  /** Index of the next row in the banner's size sequence (see requestedSize); -1 once a row did not fit it. */
  private sizeIndex = 0
  /** The requested size of the row being emitted, where it differs from the printed one. */
  private requestedNow: number | undefined
  /** Rows printing size 0, and whether they were keyed by their requested size. */
  private zeroSized = { rows: 0, requested: 0 }

  constructor(
    readonly startLine: number,
    private readonly sink: RunSink,
  ) {
    this.lastLine = startLine
  }

  /** True once the footer was printed. */
  get footer(): boolean {
    return this.oob !== undefined || this.avg !== undefined
  }

  /** True once the run got past its banner lines (devices, header or rows). */
  get started(): boolean {
    return this.devices.length > 0 || this.headerSeen || this.tableRows > 0 || this.footer
  }

  /** Adds a "Using devices" line. */
  addDevice(d: Device): void {
    this.devices.push(d)
    this.ranksCache = null
  }

  /** Rank count from the rank lines (the group of rank 0 when NCCL_TESTS_SPLIT made several). */
  get ranksFromLines(): number | undefined {
    if (this.ranksCache !== null) return this.ranksCache
    if (this.devices.length === 0) return undefined
    const g0 = this.devices.find((d) => d.rank === 0)?.group ?? this.devices[0]?.group
    const ranks = new Set(this.devices.filter((d) => d.group === g0).map((d) => d.rank))
    this.ranksCache = ranks.size
    return ranks.size
  }

  /**
   * Ranks of the rows and where the number came from. Rank lines can be cut short (authors trim
   * long lists): a command line that launches more ranks than the one group listed wins, then a
   * busbw/algbw factor that the listed count does not fit (see `factorRanks`).
   */
  ranks(): { n: number | undefined; from: string | undefined } {
    const l = this.ranksFromLines
    const cmd = this.launch?.ranks
    const oneGroup = new Set(this.devices.map((d) => d.group ?? 0)).size === 1
    if (cmd !== undefined && l !== undefined && cmd > l && oneGroup) return { n: cmd, from: 'command-line' }
    if (l !== undefined) {
      const f = this.factorRanks(l)
      return f ? { n: f.n, from: 'busbw/algbw' } : { n: l, from: 'rank-lines' }
    }
    if (this.nranksInfo !== undefined) return { n: this.nranksInfo, from: 'nccl-info' }
    if (cmd !== undefined) return { n: cmd, from: 'command-line' }
    const inf = this.evidence?.nInferred
    return inf !== undefined ? { n: inf, from: 'inferred' } : { n: undefined, from: undefined }
  }

  /**
   * The rank count the widest row's busbw/algbw gives when the `listed` count does not fit it and
   * it needs more ranks: the one n that fits, or the one power of two in the range that fits
   * (the printed cells' two decimals cannot tell 1,000 from 1,024 ranks); undefined otherwise.
   */
  factorRanks(listed: number): { n: number; range: [number, number] } | undefined {
    const w = this.widest
    const coll = this.collective ?? this.evidence?.resolved
    if (!w || coll === undefined || this.oldEra) return undefined
    const range = factorRange(factorOf(coll), w.alg, w.bus)
    if (!range || range[0] <= listed) return undefined
    if (range[0] === range[1]) return { n: range[0], range }
    const pow2: number[] = []
    for (let p = 2; p <= Math.min(range[1], 1 << 24); p *= 2) if (p >= range[0]) pow2.push(p)
    return pow2.length === 1 ? { n: pow2[0] as number, range } : undefined
  }

  /** Adds a parsed table row: emitted now when the collective and ranks are known, else held. */
  addRow(row: ParsedRow, line: number): void {
    this.tableRows++
    this.lastLine = line
    const b0 = row.blocks[0]
    const b1 = row.blocks[1]
    if (!b0) return
    if (row.layout.wrongKind === 'deviation') this.oldEra = true
    if (b0.algbw !== undefined && b0.busbw !== undefined && !(Number(b0.algbw) <= Number(this.widest?.alg ?? -1)))
      this.widest = { alg: b0.algbw, bus: b0.busbw }
    const known = this.ranksFromLines ?? this.nranksInfo
    const ev = (this.evidence ??= new CollectiveEvidence(row.layout.wrongKind === 'deviation'))
    if (this.collective === undefined && ev.resolved === undefined) {
      const e: RowEvidence = {
        size: row.size,
        count: row.count,
        type: row.type,
        hasRedop: row.layout.hasRedop,
        hasRoot: row.layout.hasRoot,
        algbw: b0.algbw,
        busbw: b0.busbw,
        wrongOut: b0.wrong,
      }
      if (b1) e.wrongIn = b1.wrong
      if (row.redop !== undefined) e.redop = row.redop
      if (row.root !== undefined) e.root = row.root
      ev.add(e, known)
    }
    const coll = this.collective ?? ev.resolved
    if (coll !== undefined && known === undefined) ev.inferRanks(coll, b0.algbw, b0.busbw)
    if (this.pending.length === 0 && this.ready()) this.emitRow(row, line)
    else {
      this.pending.push({ row, line })
      if (this.ready() || this.pending.length >= PENDING_CAP) this.flush(this.pending.length >= PENDING_CAP)
    }
  }

  private ready(): boolean {
    if (this.gaveUp) return true
    const r = this.ranks()
    // Counted from rank lines the command line does not confirm: held to the end of the table,
    // whose widest rows may show the list was cut short.
    if (r.from === 'rank-lines' && this.launch?.ranks !== r.n) return false
    return (this.collective ?? this.evidence?.resolved) !== undefined && r.n !== undefined
  }

  /** Emits held rows with what is known now; `giveUp` stops waiting for more evidence. */
  flush(giveUp = true): void {
    if (giveUp) this.gaveUp = true
    const held = this.pending
    this.pending = []
    for (const p of held) this.emitRow(p.row, p.line)
  }

  /** The collective's name, `unknown` when neither the text nor the rows tell. */
  collectiveName(): string {
    if (this.collective !== undefined) return this.collective
    const r = this.evidence?.resolved
    if (r !== undefined) {
      this.collective = r
      this.collectiveFrom = 'rows'
      return r
    }
    return 'unknown'
  }

  private emitRow(row: ParsedRow, line: number): void {
    const bench = this.bench ?? `nccl.${this.collectiveName()}`
    const ranks = this.ranks().n ?? null
    const req = this.sizeIndex < 0 ? undefined : requestedSize(this.params, this.sizeIndex, row.size, ranks)
    this.sizeIndex = req === undefined ? -1 : this.sizeIndex + 1
    this.requestedNow = req !== undefined && req !== row.size ? req : undefined
    if (row.size === 0) {
      this.zeroSized.rows++
      if (req !== undefined) this.zeroSized.requested++
    }
    if (this.pending.length === 0 && this.ready()) this.bench = bench
    const source = { file: this.sink.file, line }
    for (let b = 0; b < row.blocks.length; b++) {
      const blk = row.blocks[b] as Block
      const placement = b === 0 && !row.inPlaceOnly ? 'out-of-place' : 'in-place'
      const where = {
        row,
        bench,
        ranks,
        placement,
        source,
        trial: this.sink.trial,
        requested: this.requestedNow,
      } as const
      this.cell(where, blk.time, 'time', 's', this.timeExp)
      this.cell(where, blk.algbw, 'algbw', 'B/s', 9)
      this.cell(where, blk.busbw, 'busbw', 'B/s', 9)
      const w = blk.wrong
      const kind = row.layout.wrongKind
      if (w === 'N/A') this.sink.na(line)
      else if (kind === 'count' || (kind === 'unknown' && isUInt(w))) {
        this.wrongElements += num(w)
        this.cell(where, w, 'wrong', 'count', 0)
      } else {
        const v = Math.abs(num(w))
        if (!(this.maxDeviation !== undefined && this.maxDeviation >= v)) this.maxDeviation = v
      }
    }
  }

  private cell(where: CellPlace, tok: string, metric: Row['metric'], unit: Row['unit'], exp: number): void {
    if (tok === 'N/A') return this.sink.na(where.source.line)
    const r = cellRow(where, tok, metric, unit, exp)
    if (r === undefined) {
      const why = `cell "${tok.slice(0, 40)}" is not a usable number; no row for it`
      return this.sink.diag(where.source.line, 'warn', 'bad-cell', why)
    }
    this.emitted++
    this.sink.emit(r)
  }

  /** Ends the run at `line`: flushes held rows and reports what is missing. */
  finish(): void {
    this.flush()
    const hidden = { candidates: this.evidence?.candidates, zeroSized: this.zeroSized, widest: this.widest }
    runEndNotes(this, hidden, this.sink.diag)
  }

  /** What the run says about itself (meta of one run). */
  meta(): Record<string, unknown> {
    return runMeta(this)
  }
}
