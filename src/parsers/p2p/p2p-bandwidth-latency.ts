/**
 * Parser of cuda-samples p2pBandwidthLatencyTest output (real outputs, with their sources,
 * under test/fixtures/p2pBandwidthLatencyTest).
 *
 * Rows: `p2p.bw_uni` / `p2p.bw_bi` (bandwidth, B/s) and `p2p.latency` (latency, s; timer
 * `gpu` or `cpu` for the two matrices of each latency section). `src`/`dst` follow the data:
 * for writes, the disabled and the bidirectional matrices row i → column j; for "(P2P Reads)"
 * matrices device i (row) pulls from j (column), so src = column, dst = row. Off-diagonal
 * P2P=Enabled rows carry `peerAccess`: false means the pair could not use P2P and the tool
 * silently copied through host memory.
 */

import type { Row } from '../../model/index.ts'
import { SIM_MARKER } from '../../model/index.ts'
import { cleanLine, GuardedLineParser, intToken, scaled, tokens } from '../_matrix-common.ts'
import type { Origin, Parser } from '../types.ts'
import type { P2pMatrixMeta } from './_p2p-run.ts'
import { P2P_MAX_DEVICES, P2pRun } from './_p2p-run.ts'
import type { P2pOptions, P2pSection } from './_p2p-sections.ts'
import { accessOf, deviceOf, headerOf, optionsOf, P2P_BANNER, P2P_FOOTER, sectionOf } from './_p2p-sections.ts'

const NO_OPTIONS: P2pOptions = { p2pRead: false, smCopy: false, numElems: null, commandLine: null }
/** Bytes per element of the tool's copies (it copies `int`s). */
const INT_BYTES = 4
/** Runs whose meta is kept in full; later ones are only counted. */
const MAX_RUN_METAS = 64

/** The section being read: a matrix title (or the connectivity matrix) and its current header. */
interface OpenSection {
  spec: P2pSection | 'connectivity'
  cols: number[] | null
  timer: 'gpu' | 'cpu' | null
  matrix: P2pMatrixMeta | null
}

class P2pLineParser extends GuardedLineParser {
  /** The first MAX_RUN_METAS + 1 runs (later ones are only counted, so memory stays flat). */
  private readonly runs: P2pRun[] = []
  private runCount = 0
  private run: P2pRun | null = null
  private open: OpenSection | null = null
  private pending: P2pOptions = NO_OPTIONS
  private readonly cudaLines: string[] = []
  private simulated = false

  constructor(origin: Origin, emit: (row: Row) => void) {
    super(origin, emit, 'p2pBandwidthLatencyTest')
  }

  protected read(raw: string, no: number): void {
    const t = cleanLine(raw).trim()
    const o = this.open
    if (t === '') {
      if (o && o.spec === 'connectivity') this.close(no)
      else if (o) o.cols = null // the blank line between the GPU and CPU latency matrices
      return
    }
    const c = t.charCodeAt(0)
    if (o?.cols && c >= 48 && c <= 57) return this.matrixRow(o, o.cols, t, no)
    if (t === P2P_BANNER || t.startsWith('[P2P (Peer-to-Peer)')) return this.startRun(no)
    const spec = sectionOf(t)
    if (spec) return this.openSection(spec, no)
    if (t === 'P2P Connectivity Matrix') return this.openSection('connectivity', no)
    const h = headerOf(t)
    if (h) return this.header(h.corner, h.cols, no)
    if (this.deviceLine(t, no)) return
    this.other(t, no)
  }

  private deviceLine(t: string, no: number): boolean {
    if (!t.startsWith('Device')) return false
    const a = accessOf(t)
    if (a) {
      if (a.from < P2P_MAX_DEVICES && a.to < P2P_MAX_DEVICES) this.ensureRun(no).setAccess(a.from, a.to, a.can)
      return true
    }
    const d = deviceOf(t)
    if (!d) return false
    if (d.index < P2P_MAX_DEVICES) this.ensureRun(no).devices.push(d)
    return true
  }

  private other(t: string, no: number): void {
    if (t.startsWith(P2P_FOOTER)) {
      this.close(no)
      if (this.run) this.run.footer = true
      return
    }
    if (t.startsWith('Cuda failure')) {
      this.close(no)
      this.ensureRun(no).failures++
      this.diags.add(no, 'error', 'cuda-failure', `p2pBandwidthLatencyTest stopped: ${t}`)
      return
    }
    if (t === SIM_MARKER || t.startsWith(SIM_MARKER)) this.simulated = true
    const opts = optionsOf(t)
    if (opts) this.pending = opts
    else if (this.cudaLines.length < 16 && cudaVersionLine(t)) this.cudaLines.push(t)
  }

  private ensureRun(no: number): P2pRun {
    if (this.run) return this.run
    return this.newRun(no)
  }

  private newRun(no: number): P2pRun {
    const run = new P2pRun(this.runCount++, no, this.pending)
    this.pending = NO_OPTIONS
    if (this.runs.length <= MAX_RUN_METAS) this.runs.push(run)
    this.run = run
    return run
  }

  private startRun(no: number): void {
    this.finishRun(no - 1)
    this.newRun(no)
  }

  private finishRun(no: number): void {
    this.close(no)
    if (this.run) this.run.check(this.diags, Math.max(no, 1))
    this.run = null
  }

  private openSection(spec: OpenSection['spec'], no: number): void {
    this.close(no)
    this.ensureRun(no)
    this.open = { spec, cols: null, timer: null, matrix: null }
  }

  /** Ends the open section, reporting a matrix that has fewer rows than columns. */
  private close(no: number): void {
    this.checkRows(this.open?.matrix, no)
    this.open = null
  }

  private checkRows(m: P2pMatrixMeta | null | undefined, no: number): void {
    if (m && m.rows < m.columns) {
      this.diags.add(
        no,
        'warn',
        'incomplete',
        `matrix "${m.title}"${m.timer ? ` (${m.timer.toUpperCase()})` : ''} from line ` +
          `${m.line} has ${m.rows} of ${m.columns} rows`,
      )
    }
  }

  private header(corner: 'D\\D' | 'GPU' | 'CPU', cols: number[], no: number): void {
    const o = this.open
    if (!o) {
      this.diags.add(no, 'warn', 'orphan-matrix', 'matrix header without a title before it; its rows are skipped')
      return
    }
    this.checkRows(o.matrix, no)
    o.cols = cols
    o.timer = corner === 'GPU' ? 'gpu' : corner === 'CPU' ? 'cpu' : null
    if (o.spec === 'connectivity') return
    const s = o.spec
    o.matrix = {
      title: s.title,
      bench: s.bench,
      p2p: s.p2p,
      direction: s.direction ?? null,
      timer: s.metric === 'latency' ? o.timer : null,
      line: no,
      columns: cols.length,
      rows: 0,
    }
    this.run?.matrices.push(o.matrix)
  }

  private matrixRow(o: OpenSection, cols: number[], t: string, no: number): void {
    const tk = tokens(t)
    const label = intToken(tk[0])
    if (label === undefined || label >= P2P_MAX_DEVICES) {
      this.diags.add(no, 'warn', 'bad-row', `not a matrix row: ${t.slice(0, 80)}`)
      return
    }
    let n = tk.length - 1
    if (n > cols.length)
      this.diags.add(
        no,
        'warn',
        'long-row',
        `row ${label} has ${n} cells for ${cols.length} columns; extra cells ignored`,
      )
    if (n < cols.length) {
      this.diags.add(
        no,
        'warn',
        'short-row',
        `row ${label} has ${n} of ${cols.length} cells; its last cell may be cut and is skipped`,
      )
      n = Math.max(0, n - 1)
    }
    n = Math.min(n, cols.length)
    if (o.spec === 'connectivity') return this.connectivityRow(label, cols, tk, n)
    if (o.matrix) o.matrix.rows++
    for (let k = 0; k < n; k++) this.cell(o.spec, o.timer, label, cols[k] as number, tk[k + 1] as string, no)
  }

  private connectivityRow(label: number, cols: number[], tk: string[], n: number): void {
    const run = this.ensureRun(this.lastLine)
    const row = (run.conn[label] ??= [])
    for (let k = 0; k < n; k++) {
      const v = intToken(tk[k + 1])
      const col = cols[k] as number
      if (v !== undefined && col < P2P_MAX_DEVICES) row[col] = v
    }
  }

  private cell(spec: P2pSection, timer: 'gpu' | 'cpu' | null, i: number, j: number, text: string, no: number): void {
    const value = scaled(text, spec.exp)
    if (value === undefined) {
      this.diags.add(no, 'warn', 'bad-cell', `cell (${i}, ${j}) of "${spec.title}" is "${text}", not a number; no row`)
      return
    }
    const run = this.run
    const read = spec.direction === 'read'
    const row: Row = {
      bench: spec.bench,
      metric: spec.metric,
      unit: spec.unit,
      value,
      sizeBytes: spec.metric === 'bandwidth' && run?.options.numElems ? run.options.numElems * INT_BYTES : null,
      ranks: null,
      src: read ? j : i,
      dst: read ? i : j,
      placement: null,
      p2p: spec.p2p,
      timer: spec.metric === 'latency' ? timer : null,
      trial: (this.origin.trial ?? 0) + (run?.index ?? 0),
      source: { file: this.origin.file, line: no },
    }
    const access = spec.p2p === 'enabled' && i !== j ? run?.access(i, j) : undefined
    row.copy = run?.options.smCopy && spec.p2p === 'enabled' && i !== j && access !== false ? 'sm' : 'ce'
    if (spec.direction) row.direction = spec.direction
    if (access !== undefined) row.peerAccess = access
    this.emit(row)
  }

  protected finish(): void {
    this.finishRun(this.lastLine)
    if (this.runCount === 0)
      this.diags.add(Math.max(this.lastLine, 1), 'warn', 'no-data', 'no p2pBandwidthLatencyTest output found')
  }

  protected fileMeta(): Record<string, unknown> {
    const [first, ...rest] = this.runs
    return {
      tool: 'p2pBandwidthLatencyTest',
      ...(this.simulated ? { simulated: true } : {}),
      ...(first ? first.meta() : {}),
      orientation:
        'src/dst follow the data: row→column for writes, disabled and bidirectional matrices; ' +
        'column→row for "(P2P Reads)"',
      cudaVersionLines: this.cudaLines,
      runs: this.runCount,
      ...(rest.length ? { otherRuns: rest.map((r) => r.meta()) } : {}),
    }
  }
}

/** `CUDA … Version …` (two searches, not `CUDA.*Version`, which is quadratic on a line full of "CUDA"). */
function cudaVersionLine(t: string): boolean {
  const at = t.search(/\bCUDA\b/i)
  return at >= 0 && /\bVersion\b/i.test(t.slice(at))
}

/** Confidence that `head` is p2pBandwidthLatencyTest output. */
function detect(head: string): number {
  if (head.includes(P2P_BANNER)) return 0.95
  if (/(?:Unidirectional|Bidirectional) P2P=(?:Enabled|Disabled) Bandwidth|P2P=(?:Enabled|Disabled) Latency/.test(head))
    return 0.85
  if (/Device=\d+ (?:CAN|CANNOT) Access Peer Device=\d+/.test(head)) return 0.7
  return 0
}

/** cuda-samples p2pBandwidthLatencyTest text (any version, tabs or spaces, with or without `--p2p_read`). */
export const p2pBandwidthLatencyParser: Parser = {
  id: 'p2pBandwidthLatencyTest',
  description: 'cuda-samples p2pBandwidthLatencyTest: P2P bandwidth and latency matrices between every GPU pair',
  kind: 'measurement',
  detect,
  open: (origin, emit) => new P2pLineParser(origin, emit),
}
