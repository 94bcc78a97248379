/**
 * Finding a result set's topology capture (IO): `<set>/topology/` read with the topology
 * module's `collectTopology({ from })` (a capture written by `gpucomm topo --capture`), or a topology report embedded in the manifest
 * (`extra.topology` with `pairs: [{ a, b, link }]`). Absent or unreadable → null and a note
 * saying why; the analysis then treats all pairs as one class.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Manifest } from '../model/index.ts'
import type { TopologyView } from './_join.ts'

/** A report as `gpucomm topo --json` prints it (only the parts the analysis reads). */
interface PairsReport {
  pairs?: { a: number; b: number; link?: string; p2p?: Record<string, string> }[]
  gpus?: { name?: string }[]
  hypervisor?: { detected?: boolean; kind?: string; from?: string[] }
  cpuVendor?: string
}

/** topo -p2p statuses, best first: a pair's status is its worst capability's. */
const STATUS_ORDER = ['OK', 'CNS', 'GNS', 'TNS', 'DR', 'NS', 'U']
const worst = (p2p: Record<string, string>): string | undefined =>
  Object.values(p2p).reduce<string | undefined>(
    (w, v) => (w === undefined || STATUS_ORDER.indexOf(v) > STATUS_ORDER.indexOf(w) ? v : w),
    undefined,
  )

/** A view over a report's pairs (unordered: a–b and b–a share a class), its hypervisor verdict and GPUs. */
export function viewOfReport(report: PairsReport, source: string): TopologyView | null {
  const pairs = report.pairs ?? []
  if (!pairs.some((p) => p.link)) return null
  const key = (a: number, b: number): string => `${Math.min(a, b)}-${Math.max(a, b)}`
  const links = new Map<string, string>()
  const status = new Map<string, string>()
  for (const p of pairs) {
    if (p.link) links.set(key(p.a, p.b), p.link)
    const w = p.p2p ? worst(p.p2p) : undefined
    if (w) status.set(key(p.a, p.b), w)
  }
  const view: TopologyView = {
    source,
    linkClass: (a, b) => links.get(key(a, b)),
    classes: [...new Set(links.values())].sort(),
    p2pStatus: (a, b) => {
      const v = status.get(key(a, b))
      return v ? { value: v, source: `${source} (nvidia-smi topo -p2p)` } : undefined
    },
  }
  const h = report.hypervisor
  if (h && (h.detected || h.kind === 'none'))
    view.vm = { value: h.detected === true, source: `${source} (${(h.from ?? []).join('; ') || 'hypervisor check'})` }
  if (report.cpuVendor) view.cpuVendor = { value: report.cpuVendor, source }
  const name = report.gpus?.find((g) => g.name)?.name
  if (name) view.gpuName = { value: name, source }
  if (report.gpus?.length) view.gpus = report.gpus.length
  return view
}

/** The topology of a result set, or null with the reason. */
export async function loadTopology(
  dir: string,
  manifest: Manifest,
): Promise<{ view: TopologyView | null; note: string }> {
  const embedded = manifest.extra?.topology as PairsReport | undefined
  const capture = join(dir, 'topology')
  if (existsSync(capture)) {
    try {
      // Loaded lazily: only sets with a capture pay for the topology module.
      const { collectTopology } = await import('../topology/index.ts')
      const report = await collectTopology({ from: capture })
      if (report.gpus.length === 1)
        return { view: null, note: 'one GPU in the topology capture: no links between GPUs' }
      const view = viewOfReport(report as PairsReport, capture)
      if (!view) throw new Error('the capture names no link classes')
      return { view, note: 'pairs aggregated by link class' }
    } catch (e) {
      const fromManifest = embedded ? viewOfReport(embedded, 'manifest.json extra.topology') : null
      if (fromManifest) return { view: fromManifest, note: 'pairs aggregated by link class' }
      return {
        view: null,
        note:
          `topology capture ${capture} could not be read (` +
          `${(e as Error).message.split('\n')[0]}): pairs aggregated as one class`,
      }
    }
  }
  const v = embedded ? viewOfReport(embedded, 'manifest.json extra.topology') : null
  return v
    ? { view: v, note: 'pairs aggregated by link class' }
    : { view: null, note: 'no topology capture in the set: pairs aggregated as one class' }
}
