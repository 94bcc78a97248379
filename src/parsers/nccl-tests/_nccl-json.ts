/**
 * Helpers of the nccl-tests `-J` JSON parser (see nccl-tests-json.ts): reading loosely typed
 * fields, the file-level meta, and the rows of one `results[]` entry.
 */
import type { Row } from '../../model/index.ts'
import { COLLECTIVES } from './_nccl-collective.ts'
import type { Device } from './_nccl-meta.ts'
import { ncclCodeToVersion } from './_nccl-meta.ts'
import { collectiveInText } from './_nccl-tokens.ts'

/** A JSON object, or undefined for anything else. */
export const obj = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined

/** A finite number, also from numeric strings (`"    -1"`); undefined for `"nan"`, null, …. */
export function numOf(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined
  if (typeof v === 'string' && v.trim() !== '' && /^\s*[-+]?[\d.]+(?:e[-+]?\d+)?\s*$/i.test(v)) {
    const n = Number(v)
    return Number.isFinite(n) ? n : undefined
  }
  return undefined
}

/** `n × 10^exp` without binary noise for printed decimals (37.69 µs → 3.769e-5 s). */
export function sci(n: number, exp: number): number {
  const t = String(n)
  return t.includes('e') ? n * 10 ** exp : Number(`${t}e${exp}`)
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)

/** Environment entries safe to keep (the JSON holds the whole environment, secrets included). */
const KEEP_ENV = /^(NCCL_|CUDA_VISIBLE_DEVICES|CUDA_DEVICE_ORDER|UCX_|OMPI_COMM_WORLD_SIZE|FI_PROVIDER)/

/** Devices from `config.devices`. */
export function devicesOf(config: Record<string, unknown> | undefined): Device[] {
  const list = Array.isArray(config?.devices) ? (config.devices as unknown[]) : []
  const out: Device[] = []
  for (const x of list) {
    const d = obj(x)
    const rank = numOf(d?.rank)
    if (!d || rank === undefined) continue
    const dev: Device = { rank }
    const set = <K extends keyof Device>(k: K, v: Device[K] | undefined): void => {
      if (v !== undefined) dev[k] = v
    }
    set('group', numOf(d.group))
    set('pid', numOf(d.pid))
    set('host', str(d.hostname))
    set('device', numOf(d.device))
    set('busId', str(d.device_hex))
    set('name', str(d.device_info))
    out.push(dev)
  }
  return out
}

/** Rank count from the device list: the group of rank 0. */
export function ranksOf(devices: readonly Device[]): number | undefined {
  if (devices.length === 0) return undefined
  const g0 = devices.find((d) => d.rank === 0)?.group ?? devices[0]?.group
  return new Set(devices.filter((d) => d.group === g0).map((d) => d.rank)).size
}

/** The collective named by `args[0]` (the program path), if any. */
export function collectiveOfArgs(args: unknown): string | undefined {
  const prog = Array.isArray(args) ? str(args[0]) : undefined
  return prog === undefined ? undefined : collectiveInText(prog, COLLECTIVES)
}

/** File-level meta of a parsed document. */
export function docMeta(doc: Record<string, unknown>, devices: Device[]): Record<string, unknown> {
  const m: Record<string, unknown> = {}
  const schema = numOf(doc.version)
  if (schema !== undefined) m.schemaVersion = schema
  const code = numOf(doc.nccl_version)
  if (code !== undefined) Object.assign(m, { ncclVersionCode: code, nccl: ncclCodeToVersion(code) })
  for (const k of ['start_time', 'end_time'] as const)
    if (typeof doc[k] === 'string') m[k === 'start_time' ? 'startTime' : 'endTime'] = doc[k]
  if (Array.isArray(doc.args)) m.args = doc.args.filter((a) => typeof a === 'string')
  if (Array.isArray(doc.env)) m.env = doc.env.filter((e): e is string => typeof e === 'string' && KEEP_ENV.test(e))
  const config = obj(doc.config)
  if (config)
    m.params = Object.fromEntries(
      Object.entries(config).filter(([k, v]) => k !== 'devices' && (typeof v !== 'object' || v === null)),
    )
  if (devices.length)
    Object.assign(m, { devices, hosts: [...new Set(devices.map((d) => d.host).filter((h) => h !== undefined))] })
  const oob = obj(doc.out_of_bounds)
  if (oob) m.outOfBounds = { count: numOf(oob.count) ?? null, okay: oob.okay ?? null }
  const avg = obj(doc.average_bus_bandwidth) ?? obj(doc.average_bus_bandwidith)
  if (doc.average_bus_bandwidith !== undefined) m.misspelledKeys = true
  const bw = numOf(avg?.bandwidth ?? avg?.bandwidith)
  if (bw !== undefined) m.avgBusBandwidth = sci(bw, 9)
  if (avg && avg.okay !== undefined) m.avgBusBandwidthOkay = avg.okay
  if (Array.isArray(doc.errors)) m.errors = doc.errors.filter((e) => typeof e === 'string')
  m.versionRange =
    schema === 1
      ? m.misspelledKeys
        ? '2.17.3-2.17.8'
        : '2.17.9-2.19.1'
      : schema === 2
        ? '2.19.2-2.19.5'
        : schema === 3
          ? '2.19.6+'
          : 'unknown'
  return m
}

/** Everything a results[] entry's rows share. */
export interface ResultContext {
  bench: string
  ranks: number | null
  file: string
  trial: number
  line: number
  /** Counts a cell that yields no row: `na` for null/absent, `bad` for "nan" and other junk. */
  skip: (kind: 'na' | 'bad', line: number) => void
}

/** Rows of one results[] entry: per placement time/algbw/busbw/wrong, plus per-iteration times. */
export function resultRows(res: Record<string, unknown>, ctx: ResultContext, emit: (r: Row) => void): void {
  const size = numOf(res.size) ?? null
  const dtype = str(res.type)
  const redop = str(res.redop)
  const root = numOf(res.root)
  const source = { file: ctx.file, line: ctx.line }
  const base = (
    metric: Row['metric'],
    unit: Row['unit'],
    value: number,
    placement: Row['placement'],
    timer: Row['timer'],
  ): Row => {
    const r: Row = {
      bench: ctx.bench,
      metric,
      unit,
      value,
      sizeBytes: size,
      ranks: ctx.ranks,
      src: null,
      dst: null,
      placement,
      p2p: null,
      timer,
      trial: ctx.trial,
      source,
    }
    if (dtype !== undefined) r.dtype = dtype
    if (redop !== undefined && redop !== 'none') r.redop = redop
    if (root !== undefined && root >= 0) r.root = root
    return r
  }
  for (const [key, placement] of [
    ['out_of_place', 'out-of-place'],
    ['in_place', 'in-place'],
  ] as const) {
    const blk = obj(res[key])
    if (blk) {
      const cell = (v: unknown, metric: Row['metric'], unit: Row['unit'], scale: number): void => {
        const n = numOf(v)
        if (n === undefined) return ctx.skip(v === null || v === undefined ? 'na' : 'bad', ctx.line)
        emit(base(metric, unit, sci(n, scale), placement, 'cpu'))
      }
      cell(blk.time ?? blk.cpu_time, 'time', 's', -6)
      cell(blk.alg_bw, 'algbw', 'B/s', 9)
      cell(blk.bus_bw, 'busbw', 'B/s', 9)
      cell(blk.nwrong, 'wrong', 'count', 0)
    }
    const per = obj(res[`${key}_per_iter`])
    const times = Array.isArray(per?.times_us) ? (per.times_us as unknown[]) : []
    for (let i = 0; i < times.length; i++) {
      const n = numOf(times[i])
      if (n === undefined) ctx.skip('bad', ctx.line)
      else emit({ ...base('time', 's', sci(n, -6), placement, 'gpu'), iteration: i })
    }
  }
}
