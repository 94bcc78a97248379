/**
 * Adapter: an analysis's per-pair floors → one pair heatmap per P2P state (and copy kind), with
 * a caption that says why a diagonal cell was not run. Pure.
 */
import type { Analysis, Fit } from '../../analysis/index.ts'
import type { ChartContext } from './_common.ts'
import { measuredAs, p2pState } from './_common.ts'
import type { NamedChart } from './_from.ts'
import { noPeerAccess } from './_from.ts'
import { heatmapChart } from './_heatmap.ts'

/** Why diagonal cells say "not run", when some GPU of the matrix has no copy to itself. */
function notRunNote(fits: readonly Fit[]): string {
  const gpus = new Set(fits.flatMap((f) => [f.src, f.dst]))
  const self = new Set(fits.filter((f) => f.src === f.dst).map((f) => f.src))
  if ([...gpus].every((g) => self.has(g))) return ''
  return p2pState(fits[0] as Fit) === 'disabled'
    ? ' A GPU’s copy to itself never leaves the GPU, so there is no P2P to turn off: p2p_bench skips it ' +
        'with P2P off, and those diagonal cells say "not run" (the P2P-on chart has them).'
    : ' Diagonal cells that say "not run": this set has no copy of that GPU to itself.'
}

/** Pair heatmaps of the floor α (latency) per P2P state, annotated with the link class. */
export function heatmapCharts(analysis: Analysis, ctx: ChartContext): NamedChart[] {
  const byState = new Map<string, Fit[]>()
  for (const f of analysis.fits) {
    if (f.src === undefined || f.dst === undefined || !f.bench.startsWith('p2p.')) continue
    const k = `${f.bench} p2p=${p2pState(f) ?? 'n/a'}${f.copy ? ` ${f.copy}` : ''}`
    byState.set(k, [...(byState.get(k) ?? []), f])
  }
  return [...byState].map(([k, fits]) => {
    // P2P asked for, but no pair had peer access: the copies were host-staged, and the title says so.
    const f0 = fits[0] as Fit
    const what = `${f0.bench}, ${measuredAs(p2pState(f0), noPeerAccess(fits), f0.copy ?? null)}`
    return {
      name: `heatmap-${k.replace(/[^\w]+/g, '-')}`,
      kind: 'heatmap' as const,
      title: `Pair floors: ${what}`,
      caption:
        'Floor α per ordered pair (row = source GPU, column = destination), with the link class ' +
        `where the set has a topology capture.${notRunNote(fits)}`,
      spec: heatmapChart(
        fits.map((f) => ({
          src: f.src as number,
          dst: f.dst as number,
          value: f.alpha,
          ...(f.linkClass ? { link: f.linkClass } : {}),
        })),
        'latency',
        `Floor α per pair: ${what}`,
        ctx,
      ),
    }
  })
}
