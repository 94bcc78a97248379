/**
 * `nvidia-smi topo -m` (the topology matrix): link class of every device pair (NV#, PIX,
 * PXB, PHB, NODE, SYS, old SOC), CPU/NUMA/GPU-NUMA affinity of every GPU, NIC names.
 * A topology parser: it emits no rows; what it read is in `meta.topology`.
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
  gpuIndex,
  isGpuLabel,
  MatrixReader,
  matrixEndError,
  missingRowWarning,
  replacePair,
  splitMatrixRow,
  stripAnsi,
} from './_topo-matrix.ts'

/** Link classes nvidia-smi prints (NVML topology levels, plus NV# and the old SOC). */
const LINK_CLASSES = ['X', 'PIX', 'PXB', 'PHB', 'NODE', 'SYS', 'SOC'] as const

/** One GPU row's affinity columns. */
export interface TopoMGpu {
  index: number
  cpuAffinity?: string
  numa?: number | null
  gpuNumaId?: number | null
  line: number
}

/** One off-diagonal cell: the link between device `a` (row) and `b` (column). */
export interface TopoMLink {
  a: string
  b: string
  link: string
  line: number
}

/** What `nvidia-smi topo -m` said, as put in `meta.topology`. */
export interface TopoMatrix {
  format: 'nvidia-smi topo -m'
  devices: string[]
  gpus: TopoMGpu[]
  links: TopoMLink[]
  /** NIC label → interface name, from the "NIC Legend" block. */
  nics: Record<string, string>
  legend: boolean
  /**
   * `nvidia-smi topo -mp` (--matrix_pci): PCIe paths only, NVLink not shown. Recognised from
   * the command line in the text, or from a legend without its `NV#` line (topo -m always
   * prints it).
   */
  pciOnly?: 'command line' | 'legend without NV#'
}

/** The command line of the PCIe-only matrix. */
const PCI_ONLY_COMMAND = /nvidia-smi\s+topo\s+(-mp|--matrix_pci)\b/

const isLinkCell = (c: string): boolean => /^[A-Z][A-Z0-9]*$/.test(c)
const knownLink = (c: string): boolean => /^NV\d+$/.test(c) || (LINK_CLASSES as readonly string[]).includes(c)
const numOrNull = (s: string | undefined): number | null | undefined =>
  s === undefined || s === '' ? undefined : /^-?\d+$/.test(s) ? Number(s) : s === 'N/A' ? null : undefined

function affinity(row: MatrixRow, header: MatrixHeader, lineNo: number): Omit<TopoMGpu, 'index'> {
  const after = row.fields.slice(header.devices.length)
  const labels = header.extras
  const g: Omit<TopoMGpu, 'index'> = { line: lineNo }
  let cpu: string | undefined
  let numa: string | undefined
  let gnid: string | undefined
  if (header.tabs) {
    // Raw TABs: "GPU NUMA ID" is preceded by an empty field, so it is the last one.
    cpu = after[0]
    numa = after[1]
    if (labels.includes('GPU NUMA ID')) gnid = after[after.length - 1]
  } else {
    // Spaces: an empty CPU affinity (restricted cpuset) leaves fewer tokens; map from the right.
    const vals =
      after.length >= labels.length ? after : [...Array<string>(labels.length - after.length).fill(''), ...after]
    labels.forEach((l, i) => {
      if (l === 'CPU Affinity') cpu = vals[i]
      else if (l === 'NUMA Affinity') numa = vals[i]
      else gnid = vals[i]
    })
  }
  if (cpu !== undefined && cpu !== '') g.cpuAffinity = cpu
  const n = numOrNull(numa)
  if (n !== undefined) g.numa = n
  const gi = numOrNull(gnid)
  if (gi !== undefined) g.gpuNumaId = gi
  return g
}

class TopoMParser implements LineParser {
  private readonly m = new MatrixReader()
  private nics = false
  private readonly t: TopoMatrix = {
    format: 'nvidia-smi topo -m',
    devices: [],
    gpus: [],
    links: [],
    nics: {},
    legend: false,
  }
  private readonly diagnostics: Diagnostic[] = []
  private nvLegend = false
  private readonly rows = new Set<string>()
  private last = 0
  constructor(private readonly file: string) {}

  line(text: string, lineNo: number): void {
    this.last = lineNo
    const s = stripAnsi(text)
    if (PCI_ONLY_COMMAND.test(s)) this.t.pciOnly = 'command line'
    const r = this.m.read(s)
    if (r === 'header') this.t.devices = (this.m.header as MatrixHeader).devices
    if (typeof r !== 'string') return this.row(r, lineNo)
    if (r !== 'after') return
    if (/^\s*Legend:\s*$/.test(s)) this.t.legend = true
    if (/^\s*NV#\s*=/.test(s)) this.nvLegend = true
    if (/^\s*NIC Legend:\s*$/.test(s)) this.nics = true
    const m = this.nics ? /^\s*(NIC\d+):\s*(\S+)\s*$/.exec(s) : null
    if (m) this.t.nics[m[1] as string] = m[2] as string
  }

  private row(row: MatrixRow, lineNo: number): void {
    const h = this.m.header as MatrixHeader
    const n = h.devices.length
    const ok = countValidCells(row.fields, n, isLinkCell)
    if (ok < n) {
      this.diagnostics.push(
        diag(
          this.file,
          lineNo,
          'error',
          'short-row',
          `row ${row.label}: ${n} device cells expected, found ${ok} (a missing column?); row skipped`,
        ),
      )
      return
    }
    if (this.rows.has(row.label))
      this.diagnostics.push(
        diag(this.file, lineNo, 'warn', 'repeated-row', `row ${row.label} repeated; the later one is used`),
      )
    this.rows.add(row.label)
    eachPairCell(row, h.devices, { file: this.file, line: lineNo, diagnostics: this.diagnostics }, (b, cell) => {
      if (!knownLink(cell))
        this.diagnostics.push(
          diag(this.file, lineNo, 'warn', 'unknown-link', `row ${row.label}, column ${b}: unknown link class ${cell}`),
        )
      this.t.links = replacePair(this.t.links, { a: row.label, b, link: cell, line: lineNo })
    })
    if (isGpuLabel(row.label)) {
      this.t.gpus = this.t.gpus.filter((g) => g.index !== gpuIndex(row.label))
      this.t.gpus.push({ index: gpuIndex(row.label), ...affinity(row, h, lineNo) })
    }
  }

  end(): { meta: Record<string, unknown>; diagnostics: Diagnostic[] } {
    const line = Math.max(1, this.last)
    const header = this.m.header
    const problem =
      matrixEndError(this.file, line, header, this.rows.size, 'topo -m') ??
      missingRowWarning(this.file, line, header?.devices.filter(isGpuLabel) ?? [], this.rows)
    if (problem) this.diagnostics.push(problem)
    const nvCells = this.t.links.some((l) => /^NV\d+$/.test(l.link))
    if (!this.t.pciOnly && this.t.legend && !this.nvLegend && !nvCells) this.t.pciOnly = 'legend without NV#'
    return { meta: header && this.rows.size > 0 ? { topology: this.t } : {}, diagnostics: this.diagnostics }
  }
}

/** Confidence that a text head is `nvidia-smi topo -m` output. */
function detect(head: string): number {
  const lines = splitLines(head.slice(0, 16384)).map(stripAnsi)
  const found = findHeader(lines)
  if (!found) return 0
  if (found.header.extras.length > 0) return 0.95
  const row = lines[found.index + 1] ? splitMatrixRow(lines[found.index + 1] as string, found.header) : undefined
  const cells = (row?.fields ?? []).slice(0, found.header.devices.length).filter((c) => c !== 'X')
  if (cells.length > 0 && cells.every(knownLink)) return 0.9
  return lines.some((l) => /nvidia-smi\s+topo\s+(-m|--matrix)\b/.test(l) || PCI_ONLY_COMMAND.test(l)) ? 0.8 : 0
}

/** The `nvidia-smi topo -m` parser (topology; emits no rows). */
export const nvidiaSmiTopoM: Parser = {
  id: 'nvidia-smi-topo-m',
  description: 'nvidia-smi topo -m: link class of every GPU/NIC pair, CPU and NUMA affinity',
  kind: 'topology',
  detect,
  open: (origin: Origin) => new TopoMParser(origin.file),
}
