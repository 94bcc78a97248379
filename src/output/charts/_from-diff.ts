/**
 * Adapter: a diff → its named chart spec. Equal cells are grouped as `gpucomm diff` groups them
 * (pairs of one kind and link class, the groups of a grouping, both placements, at the smallest size), so
 * one bar stands for "56 cross-GPU pairs" rather than 40 bars for 40 of them. Pure.
 */
import type { DiffCell, DiffResult, DigestClasses, DigestGroup } from '../../diff/index.ts'
import { answerSizes, changeText, countsText, diffCounts, digestGroups } from '../../diff/index.ts'
import { formatBytes } from '../../units/index.ts'
import type { ChartContext } from './_common.ts'
import type { DiffBar } from './_diff.ts'
import { diffChart } from './_diff.ts'
import type { NamedChart } from './_from.ts'

/** The observed change every cell of a group shares ("peer access: no → yes"), or ''. */
function sharedChange(cells: readonly DiffCell[]): string {
  const texts = new Set(cells.map((c) => (c.changed?.length ? changeText(c.changed) : '')))
  return texts.size === 1 ? ([...texts][0] as string) : ''
}

/** A row label of a group: bench, who (pairs or groups, link class), conditions, size, observed change. */
function groupLabel(g: DigestGroup): string {
  return [
    g.bench.replace(/^(nccl|p2p)\./, ''),
    g.who,
    g.conditions.replace(/\b(dtype|redop)=\S+ ?/g, '').trim(),
    g.size !== null ? formatBytes(g.size) : '',
    sharedChange(g.cells),
  ]
    .filter(Boolean)
    .join(' · ')
}

/** The most bars the diff chart shows: the groups with the largest |median delta| first. */
const DIFF_TOP = 30

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((x, y) => x - y)
  const m = s.length >> 1
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2
}

/** The CI of the change B/A − 1 over launches (diff's Welch interval); none from one launch a side. */
function deltaCi(c: DiffCell): { lo?: number; hi?: number } {
  return c.deltaCi ? { lo: c.deltaCi[0], hi: c.deltaCi[1] } : {}
}

/**
 * One bar per group: the median change of its cells; the whisker spans its cells' changes (one
 * cell: the 95% CI of its change); significant when most of its cells are.
 */
function groupBar(g: DigestGroup): DiffBar {
  const deltas = g.cells.map((c) => c.delta)
  const one = g.cells.length === 1 && g.cells[0] ? deltaCi(g.cells[0]) : {}
  return {
    label: groupLabel(g),
    delta: median(deltas),
    lo: one.lo ?? Math.min(...deltas),
    hi: one.hi ?? Math.max(...deltas),
    significant: g.cells.filter((c) => c.significant).length * 2 > g.cells.length,
  }
}

/** Time and latency cells the chart draws: finite deltas, not the CPU-timed p2p copies. */
const charted = (c: DiffCell): boolean =>
  (c.metric === 'time' || c.metric === 'latency') &&
  !(c.config.timer === 'cpu' && c.bench.startsWith('p2p.')) &&
  Number.isFinite(c.delta)

/**
 * Delta % of the groups of time and latency cells that moved most, with their spread; A and B
 * named, and every tested cell counted as `gpucomm diff` counts it (diffCounts).
 */
export function diffCharts(d: DiffResult, ctx: ChartContext, classes: DigestClasses = {}): NamedChart[] {
  // One size per series, the smallest (the floor), as the grouped table of `gpucomm diff` shows it.
  const groups = answerSizes(digestGroups({ ...d, cells: d.cells.filter(charted) }, classes))
  if (groups.length === 0) return []
  const shown = [...groups]
    .sort((x, y) => Math.abs(median(y.cells.map((c) => c.delta))) - Math.abs(median(x.cells.map((c) => c.delta))))
    .slice(0, DIFF_TOP)
  const cells = shown.reduce((n, g) => n + g.cells.length, 0)
  const side = (s: DiffResult['a']): string => `${s.id}${s.simulated ? ' (SIMULATED)' : ''}`
  const counts = countsText(diffCounts(d), d.alpha)
  return [
    {
      name: 'diff',
      kind: 'diff',
      title: 'Change against the baseline',
      caption:
        `Relative change of the median, B (${d.b.id}) vs A (${d.a.id}), for the ${shown.length} of ` +
        `${groups.length} groups of time cells that moved most, each at its smallest size as \`gpucomm diff\` ` +
        `tables it (${cells} cells; equal cells in one bar: ` +
        'its cells’ median change, the whisker spans their changes, or one cell’s 95% CI); green is ' +
        `faster, red slower, grey no significant change. ${counts}`,
      spec: diffChart(shown.map(groupBar), ctx, {
        a: side(d.a),
        b: side(d.b),
        total: groups.length,
        counts,
      }),
    },
  ]
}
