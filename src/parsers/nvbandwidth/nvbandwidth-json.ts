/**
 * Parser of nvbandwidth `-j` JSON output (v0.5+): cells are strings,
 * "N/A" where the pair could not run (no row, counted in `na-cell`). A bidirectional
 * device-to-device testcase holds three stacked matrices (Read1/Write1, Read2/Write2, Total)
 * in one `bandwidth_matrix`; they become `nvbw.<testcase>_read1|_read2|_total` like the
 * SUM keys of the text output. Log lines around the document are skipped.
 */
import type { Row } from '../../model/index.ts'
import { cleanLine, GuardedLineParser } from '../_matrix-common.ts'
import type { Origin, Parser } from '../types.ts'
import type { NvbwMatrix } from './_nvbw-emit.ts'
import { emitRecorded } from './_nvbw-emit.ts'
import { JsonDocScanner, MAX_DOC_CHARS, matrixCellLines } from './_nvbw-json-scan.ts'
import type { NvbwMeta, NvbwTestcaseMeta } from './_nvbw-meta.ts'
import { commandBufferMiB, emptyMeta, NVBW_META_CAP, noteRunLine } from './_nvbw-meta.ts'
import { bufferSize, jsonDevice } from './_nvbw-testcases.ts'

type Obj = Record<string, unknown>
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null)

/** The document-relative line of `"name" : "<name>"` at or after `from` (or `from` when absent). */
function nameLine(lines: readonly string[], name: unknown, from: number): number {
  if (typeof name !== 'string') return from
  const needle = JSON.stringify(name)
  for (let i = from; i < lines.length; i++) {
    const s = lines[i] as string
    if (s.includes('"name"') && s.includes(needle)) return i
  }
  return from
}

class NvbwJsonParser extends GuardedLineParser {
  private readonly meta: NvbwMeta = emptyMeta('json')
  private doc: JsonDocScanner | null = null
  private docs = 0

  constructor(origin: Origin, emit: (row: Row) => void) {
    super(origin, emit, 'nvbandwidth JSON')
  }

  protected read(raw: string, no: number): void {
    const s = cleanLine(raw)
    if (this.doc) return this.more(this.doc, s, no)
    const t = s.trimStart()
    if (t.startsWith('{')) {
      this.doc = new JsonDocScanner(no)
      this.docs++
      return this.more(this.doc, t, no)
    }
    noteRunLine(this.meta, t)
  }

  private more(doc: JsonDocScanner, s: string, no: number): void {
    if (doc.push(s) < 0) {
      if (doc.chars > MAX_DOC_CHARS) {
        this.diags.add(
          doc.startLine,
          'error',
          'json-too-large',
          `JSON document from line ${doc.startLine} exceeds ${MAX_DOC_CHARS} characters; skipped`,
        )
        this.doc = null
      }
      return
    }
    this.doc = null
    let value: unknown
    try {
      value = JSON.parse(doc.lines.join('\n'))
    } catch (e) {
      this.diags.add(
        doc.startLine,
        'error',
        'bad-json',
        `JSON document on lines ${doc.startLine}-${no} does not parse: ${(e as Error).message}`,
      )
      return
    }
    this.document(value, doc)
  }

  /** One parsed document: meta from its header fields, rows from its testcases. */
  private document(value: unknown, doc: JsonDocScanner): void {
    const root = isObj(value) ? value.nvbandwidth : undefined
    if (!isObj(root)) {
      this.diags.add(
        doc.startLine,
        'warn',
        'not-nvbandwidth',
        `JSON document from line ${doc.startLine} has no "nvbandwidth" object`,
      )
      return
    }
    const m = this.meta
    m.runs++
    m.complete = true
    m.version ??= str(root.version)
    m.gitVersion ??= str(root.git_version)
    const cuda = root['CUDA Runtime Version']
    if (typeof cuda === 'number') m.cudaRuntimeVersion ??= cuda
    m.driverVersion ??= str(root['Driver Version'])
    this.devices(root['GPU Device list'])
    // A top-level "error" is nvbandwidth ending on an exception (its data check's ASSERT among
    // them): the run is corrupt, as the text output's "Invalid value when checking the pattern".
    for (const k of ['error', 'warning'] as const) {
      const v = str(root[k])
      if (v === null) continue
      m[k] ??= v
      if (k === 'error')
        this.diags.add(
          doc.startLine,
          'error',
          'corrupt-run',
          `nvbandwidth error, the run is corrupt: ${v.slice(0, 200)}`,
        )
      else this.diags.add(doc.startLine, 'info', 'tool-warning', `nvbandwidth warning: ${v}`)
    }
    const cells = matrixCellLines(doc.lines)
    let k = 0
    let cursor = 0
    const tcs = Array.isArray(root.testcases) ? root.testcases : []
    for (const tc of tcs) {
      if (!isObj(tc)) continue
      cursor = nameLine(doc.lines, tc.name, cursor)
      const hasMatrix = Array.isArray(tc.bandwidth_matrix)
      this.testcase(tc, doc.startLine, doc.startLine + cursor, hasMatrix ? (cells[k] ?? []) : [])
      if (hasMatrix) k++
    }
  }

  private devices(list: unknown): void {
    if (!Array.isArray(list)) return
    for (const s of list) {
      const d = typeof s === 'string' ? jsonDevice(s) : undefined
      if (!d || this.meta.devices.length >= NVBW_META_CAP || this.meta.devices.some((x) => x.index === d.index))
        continue
      if (d.host && this.meta.hostname === undefined) this.meta.hostname = d.host
      this.meta.devices.push(d)
    }
  }

  private testcase(tc: Obj, docLine: number, line: number, lines: number[][]): void {
    const name = str(tc.name) ?? 'unknown'
    const status = str(tc.status) ?? 'unknown'
    const meta: NvbwTestcaseMeta = { name, status: status.toLowerCase(), line, matrices: [] }
    if (typeof tc.sum === 'number') meta.sum = tc.sum
    const error = str(tc.error)
    if (error !== null) meta.error = error
    if (this.meta.testcases.length < NVBW_META_CAP) this.meta.testcases.push(meta)
    if (/^waived$/i.test(status))
      this.diags.add(line, 'info', 'waived', `nvbandwidth waived ${name}: it cannot run on this system`)
    else if (!/^passed$/i.test(status))
      this.diags.add(
        line,
        'warn',
        'testcase-error',
        `nvbandwidth ${name}: status ${status}${error ? `: ${error}` : ''}`,
      )
    if (!Array.isArray(tc.bandwidth_matrix)) return
    for (const mx of this.matrices(
      name,
      str(tc.bandwidth_description)?.trim() ?? '',
      tc.bandwidth_matrix,
      lines,
      docLine,
    )) {
      const ctx = {
        file: this.origin.file,
        trial: (this.origin.trial ?? 0) + this.meta.runs - 1,
        sizeBytes: (latency: boolean) =>
          bufferSize(this.meta.version, commandBufferMiB(this.meta.commandLine), latency, false).bytes,
        emit: this.emit,
        diags: this.diags,
      }
      emitRecorded(mx, ctx, meta)
    }
  }

  /** Splits a bandwidth_matrix into its parts (three for bidirectional device-to-device tests). */
  private matrices(
    name: string,
    description: string,
    rows: unknown[],
    lines: number[][],
    docLine: number,
  ): NvbwMatrix[] {
    const width = rows.reduce<number>((w, r) => Math.max(w, Array.isArray(r) ? r.length : 0), 0)
    const cols = Array.from({ length: width }, (_, i) => i)
    const parts = /bidirectional/.test(name) && width > 0 && rows.length === 3 * width ? 3 : 1
    const dir = /_read/.test(name) ? 'read' : /_write/.test(name) ? 'write' : 'part'
    const suffixes = parts === 3 ? [`_${dir}1`, `_${dir}2`, '_total'] : ['']
    const per = rows.length / parts
    return suffixes.map((suffix, p) => ({
      testcase: name,
      key: name + suffix,
      description,
      cols,
      line: docLine + (lines[p * per]?.[0] ?? lines[0]?.[0] ?? 0),
      rows: rows.slice(p * per, (p + 1) * per).map((r, i) => {
        const cells = Array.isArray(r)
          ? r.map((c) => (typeof c === 'string' ? c.trim() : typeof c === 'number' ? String(c) : '?'))
          : []
        const ln = lines[p * per + i] ?? []
        return { row: i, cells, lines: cells.map((_, c) => docLine + (ln[c] ?? ln[0] ?? 0)) }
      }),
    }))
  }

  protected finish(): void {
    if (this.doc) {
      this.diags.add(
        this.doc.startLine,
        'error',
        'incomplete',
        `JSON document from line ${this.doc.startLine} never closes (cut short?)`,
      )
      this.doc = null
    }
    if (this.docs === 0)
      this.diags.add(Math.max(1, this.lastLine), 'warn', 'no-data', 'no nvbandwidth JSON document found')
    this.meta.bufferSize = bufferSize(this.meta.version, commandBufferMiB(this.meta.commandLine), false, false)
  }

  protected fileMeta(): Record<string, unknown> {
    return this.meta as unknown as Record<string, unknown>
  }
}

/** Confidence that `head` is nvbandwidth `-j` output. */
function detect(head: string): number {
  if (/^[ \t]*\{/m.test(head) && /"nvbandwidth"\s*:/.test(head)) return 0.95
  return 0
}

/** nvbandwidth `-j` JSON output (v0.5+). */
export const nvbandwidthJsonParser: Parser = {
  id: 'nvbandwidth-json',
  description: 'NVIDIA nvbandwidth -j JSON output: copy bandwidth and latency matrices per testcase',
  kind: 'measurement',
  detect,
  open: (origin, emit) => new NvbwJsonParser(origin, emit),
}
