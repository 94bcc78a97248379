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

/** A report with pairs as `gpucomm topo --json` prints them. */
interface PairsReport {
  pairs?: { a: number; b: number; link?: string }[]
}

/** A view over a report's pairs (unordered: a–b and b–a share a class). */
export function viewOfReport(report: PairsReport, source: string): TopologyView | null {
  const pairs = report.pairs ?? []
  if (!pairs.some((p) => p.link)) return null
  const map = new Map<string, string>()
  for (const p of pairs) if (p.link) map.set(`${Math.min(p.a, p.b)}-${Math.max(p.a, p.b)}`, p.link)
  return { source, linkClass: (a, b) => map.get(`${Math.min(a, b)}-${Math.max(a, b)}`) }
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
      const { collectTopology, pairLinkClass } = await import('../topology/index.ts')
      const report = await collectTopology({ from: capture })
      if (report.gpus.length === 1)
        return { view: null, note: 'one GPU in the topology capture: no links between GPUs' }
      if (!report.pairs.some((p) => p.link)) throw new Error('the capture names no link classes')
      return {
        view: { source: capture, linkClass: (a, b) => pairLinkClass(report, a, b) },
        note: 'pairs aggregated by link class',
      }
    } catch (e) {
      const fromManifest = embedded ? viewOfReport(embedded, 'manifest.json extra.topology') : null
      if (fromManifest) return { view: fromManifest, note: 'pairs aggregated by link class' }
      return {
        view: null,
        note: `topology capture ${capture} could not be read (${(e as Error).message.split('\n')[0]}): pairs aggregated as one class`,
      }
    }
  }
  const v = embedded ? viewOfReport(embedded, 'manifest.json extra.topology') : null
  return v
    ? { view: v, note: 'pairs aggregated by link class' }
    : { view: null, note: 'no topology capture in the set: pairs aggregated as one class' }
}
