/**
 * The sweep's own under-load link reading: during the first bandwidth point it reads each
 * GPU's PCIe link repeatedly (the simulator's model of the preset's link; otherwise sysfs
 * under the host root, or `nvidia-smi -q` where sysfs has no link files) and keeps the
 * highest values, so a link that an idle GPU had dropped to Gen1 is judged at the rate it
 * trains to under load. The record goes beside the topology capture (topology/under-load.json)
 * and into the manifest.
 */
import { existsSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { execa } from 'execa'
import type { LoadedLink, LoadSource, UnderLoadRecord } from '../host/index.ts'
import { highest, readSysfsLinks, UNDER_LOAD_FILE } from '../host/index.ts'
import { parseSmiQuery } from '../machine/index.ts'
import type { Point } from '../sweep/index.ts'
import type { Prepared, SweepDeps } from './_prepare.ts'
import type { SweepExtra } from './_record.ts'

/** Bytes from which a copy or collective is bandwidth-bound (the sizes p2p_bench runs bw tests at). */
const BANDWIDTH_FROM = 64 << 10
/** Time between readings while the point runs. */
const EVERY_MS = 200

/** Whether `p` moves enough bytes to load the links (its largest size is bandwidth-bound). */
export const isBandwidthPoint = (p: Point): boolean => Math.max(0, ...p.sizes) >= BANDWIDTH_FROM

type Reader = { source: LoadSource; read: () => Promise<LoadedLink[]> }

/** How the links of `gpus` are read here, or why they cannot be. */
async function readerFor(prep: Prepared, deps: SweepDeps, gpus: readonly number[]): Promise<Reader | string> {
  const root = prep.spec.hostRoot === undefined ? '/' : resolve(prep.spec.hostRoot)
  const modelled = prep.instruments.find((i) => i.linkUnderLoad)?.linkUnderLoad?.(prep.ctx, gpus) ?? []
  if (prep.simulated && root === '/') {
    const links = modelled.map(
      (l): LoadedLink => ({
        bdf: l.bdf,
        gen: { current: l.gen, max: l.gen },
        width: { current: l.width, max: l.width },
        from: `simulator preset ${prep.spec.preset ?? 'seed-vm'} (SIMULATED link model)`,
      }),
    )
    return links.length ? { source: 'simulated', read: async () => links } : 'the simulator preset models no PCIe link'
  }
  // A simulated sweep on a stand-in root (--sysfs-root) reads the files there, under the preset's bus ids.
  const bus: Record<number, string> = prep.simulated
    ? Object.fromEntries(modelled.map((l, i) => [gpus[i], l.bdf]))
    : { ...prep.knobs?.busIds }
  const found = prep.simulated || Object.keys(bus).length ? undefined : await deps.queryGpus()
  const ids = gpus.flatMap((g) => {
    const b = bus[g] ?? found?.gpus.find((x) => x.index === g)?.busId
    return b ? [b.toLowerCase().replace(/^0{4}(?=[0-9a-f]{4}:)/, '')] : []
  })
  if (ids.length && readSysfsLinks(root, ids).length)
    return { source: 'sysfs', read: async () => readSysfsLinks(root, ids) }
  const none = `no link files under ${join(root, 'sys/bus/pci/devices')} for the GPUs`
  if (prep.simulated) return none
  const smi = found ?? (await deps.queryGpus())
  if (!smi.found) return `${none}, and no nvidia-smi (${smi.reason})`
  return {
    source: 'nvidia-smi -q',
    read: async () => {
      const r = await execa('nvidia-smi', ['-q'], { reject: false, timeout: 10_000 })
      return parseSmiQuery(String(r.stdout ?? ''))
        .filter((l) => ids.includes(l.busId))
        .flatMap((l) =>
          l.gen || l.width
            ? [
                {
                  bdf: l.busId,
                  ...(l.gen ? { gen: l.gen } : {}),
                  ...(l.width ? { width: l.width } : {}),
                  from: 'nvidia-smi -q',
                },
              ]
            : [],
        )
    },
  }
}

/**
 * Runs `work` (a bandwidth point) while reading the links of its GPUs every EVERY_MS; returns
 * its result and the record (the highest readings), or the reason no reading was taken.
 */
export async function readLinksDuring<T>(
  p: Point,
  prep: Prepared,
  deps: SweepDeps,
  work: () => Promise<T>,
): Promise<{ result: T; record?: UnderLoadRecord; reason?: string }> {
  const reader = await readerFor(
    prep,
    deps,
    [...new Set(p.groups.flat())].sort((a, b) => a - b),
  )
  if (typeof reader === 'string') return { result: await work(), reason: reader }
  let links: LoadedLink[] = []
  let samples = 0
  let running = true
  let wake: () => void = () => {}
  const loop = (async () => {
    while (running) {
      try {
        const got = await reader.read()
        if (got.length) {
          links = highest(links, got)
          samples++
        }
      } catch {
        // a failed reading is skipped; the next one may succeed
      }
      if (running)
        await new Promise<void>((r) => {
          wake = r
          setTimeout(r, EVERY_MS).unref()
        })
    }
  })()
  let result: T
  try {
    result = await work()
  } finally {
    running = false
    wake()
  }
  await loop
  if (samples === 0) return { result, reason: `no ${reader.source} link reading succeeded during ${p.id}` }
  const at = new Date().toISOString()
  return {
    result,
    record: { schema: 1, kind: 'gpucomm-link-under-load', point: p.id, at, source: reader.source, samples, links },
  }
}

/** Writes the record beside the set's topology capture and notes it (or the reason) in the manifest's sweep record. */
export function saveUnderLoad(
  out: string,
  extra: SweepExtra,
  got: { record?: UnderLoadRecord; reason?: string },
): void {
  if (!got.record) {
    extra.linkUnderLoad = { reason: got.reason ?? 'no reading' }
    return
  }
  const r = got.record
  const capture = join(out, 'topology')
  const file = existsSync(join(capture, 'capture.json')) ? join('topology', UNDER_LOAD_FILE) : undefined
  if (file) writeFileSync(join(out, file), `${JSON.stringify(r, null, 1)}\n`)
  extra.linkUnderLoad = {
    point: r.point,
    at: r.at,
    source: r.source,
    samples: r.samples,
    links: r.links.map((l) => `${l.bdf} ${l.gen ? `Gen${l.gen.current}` : '?'} x${l.width?.current ?? '?'}`),
    ...(file ? { file } : {}),
  }
}
