/**
 * The report's opening: three to five conclusions with their numbers, before any detail. The
 * floor and its mechanism (per link class, with its spread, the fact it rests on and the band
 * it falls in, from the analysis' verdicts), the collective's floor and transport, the best
 * grouping and by how much, and what changed against the baseline.
 */
import type { Analysis, Comparison, Fit, LinkClassSummary } from '../../analysis/index.ts'
import { bandClause, statedBand } from '../../analysis/index.ts'
import type { DiffResult, DigestClasses } from '../../diff/index.ts'
import { changeText, diffHeadline } from '../../diff/index.ts'
import { formatBytes, formatSeconds } from '../../units/index.ts'

/**
 * Why the floors of some fits are what they are, from the analysis (issue 12's verdicts): the
 * mechanism, the strongest fact it rests on, the published band the stated floor `value` falls
 * in (or the nearest one and its signed distance), and any conflicting evidence. The band's
 * position is that of `value` (the number the sentence states), not of some other fit's floor;
 * a band compared at fitted times (not the floor) keeps the position of the fit nearest `value`.
 */
export function why(fits: readonly Fit[], value?: number): string {
  const stated = statedBand(fits, value)
  if (!stated) return 'mechanism not determined'
  const { mechanism: m, fits: same, band: c } = stated
  const ev = [...(same[0]?.evidence ?? [])].sort((x, y) => x.strength - y.strength)[0]
  const band = c ? `; ${bandClause(c)}` : ''
  const conflict = same.flatMap((f) => f.conflicts)[0]
  return `${m.text}${ev ? ` (evidence: ${ev.fact})` : ''}${band}${conflict ? `; but ${conflict.text}` : ''}`
}

/** The fits of a link class: its bench, P2P state and link class, between two GPUs. */
const fitsOf = (a: Analysis, c: LinkClassSummary): Fit[] =>
  a.fits.filter(
    (f) =>
      f.bench === c.bench &&
      (f.p2p ?? null) === c.p2p &&
      (f.linkClass ?? 'all') === c.linkClass &&
      f.src !== undefined &&
      f.src !== f.dst,
  )

/** The floor per link class of small copies between GPUs (P2P requested first), and why. */
function floorLines(a: Analysis): string[] {
  const lat = a.classes.filter((c) => c.bench === 'p2p.latency')
  const pick = lat.filter((c) => c.p2p === 'enabled')
  return (pick.length ? pick : lat)
    .slice(0, 2)
    .map(
      (c) =>
        `Small copies between GPUs cost ${formatSeconds(c.medianAlpha)} each (` +
        `${c.linkClass} pairs, median floor α of ${c.pairs} pairs, range ` +
        `${formatSeconds(c.minAlpha)} – ${formatSeconds(c.maxAlpha)}): ${why(fitsOf(a, c), c.medianAlpha)}.`,
    )
}

/** The collective floor of the largest group, and why (NCCL's transport). */
function collectiveLines(a: Analysis): string[] {
  const groups = a.fits.filter((f) => f.src === undefined && f.bench.startsWith('nccl.'))
  const ranks = (f: Fit): number => f.ranks ?? 0
  const top = [...groups].sort((x, y) => ranks(y) - ranks(x) || x.bench.localeCompare(y.bench))[0]
  if (!top) return []
  const same = groups.filter((f) => f.bench === top.bench && ranks(f) === ranks(top))
  return [
    `${top.bench} on ${ranks(top)} GPUs starts at ${formatSeconds(top.alpha)} (floor α): ${why(same, top.alpha)}.`,
  ]
}

/** The best grouping of each compared collective at its smallest and largest size. */
function groupingLines(c: Comparison | undefined): string[] {
  const out: string[] = []
  for (const b of c?.benches.filter((x) => x.groupings.length > 1) ?? []) {
    const ends = [b.sizes[0], b.sizes[b.sizes.length - 1]].filter((s) => s?.winner && s.ratio)
    const parts = [...new Set(ends)].map((s) => {
      const sorted = [...(s?.groupings ?? [])].sort((x, y) => x.median - y.median)
      const [best, next] = sorted
      return (
        `at ${formatBytes(s?.sizeBytes ?? 0)} ${best?.grouping} is ` +
        `${(s?.ratio ?? 1).toFixed(2)}× faster than ${sorted.at(-1)?.grouping} (` +
        `${formatSeconds(best?.median ?? NaN)} vs ` +
        `${formatSeconds(sorted.at(-1)?.median ?? next?.median ?? NaN)})`
      )
    })
    if (parts.length) out.push(`${b.bench}: ${parts.join('; ')}.`)
  }
  return out.slice(0, 2)
}

/**
 * What changed against the baseline, in the words and counts of `gpucomm diff` (its answer's
 * sentences: the largest change over grouped cells, then every tested cell counted once), and
 * how many cells ran under other conditions.
 */
function diffLines(d: DiffResult | undefined, classes: DigestClasses): string[] {
  if (!d) return []
  const lines = diffHeadline(d, classes).map((l, i) => (i === 0 ? `Against the baseline ${d.a.id}: ${l}` : l))
  const changed = d.cells.filter((c) => c.changed?.length)
  if (changed.length)
    lines.push(
      `${changed.length} cells ran under other conditions than in the baseline (` +
        `${changeText(changed[0]?.changed ?? [])}).`,
    )
  return lines
}

/** Three to five conclusions with their numbers; against a baseline, what changed first. */
export function summaryLines(
  a: Analysis,
  c: Comparison | undefined,
  d: DiffResult | undefined,
  classes: DigestClasses = {},
): string[] {
  const floors = floorLines(a)
  // Against a baseline the question is what changed: that answer comes first.
  if (d)
    return [...diffLines(d, classes), ...floors.slice(0, 1), ...collectiveLines(a), ...groupingLines(c)].slice(0, 5)
  const rest = [...collectiveLines(a), ...groupingLines(c).slice(0, 1)]
  return [...floors.slice(0, Math.max(1, 5 - rest.length)), ...rest].slice(0, 5)
}
