/**
 * The report's opening: three to five conclusions with their numbers, before any detail. The
 * floor and why (per link class, with its spread), the best grouping and by how much, the
 * bandwidth pairs reach, and what changed against the baseline.
 */
import type { Analysis, Comparison, LinkClassSummary } from '../analysis/index.ts'
import type { DiffResult } from '../diff/index.ts'
import { changeText } from '../diff/index.ts'
import { formatBytes, formatSeconds } from '../units/index.ts'

const pct = (x: number): string => `${x > 0 ? '+' : ''}${(x * 100).toFixed(Math.abs(x) < 0.1 ? 1 : 0)}%`

/** Why a class's floor is what it is, from what the rows say about peer access. */
function mechanism(c: LinkClassSummary): string {
  if (c.p2p === 'disabled') return 'P2P disabled: every copy is staged through host memory'
  if (c.peerAccess === false)
    return 'P2P requested, but the pairs have no peer access: the driver stages every copy through host memory'
  return 'direct copies between the GPUs (peer access)'
}

/** The floor per link class of small copies between GPUs (P2P requested first). */
function floorLines(a: Analysis): string[] {
  const lat = a.classes.filter((c) => c.bench === 'p2p.latency')
  const pick = lat.filter((c) => c.p2p === 'enabled')
  return (pick.length ? pick : lat)
    .slice(0, 2)
    .map(
      (c) =>
        `Small copies between GPUs cost ${formatSeconds(c.medianAlpha)} each (${c.linkClass} pairs, median floor α of ${c.pairs} pairs, range ${formatSeconds(c.minAlpha)} – ${formatSeconds(c.maxAlpha)}): ${mechanism(c)}.`,
    )
}

/** The best grouping of each compared collective at its smallest and largest size. */
function groupingLines(c: Comparison | undefined): string[] {
  const out: string[] = []
  for (const b of c?.benches.filter((x) => x.groupings.length > 1) ?? []) {
    const ends = [b.sizes[0], b.sizes[b.sizes.length - 1]].filter((s) => s?.winner && s.ratio)
    const parts = [...new Set(ends)].map((s) => {
      const sorted = [...(s?.groupings ?? [])].sort((x, y) => x.median - y.median)
      const [best, next] = sorted
      return `at ${formatBytes(s?.sizeBytes ?? 0)} ${best?.grouping} is ${(s?.ratio ?? 1).toFixed(2)}× faster than ${sorted.at(-1)?.grouping} (${formatSeconds(best?.median ?? NaN)} vs ${formatSeconds(sorted.at(-1)?.median ?? next?.median ?? NaN)})`
    })
    if (parts.length) out.push(`${b.bench}: ${parts.join('; ')}.`)
  }
  return out.slice(0, 2)
}

/** What changed against the baseline: significant cells, the largest change, observed changes. */
function diffLines(d: DiffResult | undefined): string[] {
  if (!d) return []
  const sig = d.cells.filter((c) => c.significant)
  const worse = sig.filter((c) => c.regression).length
  const top = [...sig].sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta))[0]
  const changed = d.cells.filter((c) => c.changed?.length)
  const lines = [
    `Against the baseline ${d.a.id}: ${sig.length} of ${d.cells.length} cells changed significantly (${worse} worse, ${sig.length - worse} better)${top ? `; the largest is ${top.bench} ${top.label}: ${pct(top.delta)}` : ''}.`,
  ]
  if (changed.length)
    lines.push(
      `${changed.length} cells ran under other conditions than in the baseline (${changeText(changed[0]?.changed ?? [])}).`,
    )
  return lines
}

/** Three to five conclusions with their numbers. */
export function summaryLines(a: Analysis, c: Comparison | undefined, d: DiffResult | undefined): string[] {
  return [...floorLines(a), ...groupingLines(c), ...diffLines(d)].slice(0, 5)
}
