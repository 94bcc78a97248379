/**
 * nccl-tests `-J file.json` output, schema versions 1-3 (nccl-tests src/util.cu), including the
 * `average_bus_bandwidith` / `bandwidith` keys of v2.17.3-2.17.8 and the per-iteration
 * `times_us` of `-I` (one time row per iteration, `iteration` set, CUDA-event timed).
 * The document is parsed whole at end(); each results[] entry cites the line of its `"size"`.
 */
import type { Diagnostic, Row } from '../../model/index.ts'
import type { LineParser, Origin, Parser } from '../types.ts'
import type { RowEvidence } from './_nccl-collective.ts'
import { CollectiveEvidence } from './_nccl-collective.ts'
import { collectiveOfArgs, devicesOf, docMeta, numOf, obj, ranksOf, resultRows } from './_nccl-json.ts'

class NcclJsonParser implements LineParser {
  private readonly lines: string[] = []
  private readonly sizeLines: number[] = []
  private readonly diagnostics: Diagnostic[] = []
  private lastLine = 0

  constructor(
    private readonly origin: Origin,
    private readonly emit: (row: Row) => void,
  ) {}

  line(text: string, lineNo: number): void {
    this.lines.push(text)
    this.lastLine = lineNo
    let at = text.indexOf('"size"')
    while (at !== -1) {
      this.sizeLines.push(lineNo)
      at = text.indexOf('"size"', at + 6)
    }
  }

  private diag(line: number, severity: Diagnostic['severity'], code: string, message: string): void {
    this.diagnostics.push({ file: this.origin.file, line, severity, code, message })
  }

  end(): { meta: Record<string, unknown>; diagnostics: Diagnostic[] } {
    let doc: Record<string, unknown> | undefined
    try {
      doc = obj(JSON.parse(this.lines.join('\n')))
    } catch (e) {
      this.diag(this.lastLine, 'error', 'bad-json', `not valid JSON: ${(e as Error).message.slice(0, 200)}`)
      return { meta: {}, diagnostics: this.diagnostics }
    }
    if (!doc) {
      this.diag(1, 'error', 'bad-json', 'the JSON document is not an object')
      return { meta: {}, diagnostics: this.diagnostics }
    }
    try {
      return { meta: this.rows(doc), diagnostics: this.diagnostics }
    } catch (e) {
      this.diag(this.lastLine, 'error', 'parser-error', `could not read the document: ${(e as Error).message}`)
      return { meta: {}, diagnostics: this.diagnostics }
    }
  }

  private rows(doc: Record<string, unknown>): Record<string, unknown> {
    const devices = devicesOf(obj(doc.config))
    const meta = docMeta(doc, devices)
    const results = (Array.isArray(doc.results) ? doc.results : []).map(obj)
    if (!Array.isArray(doc.results)) this.diag(1, 'warn', 'no-results', 'the document has no "results" list')
    const { collective, ranks } = this.identify(doc, ranksOf(devices), results, meta)
    const counts = this.emitResults(results, collective, ranks)
    this.cellDiags(counts)
    for (const e of (meta.errors as string[] | undefined) ?? [])
      this.diag(1, 'error', 'nccl-error', `nccl-tests reported: ${e.slice(0, 300)}`)
    const oob = meta.outOfBounds as { okay?: unknown } | undefined
    if (oob && oob.okay === false)
      this.diag(1, 'warn', 'out-of-bounds', 'data check failed (out_of_bounds.okay is false)')
    meta.rows = counts.rows
    return meta
  }

  /**
   * The collective (from the args, else inferred from the rows) and the ranks (from the device
   * list, else inferred), recorded in `meta` with where each came from.
   */
  private identify(
    doc: Record<string, unknown>,
    ranksListed: number | undefined,
    results: (Record<string, unknown> | undefined)[],
    meta: Record<string, unknown>,
  ): { collective: string | undefined; ranks: number | null } {
    const inferred =
      collectiveOfArgs(doc.args) === undefined || ranksListed === undefined ? infer(results, ranksListed) : undefined
    const collective = collectiveOfArgs(doc.args) ?? inferred?.resolved
    const ranks = ranksListed ?? inferred?.nInferred ?? null
    Object.assign(meta, {
      collective: collective ?? 'unknown',
      collectiveFrom: collectiveOfArgs(doc.args) ? 'args' : collective ? 'rows' : 'none',
    })
    if (ranks !== null) Object.assign(meta, { ranks, ranksFrom: ranksListed !== undefined ? 'devices' : 'inferred' })
    if (collective === undefined && results.length)
      this.diag(
        1,
        'warn',
        'collective-unknown',
        `the document does not say which collective it measured (rows fit: ` +
          `${inferred?.candidates.join(', ') ?? 'none'})`,
      )
    return { collective, ranks }
  }

  /** Emits the rows of every result, each citing its size's line when every size's line is known. */
  private emitResults(
    results: (Record<string, unknown> | undefined)[],
    collective: string | undefined,
    ranks: number | null,
  ): { na: number; bad: number; rows: number } {
    const counts = { na: 0, bad: 0, rows: 0 }
    const ctx = {
      bench: `nccl.${collective ?? 'unknown'}`,
      ranks,
      file: this.origin.file,
      trial: Number.isInteger(this.origin.trial) ? (this.origin.trial as number) : 0,
      line: 1,
      skip: (k: 'na' | 'bad') => counts[k]++,
    }
    const cite = this.sizeLines.length === results.length
    results.forEach((res, i) => {
      if (!res) return
      ctx.line = cite ? (this.sizeLines[i] ?? 1) : 1
      resultRows(res, ctx, (r) => {
        counts.rows++
        this.emit(r)
      })
    })
    return counts
  }

  /** The cells that gave no row: null ones (info) and ones that are not numbers (warn). */
  private cellDiags({ na, bad }: { na: number; bad: number }): void {
    if (na)
      this.diag(
        this.sizeLines[0] ?? 1,
        'info',
        'na-cell',
        `${na} null cells (check disabled, alltoall in-place, or a missing block): no rows for them`,
      )
    if (bad)
      this.diag(
        this.sizeLines[0] ?? 1,
        'warn',
        'bad-cell',
        `${bad} cells that are not numbers ("nan"): no rows for them`,
      )
  }
}

/** Collective and ranks from the results themselves, as the text parser does for log tails. */
function infer(results: (Record<string, unknown> | undefined)[], ranks: number | undefined): CollectiveEvidence {
  const ev = new CollectiveEvidence(false)
  for (const res of results) {
    const oop = obj(res?.out_of_place)
    const size = numOf(res?.size)
    const count = numOf(res?.count)
    if (!res || !oop || size === undefined || count === undefined || typeof res.type !== 'string') continue
    const alg = numOf(oop.alg_bw)
    const bus = numOf(oop.bus_bw)
    const e: RowEvidence = { size, count, type: res.type, hasRedop: true, hasRoot: true }
    if (typeof res.redop === 'string') e.redop = res.redop
    const root = numOf(res.root)
    if (root !== undefined) e.root = root
    if (alg !== undefined && bus !== undefined) Object.assign(e, { algbw: String(alg), busbw: String(bus) })
    const ip = obj(res.in_place)
    if (typeof oop.nwrong === 'number' && ip) {
      e.wrongOut = String(oop.nwrong)
      if (ip.nwrong === null || typeof ip.nwrong === 'number')
        e.wrongIn = ip.nwrong === null ? 'N/A' : String(ip.nwrong)
    }
    ev.add(e, ranks)
    const c = ev.resolved
    if (c !== undefined && ranks === undefined) ev.inferRanks(c, e.algbw, e.busbw)
  }
  return ev
}

/** Confidence that `head` is an nccl-tests JSON document. */
function detect(head: string): number {
  const s = head.trimStart()
  if (!s.startsWith('{')) return 0
  if (s.includes('"out_of_place"') || s.includes('"minimum_bytes"')) return 0.95
  if (s.includes('"nccl_version"') && s.includes('"results"')) return 0.9
  return 0
}

/** The nccl-tests `-J` JSON parser. */
export const ncclTestsJson: Parser = {
  id: 'nccl-tests-json',
  description: 'nccl-tests -J JSON output (schema 1-3, v2.17.3+), with -I per-iteration times',
  kind: 'measurement',
  detect,
  open: (origin, emit) => new NcclJsonParser(origin, emit),
}
