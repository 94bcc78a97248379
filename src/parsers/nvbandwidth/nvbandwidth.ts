/**
 * Parser of nvbandwidth plain-text output, v0.4 to v0.10 (real outputs, with their sources,
 * under test/fixtures/nvbandwidth).
 *
 * Rows: bench `nvbw.<key>` where key is the testcase (or, for the three matrices of a
 * bidirectional device-to-device test, the part key the SUM line names: `…_read1`,
 * `…_read2`, `…_total`); metric `bandwidth` (B/s) or `latency` (s, from ns). src/dst follow
 * the data (see _nvbw-testcases.ts); the host end is null. N/A cells yield no row and are
 * counted in one `na-cell` diagnostic per matrix.
 */
import type { Row } from '../../model/index.ts'
import { cleanLine, GuardedLineParser, intToken, tokens } from '../_matrix-common.ts'
import { SRUN_LABEL } from '../_text.ts'
import type { Origin, Parser } from '../types.ts'
import type { NvbwMatrix } from './_nvbw-emit.ts'
import { emitRecorded, partSuffix } from './_nvbw-emit.ts'
import type { NvbwMeta, NvbwTestcaseMeta } from './_nvbw-meta.ts'
import { commandBufferMiB, emptyMeta, NVBW_META_CAP, noteRunLine } from './_nvbw-meta.ts'
import { bufferSize, cudaVersionNumber, deviceLine } from './_nvbw-testcases.ts'

/** The matrix being read: waiting for its header, reading rows, or done (waiting for SUM). */
interface OpenMatrix extends NvbwMatrix {
  state: 'header' | 'rows' | 'done'
  sumKey: string | null
}

// Linear: a digit run matches one way only (see _matrix-common.ts's DECIMAL).
const CELL = /^(?:N\/A|[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|-?nan|-?inf)$/i
const SUMMARY = /^(SUM|COEFFICIENT_OF_VARIATION|MIN|MAX|AVG)\s+(\S+)\s+(\S+)$/
const PERF = /^&&&& PERF\s+(\S+)\s+(\S+)\s*(\S*)$/

class NvbwTextParser extends GuardedLineParser {
  private readonly meta: NvbwMeta = emptyMeta('text')
  private tc: NvbwTestcaseMeta | null = null
  private mx: OpenMatrix | null = null
  private smallBuffer = false
  /** The last unrecognized line, if it came right before this one (blank lines aside): a hostname candidate. */
  private lastOther: string | null = null

  constructor(origin: Origin, emit: (row: Row) => void) {
    super(origin, emit, 'nvbandwidth')
  }

  protected read(raw: string, no: number): void {
    const t = cleanLine(raw).trim()
    if (t === '') return this.blank()
    const other = this.lastOther
    this.lastOther = null
    if (this.matrixLine(t, no)) return
    if (this.bannerLine(t, other)) return
    if (this.statusLine(t, no)) return
    if (this.corrupt(t, no)) return
    this.otherLine(t)
  }

  private blank(): void {
    const m = this.mx
    if (m && m.state === 'rows' && m.rows.length > 0) m.state = 'done'
  }

  /** Header and rows of the open matrix, or a description line that opens one. */
  private matrixLine(t: string, no: number): boolean {
    const m = this.mx
    if (m && m.state === 'header') {
      m.cols = tokens(t).map((x, i) => intToken(x) ?? i)
      m.state = 'rows'
      return true
    }
    if (m && m.state === 'rows') {
      const tk = tokens(t)
      const label = intToken(tk[0])
      if (label !== undefined && tk.length > 1 && tk.slice(1).every((x) => CELL.test(x))) {
        if (tk.length - 1 !== m.cols.length)
          this.diags.add(
            no,
            'warn',
            'short-row',
            `${m.testcase}: row ${label} has ${tk.length - 1} cells for ${m.cols.length} columns`,
          )
        const cells = tk.length - 1 < m.cols.length ? tk.slice(1, -1) : tk.slice(1) // a short row's last cell may be cut
        m.rows.push({ row: label, cells, lines: cells.map(() => no) })
        return true
      }
      const bad = label !== undefined && tk.length === m.cols.length + 1 ? tk.find((x) => !CELL.test(x)) : undefined
      if (bad !== undefined) {
        const shown = bad.length > 24 ? `${bad.slice(0, 12)}…${bad.slice(-6)} (${bad.length} characters)` : bad
        this.diags.add(no, 'warn', 'bad-cell', `${m.testcase}: row ${label}: "${shown}" is not a number; row skipped`)
        return true
      }
    }
    if (/\((?:GB\/s|ns)\)$/.test(t) && /\((?:row|column)\)/.test(t)) {
      this.flush()
      const testcase = this.tc?.name ?? 'unknown'
      this.mx = { testcase, key: testcase, description: t, cols: [], rows: [], line: no, state: 'header', sumKey: null }
      return true
    }
    return false
  }

  /** Version, CUDA and driver versions, devices, hostname. */
  private bannerLine(t: string, other: string | null): boolean {
    const meta = this.meta
    let m: RegExpExecArray | null
    if ((m = /^nvbandwidth Version:\s*(\S+)/.exec(t))) {
      this.flush()
      meta.runs++
      meta.version ??= m[1] as string
      this.tc = null
    } else if ((m = /^Built from Git version:\s*(.*)$/.exec(t))) meta.gitVersion ??= m[1] as string
    else if ((m = /^MPI version:\s*(.*)$/.exec(t))) meta.mpiVersion ??= m[1] as string
    else if ((m = /^CUDA Runtime Version:\s*(.*)$/.exec(t)))
      meta.cudaRuntimeVersion ??= cudaVersionNumber(m[1] as string)
    else if ((m = /^CUDA Driver Version(?: \(API\))?:\s*(.*)$/.exec(t)))
      meta.cudaDriverVersion ??= cudaVersionNumber(m[1] as string)
    else if ((m = /^Driver Version:\s*(\S+)/.exec(t))) meta.driverVersion ??= m[1] as string
    else {
      const d = deviceLine(t)
      if (!d) return false
      if (d.index === 0 && meta.devices.length === 0 && other && /^[\w.-]+$/.test(other)) meta.hostname = other
      if (meta.devices.length < NVBW_META_CAP && !meta.devices.some((x) => x.index === d.index)) meta.devices.push(d)
    }
    return true
  }

  /** Running / Waived / errors / summaries / NOTE. */
  private statusLine(t: string, no: number): boolean {
    let m: RegExpExecArray | null
    if ((m = /^Running (?:benchmark )?(\S+?)\.?$/.exec(t))) {
      this.flush()
      this.tc = { name: m[1] as string, status: 'running', line: no, matrices: [] }
      if (this.meta.testcases.length < NVBW_META_CAP) this.meta.testcases.push(this.tc)
    } else if ((m = SUMMARY.exec(t)) || (m = PERF.exec(t))) {
      this.summary(m, t.startsWith('&&&&') ? 'PERF' : (m[1] as string), no)
    } else if ((m = /^(?:Waived:|Waiving)\s*(.*?)\.?$/.exec(t))) {
      const name = t.startsWith('Waiving') && m[1] ? (m[1] as string) : null
      if (this.meta.testcases.length < NVBW_META_CAP)
        this.meta.testcases.push({ name, status: 'waived', line: no, matrices: [] })
      this.diags.add(
        no,
        'info',
        'waived',
        `nvbandwidth waived a testcase${name ? ` (${name})` : ''}: it cannot run on this system`,
      )
    } else if (/^(?:ERROR|Error)\b:?/.test(t)) {
      this.flush()
      if (this.tc) Object.assign(this.tc, { status: 'error', error: t })
      this.diags.add(no, 'warn', 'testcase-error', `nvbandwidth: ${t}`)
    } else if (t.startsWith('NOTE: The reported results')) {
      this.flush()
      this.meta.complete = true
    } else return false
    return true
  }

  private summary(m: RegExpExecArray, kind: string, no: number): void {
    const isPerf = kind === 'PERF'
    const key = (isPerf ? m[1] : m[2]) as string
    const value = Number(isPerf ? m[2] : m[3])
    if (!Number.isFinite(value)) return
    if ((kind === 'SUM' || isPerf) && this.mx) {
      this.mx.sumKey = key
      if (!this.tc || (this.tc.nameFrom && !key.startsWith(this.tc.name ?? ''))) this.testcaseFromSum(key, no)
      this.flush()
    }
    if (this.meta.summaries.length < NVBW_META_CAP)
      this.meta.summaries.push({ kind, key, value, ...(isPerf && m[3] ? { unit: m[3] } : {}), line: no })
  }

  /** A matrix printed without its `Running …` line (elided in a paste): the SUM line names the testcase. */
  private testcaseFromSum(key: string, no: number): void {
    const name = key.replace(/_(?:read1|read2|write1|write2|total)$/, '')
    this.tc = { name, status: 'running', line: no, matrices: [], nameFrom: 'SUM line' }
    if (this.meta.testcases.length < NVBW_META_CAP) this.meta.testcases.push(this.tc)
    this.diags.add(no, 'info', 'testcase-from-sum', `no "Running ${name}." line; the testcase is named by its SUM line`)
  }

  /** nvbandwidth's data check failing (`Invalid value when checking the pattern`, then an abort). */
  private corrupt(t: string, no: number): boolean {
    if (!/^Invalid value when checking the pattern|^Aborted\b/.test(t)) return false
    this.flush()
    const name = this.tc?.name
    if (this.tc) Object.assign(this.tc, { status: 'error', error: t })
    const what = t.startsWith('Aborted')
      ? `nvbandwidth aborted${name ? ` testcase ${name}` : ''}`
      : `nvbandwidth's data check failed${name ? ` in testcase ${name}, which was aborted` : ''}`
    this.diags.add(no, 'error', 'corrupt-run', `${what}, the run is corrupt: ${t.slice(0, 200)}`)
    return true
  }

  private otherLine(t: string): void {
    if (!noteRunLine(this.meta, t) && /buffer size that is smaller than the default/.test(t)) this.smallBuffer = true
    this.lastOther = t
  }

  /** Emits the open matrix (if it has rows) under its SUM key, or the testcase plus part. */
  private flush(): void {
    const m = this.mx
    this.mx = null
    if (!m || m.rows.length === 0) return
    m.key = m.sumKey ?? m.testcase + partSuffix(m.description)
    const ctx = {
      file: this.origin.file,
      trial: (this.origin.trial ?? 0) + Math.max(0, this.meta.runs - 1),
      sizeBytes: (latency: boolean) => this.size(latency).bytes,
      emit: this.emit,
      diags: this.diags,
    }
    emitRecorded(m, ctx, this.tc)
    if (this.tc?.status === 'running') this.tc.status = 'passed'
  }

  private size(latency: boolean): ReturnType<typeof bufferSize> {
    return bufferSize(this.meta.version, commandBufferMiB(this.meta.commandLine), latency, this.smallBuffer)
  }

  protected finish(): void {
    this.flush()
    for (const tc of this.meta.testcases) {
      if (tc.status === 'running')
        this.diags.add(tc.line, 'warn', 'incomplete', `nvbandwidth testcase ${tc.name} started but printed no matrix`)
    }
    if (this.meta.runs === 0 && this.meta.testcases.length === 0)
      this.diags.add(Math.max(1, this.lastLine), 'warn', 'no-data', 'no nvbandwidth output found')
    this.meta.bufferSize = this.size(false)
  }

  protected fileMeta(): Record<string, unknown> {
    return this.meta as unknown as Record<string, unknown>
  }
}

/** Confidence that `head` is nvbandwidth plain text. */
function detect(raw: string): number {
  const head = raw.replace(new RegExp(`^${SRUN_LABEL}`, 'gm'), '')
  if (/^nvbandwidth Version:/m.test(head)) return 0.95
  if (/^Running \w+\.\s*$/m.test(head) && /\((?:GB\/s|ns)\)\s*$/m.test(head) && /^SUM \w+ /m.test(head)) return 0.8
  return 0
}

/** nvbandwidth plain-text output (v0.4–v0.10, single node and multinode). */
export const nvbandwidthParser: Parser = {
  id: 'nvbandwidth',
  description: 'NVIDIA nvbandwidth text output: copy bandwidth and latency matrices per testcase',
  kind: 'measurement',
  detect,
  open: (origin, emit) => new NvbwTextParser(origin, emit),
}
