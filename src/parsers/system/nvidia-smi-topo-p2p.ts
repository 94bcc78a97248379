/**
 * `nvidia-smi topo -p2p r|w|n|a|p`: the P2P status of every GPU pair for one capability
 * (OK, CNS, GNS, TNS, NS, DR, U). A topology parser: no rows; `meta.topology` holds it.
 */
import type { Diagnostic } from '../../model/index.ts'
import { splitLines } from '../_text.ts'
import type { LineParser, Origin, Parser } from '../types.ts'
import type { MatrixHeader, MatrixRow } from './_topo-matrix.ts'
import {
  countValidCells,
  diag,
  eachPairCell,
  findHeader,
  MatrixReader,
  matrixEndError,
  missingRowWarning,
  replacePair,
  splitMatrixRow,
  stripAnsi,
} from './_topo-matrix.ts'

/** P2P status values (NVML nvmlGpuP2PStatus) and X for self. */
const P2P_STATUSES = ['OK', 'CNS', 'GNS', 'TNS', 'NS', 'DR', 'U'] as const

/**
 * The capability a `-p2p` matrix describes, named as in the `--json` output; `unknown` when
 * neither the command line in the text nor the file name says which.
 */
export type P2PCapability = 'read' | 'write' | 'nvlink' | 'atomics' | 'pci' | 'unknown'

const CAPS: Record<string, P2PCapability> = { r: 'read', w: 'write', n: 'nvlink', a: 'atomics', p: 'pci' }

/** One off-diagonal cell: status of GPU `a` (row) towards GPU `b` (column). */
export interface P2PCell {
  a: string
  b: string
  status: string
  line: number
}

/** What `nvidia-smi topo -p2p <cap>` said, as put in `meta.topology`. */
export interface P2PMatrix {
  format: 'nvidia-smi topo -p2p'
  /** `unknown` when neither the command line in the text nor the file name tells. */
  capability?: P2PCapability
  /** Where the capability was read: `command line:N`, `file name` or `not stated`. */
  capabilityFrom?: string
  devices: string[]
  cells: P2PCell[]
  legend: boolean
}

const isStatus = (c: string): boolean => c === 'X' || (P2P_STATUSES as readonly string[]).includes(c)
const COMMAND = /nvidia-smi\s+topo\s+-p2p\s+([rwnap])\b/

/** The capability a file name states, e.g. `nvidia-smi-topo-p2p-r.txt` or `p2p_read.txt`. */
function capabilityFromName(file: string): P2PCapability | undefined {
  const base = file.split(/[\\/]/).pop() ?? ''
  const m = /p2p[-_.]?(read|write|nvlink|atomics|pci|[rwnap])(?![a-z])/i.exec(base)
  if (!m) return undefined
  const k = (m[1] as string).toLowerCase()
  return k.length === 1 ? CAPS[k] : (k as P2PCapability)
}

class P2PParser implements LineParser {
  private readonly m = new MatrixReader()
  private readonly t: P2PMatrix = { format: 'nvidia-smi topo -p2p', devices: [], cells: [], legend: false }
  private readonly diagnostics: Diagnostic[] = []
  private readonly rows = new Set<string>()
  private last = 0
  constructor(private readonly file: string) {}

  line(text: string, lineNo: number): void {
    this.last = lineNo
    const s = stripAnsi(text)
    const r = this.m.read(s)
    if (r === 'before' || r === 'header') {
      const c = COMMAND.exec(s)
      if (c) [this.t.capability, this.t.capabilityFrom] = [CAPS[c[1] as string], `command line:${lineNo}`]
      if (r === 'header') this.t.devices = (this.m.header as MatrixHeader).devices
      return
    }
    if (typeof r !== 'string') return this.row(r, lineNo)
    if (/^\s*Legend:\s*$/.test(s)) this.t.legend = true
  }

  private row(row: MatrixRow, lineNo: number): void {
    const devices = (this.m.header as MatrixHeader).devices
    const n = devices.length
    const ok = countValidCells(row.fields, n, isStatus)
    if (ok < n) {
      const bad = row.fields[ok]
      const why = bad === undefined || bad === '' ? 'a missing column?' : `unexpected ${JSON.stringify(bad)}`
      this.diagnostics.push(
        diag(
          this.file,
          lineNo,
          'error',
          'short-row',
          `row ${row.label}: ${n} status cells expected, found ${ok} (${why}); row skipped`,
        ),
      )
      return
    }
    this.rows.add(row.label)
    eachPairCell(row, devices, { file: this.file, line: lineNo, diagnostics: this.diagnostics }, (b, cell) => {
      this.t.cells = replacePair(this.t.cells, { a: row.label, b, status: cell, line: lineNo })
    })
  }

  end(): { meta: Record<string, unknown>; diagnostics: Diagnostic[] } {
    const line = Math.max(1, this.last)
    const header = this.m.header
    const error = matrixEndError(this.file, line, header, this.rows.size, 'topo -p2p')
    if (error || !header) {
      if (error) this.diagnostics.push(error)
      return { meta: {}, diagnostics: this.diagnostics }
    }
    if (!this.t.capability) {
      const c = capabilityFromName(this.file)
      if (c) [this.t.capability, this.t.capabilityFrom] = [c, 'file name']
      else {
        // The statuses are kept: any non-OK one says P2P is unavailable for something.
        ;[this.t.capability, this.t.capabilityFrom] = ['unknown', 'not stated']
        this.diagnostics.push(
          diag(
            this.file,
            1,
            'warn',
            'capability-unknown',
            'which capability (r, w, n, a, p) this -p2p matrix shows is not stated; its statuses are ' +
              'kept under "unknown" (name the file e.g. topo-p2p-r.txt or keep the command line)',
          ),
        )
      }
    }
    const missing = missingRowWarning(this.file, line, header.devices, this.rows)
    if (missing) this.diagnostics.push(missing)
    return { meta: { topology: this.t }, diagnostics: this.diagnostics }
  }
}

/** Confidence that a text head is `nvidia-smi topo -p2p` output. */
function detect(head: string): number {
  const lines = splitLines(head.slice(0, 16384)).map(stripAnsi)
  const found = findHeader(lines)
  if (!found || found.header.extras.length > 0) return 0
  const next = lines[found.index + 1]
  const row = next === undefined ? undefined : splitMatrixRow(next, found.header)
  const cells = (row?.fields ?? []).slice(0, found.header.devices.length)
  if (cells.length > 0 && cells.every(isStatus) && cells.some((c) => c !== 'X')) return 0.95
  const said = lines.some((l) => COMMAND.test(l) || /^\s*OK\s+=\s+Status Ok/.test(l))
  return said && cells.every(isStatus) ? 0.9 : 0
}

/** The `nvidia-smi topo -p2p` parser (topology; emits no rows). */
export const nvidiaSmiTopoP2p: Parser = {
  id: 'nvidia-smi-topo-p2p',
  description: 'nvidia-smi topo -p2p r|w|n|a|p: P2P status of every GPU pair for one capability',
  kind: 'topology',
  detect,
  open: (origin: Origin) => new P2PParser(origin.file),
}
