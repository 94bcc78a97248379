/**
 * What one p2pBandwidthLatencyTest run states about itself: devices, peer access (from the
 * CAN/CANNOT lines and the connectivity matrix), the matrices seen, options and completeness.
 */
import type { DiagSink } from '../_matrix-common.ts'
import type { P2pDevice, P2pOptions, P2pSection } from './_p2p-sections.ts'

/** One matrix seen in the text (latency sections hold two: GPU then CPU). */
export interface P2pMatrixMeta {
  title: string
  bench: P2pSection['bench']
  p2p: P2pSection['p2p']
  direction: P2pSection['direction'] | null
  timer: 'gpu' | 'cpu' | null
  /** 1-based line of the matrix header. */
  line: number
  columns: number
  rows: number
}

/** Matrices a complete stock run prints: 4 bandwidth + 2 latency sections × (GPU, CPU). */
const BASE_MATRICES = 8
/** `--p2p_read` adds one bandwidth and one latency section (GPU and CPU). */
const READ_MATRICES = 3

/** Highest device index taken from the text (a p2p run is one node; garbage must not allocate). */
export const P2P_MAX_DEVICES = 256

/** The state of one run (from one banner to the next, or to the end of the text). */
export class P2pRun {
  readonly devices: P2pDevice[] = []
  readonly matrices: P2pMatrixMeta[] = []
  /** From CAN/CANNOT lines: canAccess[i][j]. */
  private readonly lines: (boolean | undefined)[][] = []
  /** From the connectivity matrix: conn[i][j] as printed (1/0). */
  readonly conn: (number | undefined)[][] = []
  footer = false
  failures = 0
  constructor(
    readonly index: number,
    readonly line: number,
    readonly options: P2pOptions,
  ) {}

  /** Records one CAN/CANNOT line. */
  setAccess(from: number, to: number, can: boolean): void {
    ;(this.lines[from] ??= [])[to] = can
  }

  /** Whether device `i` could access device `j` as a peer; undefined when the text does not say. */
  access(i: number, j: number): boolean | undefined {
    const l = this.lines[i]?.[j]
    if (l !== undefined) return l
    const c = this.conn[i]?.[j]
    return c === undefined ? undefined : c !== 0
  }

  /**
   * Number of devices the text states something about (device, CAN/CANNOT and connectivity
   * lines; each index below P2P_MAX_DEVICES). Matrix headers do not count: one header line
   * grown to thousands of columns would make the peer-access matrix quadratic in the input.
   */
  size(): number {
    let n = Math.max(this.lines.length, this.conn.length)
    for (const d of this.devices) n = Math.max(n, d.index + 1)
    return n
  }

  /** Whether `--p2p_read` was in effect (command line, or a "(P2P Reads)" section seen). */
  readMode(): boolean {
    return this.options.p2pRead || this.matrices.some((m) => m.direction === 'read')
  }

  /** The peer-access matrix (1 = can, 0 = cannot, null = not stated; diagonal 1) and its source. */
  peerAccess(): { matrix: (number | null)[][] | null; source: 'access-lines' | 'connectivity-matrix' | null } {
    const n = this.size()
    const fromLines = this.lines.length > 0
    if (!fromLines && this.conn.length === 0) return { matrix: null, source: null }
    const matrix: (number | null)[][] = []
    for (let i = 0; i < n; i++) {
      const row: (number | null)[] = []
      for (let j = 0; j < n; j++) {
        const a = i === j ? true : this.access(i, j)
        row.push(a === undefined ? null : a ? 1 : 0)
      }
      matrix.push(row)
    }
    return { matrix, source: fromLines ? 'access-lines' : 'connectivity-matrix' }
  }

  /** Reports how the run ended: missing matrices, no final NOTE, access lines vs matrix. */
  check(diags: DiagSink, lastLine: number): void {
    this.checkConsistency(diags)
    const want = BASE_MATRICES + (this.readMode() ? READ_MATRICES : 0)
    const have = this.matrices.length
    if (have < want) {
      const how = this.footer ? '' : ' (no final NOTE line)'
      diags.add(
        lastLine,
        'warn',
        'incomplete',
        `p2pBandwidthLatencyTest run from line ${this.line} has ${have} of ${want} matrices${how}`,
      )
    } else if (!this.footer && this.failures === 0) {
      diags.add(
        lastLine,
        'info',
        'no-footer',
        `p2pBandwidthLatencyTest run from line ${this.line} has every matrix but no final NOTE line`,
      )
    }
  }

  private checkConsistency(diags: DiagSink): void {
    for (let i = 0; i < this.lines.length; i++) {
      for (let j = 0; j < (this.lines[i]?.length ?? 0); j++) {
        const l = this.lines[i]?.[j]
        const c = this.conn[i]?.[j]
        if (l === undefined || c === undefined || i === j) continue
        if (l !== (c !== 0)) {
          diags.add(
            this.line,
            'warn',
            'peer-access-mismatch',
            `Device=${i} ${l ? 'CAN' : 'CANNOT'} access Device=${j}, but the connectivity matrix says ${c}`,
          )
        }
      }
    }
  }

  /** The run's facts for ParseOutput.meta. */
  meta(): Record<string, unknown> {
    const pa = this.peerAccess()
    return {
      devices: this.devices,
      peerAccess: pa.matrix,
      peerAccessSource: pa.source,
      connectivity: this.conn.length ? Array.from(this.conn, (r) => Array.from(r ?? [], (v) => v ?? null)) : null,
      matrices: this.matrices,
      options: this.options,
      copy: this.options.smCopy ? 'sm' : 'ce',
      complete: this.footer && this.failures === 0,
      firstLine: this.line,
    }
  }
}
