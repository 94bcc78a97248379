/**
 * Shared reading of the square matrices `nvidia-smi topo -m` and `topo -p2p` print:
 * header detection, ANSI stripping, raw-TAB versus space-padded rows.
 */
import type { Diagnostic } from '../../model/index.ts'

/** Removes ANSI escape sequences (recent drivers underline the header through a TTY). */
export const stripAnsi = (s: string): string => s.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '')

/** Multi-word column labels of `topo -m` that follow the device columns. */
const AFFINITY_LABELS = ['CPU Affinity', 'NUMA Affinity', 'GPU NUMA ID'] as const

/** A matrix header: device labels in column order, then the extra labels, and the layout. */
export interface MatrixHeader {
  devices: string[]
  extras: string[]
  tabs: boolean
}

const GPU_LABEL = /^GPU\d+$/
/** GPU0…, NIC0…, or old device-named NIC columns (RDMA device names: mlx5_0, bnxt_re0, irdma1, qedr0). */
const DEVICE_LABEL = /^(GPU\d+|NIC\d+|[a-z][a-z0-9_]*\d)$/

/** A command and the header on one line (`$ nvidia-smi topo -m\tGPU0\tGPU1 …`): the command cut off. */
const COMMAND_BEFORE_HEADER = /\btopo\s+(?:-m|--matrix|-p2p\s+[rwnap])[ \t]+(?=GPU0\s)/

function afterCommand(s: string): string {
  const m = COMMAND_BEFORE_HEADER.exec(s)
  return m ? s.slice(m.index + m[0].length) : s
}

/** The header of a matrix, or undefined when `line` is not one (it must start with GPU0). */
export function parseMatrixHeader(line: string): MatrixHeader | undefined {
  const s = afterCommand(stripAnsi(line))
  // The first device is GPU0: any other line is refused before a long one is split (1 MB: 400 ms → 0).
  if (!/^\s*GPU0(?:\s|$)/.test(s)) return undefined
  let cut = s.length
  for (const l of AFFINITY_LABELS) {
    const i = s.indexOf(l)
    if (i >= 0 && i < cut) cut = i
  }
  const devices = s
    .slice(0, cut)
    .split(/\s+/)
    .filter((t) => t !== '')
  if (devices[0] !== 'GPU0' || !devices.every((d) => DEVICE_LABEL.test(d))) return undefined
  const rest = s.slice(cut)
  const extras = AFFINITY_LABELS.filter((l) => rest.includes(l)).sort((a, b) => rest.indexOf(a) - rest.indexOf(b))
  return { devices, extras: [...extras], tabs: s.includes('\t') }
}

/** A row: its label and the fields after it (trimmed; with raw TABs empty fields are kept). */
export interface MatrixRow {
  label: string
  fields: string[]
}

/** Splits a row whose label is one of `devices`; undefined for any other line. */
export function splitMatrixRow(line: string, header: MatrixHeader): MatrixRow | undefined {
  const s = stripAnsi(line)
  const useTabs = header.tabs && s.includes('\t')
  const parts = useTabs ? s.split('\t').map((f) => f.trim()) : s.trim().split(/\s+/)
  if (useTabs && parts[0] === '') parts.shift()
  const label = parts[0] ?? ''
  if (!header.devices.includes(label)) return undefined
  const fields = parts.slice(1)
  if (useTabs) while (fields.length > header.devices.length && fields[fields.length - 1] === '') fields.pop()
  return { label, fields }
}

/** True for GPU labels (GPU0, GPU1, …). */
export const isGpuLabel = (label: string): boolean => GPU_LABEL.test(label)

/** The GPU index of a label such as GPU3. */
export const gpuIndex = (label: string): number => Number(label.slice(3))

/** A diagnostic at a line of a file. */
export function diag(
  file: string,
  line: number,
  severity: Diagnostic['severity'],
  code: string,
  message: string,
): Diagnostic {
  return { file, line, severity, code, message }
}

/**
 * Checks the device cells of a row: returns how many leading fields are valid cells, so a
 * row with a missing column (an affinity value where a cell should be) is caught.
 */
export function countValidCells(fields: readonly string[], n: number, valid: (cell: string) => boolean): number {
  let k = 0
  while (k < n && k < fields.length && valid(fields[k] as string)) k++
  return k
}

/** The first line that is a matrix header, with its 1-based number, in a text head. */
export function findHeader(lines: readonly string[]): { header: MatrixHeader; index: number } | undefined {
  for (let i = 0; i < lines.length; i++) {
    const h = parseMatrixHeader(lines[i] as string)
    if (h) return { header: h, index: i }
  }
  return undefined
}

/** Which part of a text a matrix reader is in: before the header, in the device rows, or after them. */
export type MatrixPart = 'before' | 'matrix' | 'after'

/**
 * Follows one matrix through a text, line by line: the first header line starts it, device
 * rows continue it, and the first other line ends it (every later line is 'after').
 */
export class MatrixReader {
  /** The header, once read. */
  header: MatrixHeader | undefined
  private part: MatrixPart = 'before'

  /**
   * Reads one ANSI-stripped line: a device row of the matrix is returned as such; any other
   * line gives 'header' (the header line), 'before' (a line before it) or 'after' (a line
   * that ends the matrix, or any line after it).
   */
  read(s: string): MatrixRow | 'header' | 'before' | 'after' {
    if (this.part === 'before') {
      this.header = parseMatrixHeader(s)
      if (!this.header) return 'before'
      this.part = 'matrix'
      return 'header'
    }
    if (this.part === 'matrix' && this.header) {
      const row = splitMatrixRow(s, this.header)
      if (row) return row
      this.part = 'after'
    }
    return 'after'
  }
}

/**
 * Walks a row's device cells in column order: the self cell must be X (else a `bad-self`
 * warning), every other cell goes to `cell(column, value)`. The row has ≥ devices.length fields.
 */
export function eachPairCell(
  row: MatrixRow,
  devices: readonly string[],
  at: { file: string; line: number; diagnostics: Diagnostic[] },
  cell: (column: string, value: string) => void,
): void {
  devices.forEach((b, j) => {
    const value = row.fields[j] as string
    if (b !== row.label) return cell(b, value)
    if (value !== 'X')
      at.diagnostics.push(
        diag(at.file, at.line, 'warn', 'bad-self', `row ${row.label}: self cell is ${value}, expected X`),
      )
  })
}

/** `list` without an earlier entry for the same ordered pair (a, b), then `item` (a repeated row's later cell wins). */
export const replacePair = <T extends { a: string; b: string }>(list: readonly T[], item: T): T[] => [
  ...list.filter((x) => !(x.a === item.a && x.b === item.b)),
  item,
]

/**
 * The error of a matrix reader at the end of the text, if any: no header (`no-matrix`) or a
 * header without one usable row (`no-rows`). `what` names the matrix, e.g. "topo -m".
 */
export function matrixEndError(
  file: string,
  line: number,
  header: MatrixHeader | undefined,
  rows: number,
  what: string,
): Diagnostic | undefined {
  if (!header)
    return diag(
      file,
      line,
      'error',
      'no-matrix',
      `no nvidia-smi ${what} matrix found (a header line starting with GPU0 was expected)`,
    )
  if (rows === 0) return diag(file, line, 'error', 'no-rows', `the ${what} matrix has a header but no usable row`)
  return undefined
}

/** A `missing-row` warning naming the `expected` labels without a usable row, if any. */
export function missingRowWarning(
  file: string,
  line: number,
  expected: readonly string[],
  rows: ReadonlySet<string>,
): Diagnostic | undefined {
  const missing = expected.filter((d) => !rows.has(d))
  return missing.length ? diag(file, line, 'warn', 'missing-row', `no usable row for ${missing.join(', ')}`) : undefined
}
