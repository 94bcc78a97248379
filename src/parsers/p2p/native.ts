/**
 * Output of gpucomm's own benches (native/p2p_bench, native/coll_bench; format described in
 * native/README.md): `key: value` config lines, then one benchstat-like line per
 * measurement `Name/k=v/…  1  <value> <unit> …`, plus `CORRUPT`, `SKIP` and `WARN` lines.
 */
import type { Row } from '../../model/index.ts'
import { cleanLine, GuardedLineParser } from '../_matrix-common.ts'
import { SRUN_LABEL } from '../_text.ts'
import type { Origin, Parser } from '../types.ts'

const CONFIG = /^([a-z][A-Za-z0-9_.-]*): (.*)$/
const RESULT = /^Benchmark(\S+)\s+(\d+)\s+(\S.*)$/
const MARKED = /^(CORRUPT|SKIP|WARN)\s+(\S+)\s*(.*)$/

/** What each unit of a result line becomes: metric, base unit and the conversion to it. */
const UNITS: Record<string, { metric: Row['metric']; unit: Row['unit']; base: (v: number) => number } | undefined> = {
  'us/op': { metric: 'time', unit: 's', base: (v) => v / 1e6 },
  'GB/s': { metric: 'bandwidth', unit: 'B/s', base: (v) => v * 1e9 },
  'algGB/s': { metric: 'algbw', unit: 'B/s', base: (v) => v * 1e9 },
  'busGB/s': { metric: 'busbw', unit: 'B/s', base: (v) => v * 1e9 },
  wrong: { metric: 'wrong', unit: 'count', base: (v) => v },
}

const P2P_BENCHES: Record<string, string | undefined> = {
  P2PLatency: 'p2p.latency',
  P2PBwUni: 'p2p.bw_uni',
  P2PBwBi: 'p2p.bw_bi',
}

/** `P2PBwUni` → `p2p.bw_uni`, `NcclAllReduce` → `nccl.all_reduce`; undefined when unknown. */
export function benchOf(name: string): string | undefined {
  const p2p = P2P_BENCHES[name]
  if (p2p) return p2p
  const m = /^Nccl([A-Z][A-Za-z]*)$/.exec(name)
  if (!m) return undefined
  return `nccl.${(m[1] as string).replace(/(?!^)([A-Z])/g, '_$1').toLowerCase()}`
}

/** Splits `Name/k=v/k=v` into the name and its keys; undefined when a part is not k=v. */
function splitName(full: string): { name: string; keys: Map<string, string> } | undefined {
  const parts = full.split('/')
  const keys = new Map<string, string>()
  for (const p of parts.slice(1)) {
    const eq = p.indexOf('=')
    if (eq <= 0) return undefined
    keys.set(p.slice(0, eq), p.slice(eq + 1))
  }
  return { name: parts[0] as string, keys }
}

/** An integer key value, or null when absent, not an integer or beyond 2^53. */
const int = (v: string | undefined): number | null => {
  if (v === undefined || !/^-?\d+$/.test(v)) return null
  const n = Number(v)
  return Number.isSafeInteger(n) ? n : null
}

/** The row fields a result line's keys fix, shared by every value on the line. */
function baseRow(bench: string, keys: Map<string, string>, origin: Origin, line: number): Row {
  const place = keys.get('place')
  const p2p = keys.get('p2p')
  const row: Row = {
    bench,
    metric: 'time',
    unit: 's',
    value: 0,
    sizeBytes: int(keys.get('size')),
    ranks: int(keys.get('ranks')),
    src: int(keys.get('src')),
    dst: int(keys.get('dst')),
    placement: place === 'out' ? 'out-of-place' : place === 'in' ? 'in-place' : null,
    // bounce (format 2): P2P off, staged through host memory by the bench rather than the driver.
    p2p: p2p === 'enabled' || p2p === 'disabled' ? p2p : p2p === 'bounce' ? 'disabled' : null,
    timer: 'gpu',
    trial: origin.trial ?? 0,
    source: { file: origin.file, line },
  }
  const copy = keys.get('copy')
  if (copy === 'ce' || copy === 'sm') row.copy = copy
  if (p2p === 'bounce') row.staging = 'bounce'
  const batch = int(keys.get('batch'))
  if (batch !== null && batch > 0) row.batch = batch
  const peer = keys.get('peer')
  if (peer !== undefined) row.peerAccess = peer === '1'
  const iter = int(keys.get('iter'))
  if (iter !== null) row.iteration = iter
  const type = keys.get('type')
  if (type !== undefined) row.dtype = type
  const redop = keys.get('redop')
  if (redop !== undefined && redop !== 'none') row.redop = redop
  const root = int(keys.get('root'))
  if (root !== null && root >= 0) row.root = root
  return row
}

class NativeParser extends GuardedLineParser {
  private readonly config: Record<string, string> = {}
  private results = 0

  constructor(origin: Origin, emit: (row: Row) => void) {
    super(origin, emit, 'native bench')
  }

  private diag(line: number, severity: 'info' | 'warn' | 'error', code: string, message: string): void {
    this.diags.add(line, severity, code, message)
  }

  /** One line; `mpirun --tag-output` and `srun --label` prefixes (multi-process runs) are dropped. */
  protected read(text: string, lineNo: number): void {
    const t = cleanLine(text).trim()
    if (t === '' || t.startsWith('#')) return
    const r = RESULT.exec(t)
    if (r) return this.result(r[1] as string, r[3] as string, lineNo)
    const m = MARKED.exec(t)
    if (m) {
      const what = `${m[2] as string}${m[3] ? `: ${m[3]}` : ''}`
      if (m[1] === 'CORRUPT')
        this.diag(lineNo, 'error', 'corrupt', `data check failed, values not to be trusted: ${what}`)
      else if (m[1] === 'WARN') this.diag(lineNo, 'warn', 'bench-warning', what)
      else this.diag(lineNo, 'info', 'skipped', `skipped ${what}`)
      return
    }
    const c = CONFIG.exec(t)
    if (c) {
      this.config[c[1] as string] = (c[2] as string).trim()
      return
    }
    if (/\bNCCL (INFO|WARN|version)\b/.test(t)) return
    this.diag(
      lineNo,
      t.startsWith('Benchmark') ? 'warn' : 'info',
      'unparsed',
      `not a native bench line: ${t.slice(0, 120)}`,
    )
  }

  private result(full: string, values: string, lineNo: number): void {
    const split = splitName(full)
    const bench = split && benchOf(split.name)
    if (!split || !bench)
      return this.diag(
        lineNo,
        'warn',
        'unknown-bench',
        `unknown native bench Benchmark${full.split('/')[0] ?? ''}; line skipped`,
      )
    const base = baseRow(bench, split.keys, this.origin, lineNo)
    const tok = values.trim().split(/\s+/)
    if (tok.length % 2 !== 0)
      return this.diag(lineNo, 'warn', 'bad-line', 'values are not <number> <unit> pairs; line skipped')
    const isP2p = bench.startsWith('p2p.')
    const rows: Row[] = []
    for (let i = 0; i < tok.length; i += 2) {
      const u = UNITS[tok[i + 1] as string]
      const v = u ? u.base(Number(tok[i])) : Number.NaN
      // Times, bandwidths and counts are finite and never negative.
      if (!u || !Number.isFinite(v) || v < 0)
        return this.diag(lineNo, 'warn', 'bad-line', `bad value "${tok[i] ?? ''} ${tok[i + 1] ?? ''}"; line skipped`)
      // p2p lines: latency gives a latency row; bandwidth lines give a bandwidth row (their time is implied).
      if (isP2p && u.metric === 'time' && bench !== 'p2p.latency') continue
      const metric = isP2p && u.metric === 'time' ? 'latency' : u.metric
      rows.push({ ...base, metric, unit: u.unit, value: v })
    }
    this.results++
    for (const row of rows) this.emit(row)
  }

  protected finish(): void {
    if (this.results === 0)
      this.diag(this.lastLine, 'warn', 'no-results', 'no result lines (did the bench stop early? see its stderr)')
  }

  protected fileMeta(): Record<string, unknown> {
    const c = this.config
    const meta: Record<string, unknown> = { config: { ...c } }
    if (c.format) meta.version = c.format
    if (c.bench) meta.bench = c.bench
    if (c['nccl-version-string']) meta.nccl = c['nccl-version-string']
    if (c['nccl-library']) meta.ncclLibrary = c['nccl-library']
    if (c['cuda-runtime']) meta.cudaRuntime = Number(c['cuda-runtime'])
    if (c['cuda-driver']) meta.cudaDriver = Number(c['cuda-driver'])
    const gpus = Object.keys(c).filter((k) => /^gpu\.\d+$/.test(k))
    if (gpus.length) meta.gpus = gpus.map((k) => ({ index: Number(k.slice(4)), ...gpuFacts(c[k] as string) }))
    return meta
  }
}

/** `NVIDIA H200 | cc 9.0 | bus 0000:19:00.0` → name, computeCap, busId. */
function gpuFacts(v: string): { name?: string; computeCap?: string; busId?: string } {
  const [name, cc, bus] = v.split('|').map((s) => s.trim())
  const out: { name?: string; computeCap?: string; busId?: string } = {}
  if (name) out.name = name
  if (cc?.startsWith('cc ')) out.computeCap = cc.slice(3)
  if (bus?.startsWith('bus ')) out.busId = bus.slice(4)
  return out
}

/** An optional `mpirun --tag-output` or `srun --label` prefix at a line start. */
const PREFIX = String.raw`(?:\[\d+,\d+\]<stdout>:|${SRUN_LABEL})?`
const FORMAT_LINE = new RegExp(String.raw`^${PREFIX}format: gpucomm-native\/\d+\s*$`, 'm')
const RESULT_LINE = new RegExp(
  String.raw`^${PREFIX}Benchmark(P2P(Latency|BwUni|BwBi)|Nccl[A-Z]\w*)\/\S+\s+\d+\s+\S+ (us\/op|GB\/s|wrong)`,
  'm',
)

function detect(head: string): number {
  if (FORMAT_LINE.test(head)) return 0.99
  if (RESULT_LINE.test(head)) return 0.8
  return 0
}

/** Parser of the native benches' output (p2p_bench, coll_bench). */
export const native: Parser = {
  id: 'native',
  description: "gpucomm's native benches (p2p_bench, coll_bench): config lines and one line per iteration",
  kind: 'measurement',
  detect,
  open: (origin, emit) => new NativeParser(origin, emit),
}
