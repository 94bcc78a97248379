/**
 * Link readings under load: what a sweep reads of each GPU's PCIe link while a bandwidth
 * point runs (sysfs `current_link_speed`/`current_link_width`, `nvidia-smi -q`, or the
 * simulator's reading), kept as the highest seen over the point, saved beside the set's
 * topology capture (`under-load.json`), and laid over the at-rest readings when the capture
 * is read back, so `pcie-link-downtrained` judges the speed from it and says so. An idle
 * NVIDIA GPU drops its link to a low generation; under load it runs at the trained rate.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { badInput } from '../errors/index.ts'
import { genOf } from './_read.ts'
import type { HostFacts, HostGpu, LinkReading } from './_types.ts'

/** The record's file name inside a topology capture. */
export const UNDER_LOAD_FILE = 'under-load.json'

/** One GPU link read under load: current values, and the maxima where the source gives them. */
export interface LoadedLink {
  /** The GPU (`dddd:bb:dd.f`). */
  bdf: string
  gen?: { current: number; max?: number }
  width?: { current: number; max?: number }
  /** The files or command it was read from. */
  from: string
}

/** Where the readings came from; `simulated` is the simulator's model of the preset's link. */
export type LoadSource = 'sysfs' | 'nvidia-smi -q' | 'simulated'

/** What `under-load.json` holds. */
export interface UnderLoadRecord {
  schema: 1
  kind: 'gpucomm-link-under-load'
  /** The sweep point during which the links were read. */
  point: string
  at: string
  source: LoadSource
  /** How many readings the highest values were taken over. */
  samples: number
  links: LoadedLink[]
}

const DEV = '/sys/bus/pci/devices'
const read = (p: string): string | undefined => {
  try {
    return readFileSync(p, 'utf8').trim()
  } catch {
    return undefined
  }
}
const width = (s: string | undefined): number | undefined => {
  const n = Number.parseInt((s ?? '').replace(/^x/, ''), 10)
  return Number.isFinite(n) && n > 0 ? n : undefined
}

/** Reads each GPU's current (and own maximum) link speed and width from sysfs under `root`. */
export function readSysfsLinks(root: string, busIds: readonly string[]): LoadedLink[] {
  return busIds.flatMap((bdf) => {
    const dir = join(root, DEV, bdf)
    const cur = {
      gen: genOf(read(join(dir, 'current_link_speed'))),
      width: width(read(join(dir, 'current_link_width'))),
    }
    const max = { gen: genOf(read(join(dir, 'max_link_speed'))), width: width(read(join(dir, 'max_link_width'))) }
    if (cur.gen === undefined && cur.width === undefined) return []
    const link: LoadedLink = { bdf, from: `${DEV}/${bdf}/current_link_{speed,width}` }
    if (cur.gen !== undefined) link.gen = { current: cur.gen, ...(max.gen ? { max: max.gen } : {}) }
    if (cur.width !== undefined) link.width = { current: cur.width, ...(max.width ? { max: max.width } : {}) }
    return [link]
  })
}

/** Per link, the highest generation and width of two series of readings. */
export function highest(a: readonly LoadedLink[], b: readonly LoadedLink[]): LoadedLink[] {
  const out = new Map(a.map((l) => [l.bdf, l]))
  for (const l of b) {
    const o = out.get(l.bdf)
    if (!o) {
      out.set(l.bdf, l)
      continue
    }
    const up = <K extends 'gen' | 'width'>(k: K): LoadedLink[K] =>
      (l[k]?.current ?? 0) > (o[k]?.current ?? 0) ? l[k] : o[k]
    const gen = up('gen')
    const w = up('width')
    out.set(l.bdf, { bdf: l.bdf, from: o.from, ...(gen ? { gen } : {}), ...(w ? { width: w } : {}) })
  }
  return [...out.values()]
}

/** The under-load record of a topology capture, when it has one; a malformed one is bad input. */
export function readUnderLoad(captureDir: string): UnderLoadRecord | undefined {
  const file = join(captureDir, UNDER_LOAD_FILE)
  if (!existsSync(file)) return undefined
  let rec: UnderLoadRecord
  try {
    rec = JSON.parse(readFileSync(file, 'utf8')) as UnderLoadRecord
  } catch (e) {
    throw badInput(`${file}: not valid JSON (${(e as Error).message})`)
  }
  if (rec.kind !== 'gpucomm-link-under-load' || !Array.isArray(rec.links))
    throw badInput(`${file}: not a gpucomm under-load link record`)
  return rec
}

/**
 * Lays an under-load record over the host facts: a GPU link read at rest takes the loaded
 * current values (its maxima stay: they are the lower of both ends); a GPU with no link read
 * at rest gets the loaded link when its maxima are known. Each such link says it was read
 * under load, and when.
 */
export function applyUnderLoad(
  host: HostFacts | undefined,
  rec: UnderLoadRecord,
  gpus: readonly HostGpu[],
): HostFacts | undefined {
  const out: HostFacts = host
    ? { ...host, links: { ...host.links } }
    : {
        links: {},
        cpu: { states: [], from: [] },
        iommu: { cmdline: [], gpuGroupType: {}, groups: 0, from: [] },
        underLoad: false,
      }
  const note =
    `under load: highest of ${rec.samples} reading` +
    `${rec.samples === 1 ? '' : 's'} during sweep point ${rec.point}, ${rec.at}`
  let used = 0
  for (const l of rec.links) {
    const g = gpus.find((x) => x.busId === l.bdf)
    if (!g) continue
    const links = [...(out.links[g.index] ?? [])]
    const i = links.findIndex((x) => x.role === 'gpu' && x.bdf === l.bdf && x.reading === 'sysfs')
    const rest = links[i]
    const gen =
      l.gen && (rest?.gen?.max ?? l.gen.max)
        ? { current: l.gen.current, max: (rest?.gen?.max ?? l.gen.max) as number }
        : undefined
    const w =
      l.width && (rest?.width?.max ?? l.width.max)
        ? { current: l.width.current, max: (rest?.width?.max ?? l.width.max) as number }
        : undefined
    if (!gen && !w) continue
    const loaded: LinkReading = {
      ...(rest ?? { bdf: l.bdf, role: 'gpu' as const }),
      ...(gen ? { gen } : {}),
      ...(w ? { width: w } : {}),
      reading: rec.source,
      from: l.from,
      underLoad: note,
    }
    if (rest) links[i] = loaded
    else links.unshift(loaded)
    out.links[g.index] = links
    used++
  }
  return used || host ? out : undefined
}
