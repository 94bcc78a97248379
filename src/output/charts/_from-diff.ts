/**
 * Adapter: a diff → its named chart spec. Equal cells are grouped as `gpucomm diff` groups them
 * (pairs of one kind and link class, the groups of a grouping, both placements, at the smallest size), so
 * one bar stands for "56 cross-GPU pairs" rather than 40 bars for 40 of them. Pure.
 */
import type { DiffCell, DiffResult, DigestClasses, DigestGroup } from '../../diff/index.ts'
import { answerSizes, changeText, countsText, diffCounts, digestGroups, groupVerdict } from '../../diff/index.ts'
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

/** The CI of the change B/A − 1 over launches (diff's Welch interval), widened to hold the change itself. */
function ciOf(c: DiffCell): [number, number] {
  return c.deltaCi ? [Math.min(c.deltaCi[0], c.delta), Math.max(c.deltaCi[1], c.delta)] : [c.delta, c.delta]
}

/** What a whisker spans, as the chart's subtitle tells it (groupBar draws it so). */
const WHISKER =
  'whisker: one cell’s 95% CI; several cells: the range of their changes (none significant: of their 95% CIs)'

/**
 * One bar per group: the median change of its cells, coloured by what they say together
 * (groupVerdict: every cell significant one way, none, or mixed). The whisker spans what the
 * colour claims: one cell's 95% CI; the range of several cells' changes (all one way, or mixed);
 * with no cell significant, the span of their CIs, the changes that are not told apart from none.
 */
function groupBar(g: DigestGroup): DiffBar {
  const v = groupVerdict(g.cells)
  const deltas = g.cells.map((c) => c.delta)
  const spans = g.cells.length === 1 || v.kind === 'same' ? g.cells.map(ciOf) : deltas.map((d) => [d, d])
  const kind = v.kind === 'better' ? 'faster' : v.kind === 'worse' ? 'slower' : v.kind
  return {
    label: groupLabel(g),
    delta: median(deltas),
    lo: Math.min(...spans.map((s) => s[0] as number)),
    hi: Math.max(...spans.map((s) => s[1] as number)),
    verdict: kind,
    significant: v.significant,
    cells: v.n,
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
        `tables it (${cells} cells; equal cells in one bar: its cells’ median change). Green: every cell of ` +
        'the bar faster; red: every cell slower; grey (~): none significant; light purple: mixed, with how ' +
        'many of its cells are significant beside it, as the grouped table of `gpucomm diff` counts them; ' +
        `${WHISKER}. ${counts}`,
      spec: diffChart(shown.map(groupBar), ctx, {
        a: side(d.a),
        b: side(d.b),
        total: groups.length,
        whisker: WHISKER,
        counts,
      }),
    },
  ]
}
