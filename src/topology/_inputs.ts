/**
 * Saved outputs → typed topology facts: each text goes to the topology parser that
 * recognizes it (or the small nvidia-smi --query-gpu CSV reader here); problems become
 * diagnostics with file:line.
 */

import type { SmiLink } from '../machine/index.ts'
import { parseSmiQuery } from '../machine/index.ts'
import type { Diagnostic } from '../model/index.ts'
import type { IommuGroups, LspciList, LspciTree, P2PMatrix, TopoMatrix } from '../parsers/index.ts'
import { DETECT_BYTES, detectParser, normalizeBdf, parseText, splitLines } from '../parsers/index.ts'
import type { TopoSource } from './_types.ts'

/** A GPU row of `nvidia-smi --query-gpu=index,name,pci.bus_id --format=csv[,noheader]`. */
export interface QueryGpu {
  index: number
  name: string
  busId: string
  line: number
}

/** Everything read from saved outputs, by format (each entry keeps its file name). */
export interface ParsedInputs {
  topoM: { file: string; t: TopoMatrix }[]
  p2p: { file: string; t: P2PMatrix }[]
  lspciTv: { file: string; t: LspciTree }[]
  lspciNn: { file: string; t: LspciList }[]
  iommu: { file: string; t: IommuGroups }[]
  query: { file: string; gpus: QueryGpu[] }[]
  /** `nvidia-smi -q` outputs (PCIe link generation and width per GPU). */
  smiQ: { file: string; gpus: SmiLink[] }[]
  diagnostics: Diagnostic[]
  sources: TopoSource[]
}

/** An empty collection of inputs. */
export const noInputs = (): ParsedInputs => ({
  topoM: [],
  p2p: [],
  lspciTv: [],
  lspciNn: [],
  iommu: [],
  query: [],
  smiQ: [],
  diagnostics: [],
  sources: [],
})

const BUS_ID = /^(?:[0-9a-fA-F]{4,8}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]$/

/**
 * `index, name, bus id` split at its two commas, each field trimmed. Not one regex: with
 * `\s*([^,]+?)\s*,` a run of blanks can be shared between the name and the blanks in n ways,
 * which made a line of blanks quadratic.
 */
function queryLine(l: string): [number, string, string] | undefined {
  const f = l.split(',')
  if (f.length !== 3) return undefined
  const [index, name, busId] = f.map((x) => x.trim()) as [string, string, string]
  if (!/^\d+$/.test(index) || name === '' || !BUS_ID.test(busId)) return undefined
  return [Number(index), name, busId]
}

/** Reads the --query-gpu CSV, or undefined when the text is not one. */
export function parseQueryCsv(text: string): QueryGpu[] | undefined {
  const gpus: QueryGpu[] = []
  const lines = splitLines(text)
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as string
    // Blank lines, the header, and comment lines (the simulator's SIMULATED marker) are skipped.
    if (l.trim() === '' || l.startsWith('#') || /^\s*index\s*,\s*name\s*,\s*pci\.bus_id\s*$/.test(l)) continue
    const m = queryLine(l)
    if (!m) return undefined
    gpus.push({ index: m[0], name: m[1], busId: normalizeBdf(m[2]) as string, line: i + 1 })
  }
  return gpus.length > 0 ? gpus : undefined
}

const FORMATS =
  'nvidia-smi topo -m, nvidia-smi topo -p2p, nvidia-smi -q, lspci -tv, lspci -nn, an IOMMU ' +
  'group listing, nvidia-smi --query-gpu=index,name,pci.bus_id CSV'

/** Parses one saved output into `into`; returns whether anything usable came out of it. */
export function addInput(into: ParsedInputs, file: string, text: string, kind = 'input'): boolean {
  const bad = (line: number, code: string, message: string): false => {
    into.diagnostics.push({ file, line, severity: 'error', code, message })
    into.sources.push({ kind, name: file, ok: false, note: message })
    return false
  }
  if (text.trim() === '') return bad(1, 'empty', 'empty file')
  const query = parseQueryCsv(text)
  if (query) {
    into.query.push({ file, gpus: query })
    into.sources.push({ kind, name: file, format: 'nvidia-smi-query-gpu', ok: true })
    return true
  }
  if (/^=+NVSMI LOG=+\s*$/m.test(text.slice(0, DETECT_BYTES))) {
    into.smiQ.push({ file, gpus: parseSmiQuery(text) })
    into.sources.push({ kind, name: file, format: 'nvidia-smi-q', ok: true })
    return true
  }
  const parser = detectParser(text.slice(0, DETECT_BYTES), ['topology'], { file, diagnostics: into.diagnostics })
  if (!parser) return bad(1, 'unknown-format', `not a topology output gpucomm knows (${FORMATS})`)
  const out = parseText(parser, text, { file })
  into.diagnostics.push(...out.diagnostics)
  const t = out.meta.topology as { format?: string } | undefined
  into.sources.push({ kind, name: file, format: parser.id, ok: t !== undefined })
  if (!t) return false
  if (parser.id === 'nvidia-smi-topo-m') into.topoM.push({ file, t: t as TopoMatrix })
  else if (parser.id === 'nvidia-smi-topo-p2p') into.p2p.push({ file, t: t as P2PMatrix })
  else if (parser.id === 'lspci-tv') into.lspciTv.push({ file, t: t as LspciTree })
  else if (parser.id === 'lspci-nn') into.lspciNn.push({ file, t: t as LspciList })
  else if (parser.id === 'iommu-groups') into.iommu.push({ file, t: t as IommuGroups })
  return true
}
