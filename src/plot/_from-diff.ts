/** Adapter: a diff → its named chart spec (the largest changes, with their CIs). Pure. */
import type { DiffResult } from '../diff/index.ts'
import { changeText } from '../diff/index.ts'
import { formatBytes } from '../units/index.ts'
import type { ChartContext } from './_common.ts'
import { diffChart } from './_diff.ts'
import type { NamedChart } from './_from.ts'

/** A short row label of a diff cell: bench, pair or group, P2P state and size. */
function diffLabel(c: DiffResult['cells'][number]): string {
  const k = c.config
  const who =
    k.src !== null && k.dst !== null
      ? `${k.src}→${k.dst}`
      : k.group
        ? `${k.group}${k.grouping ? ` ${k.grouping}` : ''}`
        : k.ranks !== null
          ? `${k.ranks} ranks`
          : ''
  const extra = [
    k.p2p ? `p2p ${k.p2p === 'enabled' ? 'on' : 'off'}` : '',
    k.copy ?? '',
    k.env
      ? Object.entries(k.env)
          .map(([e, v]) => `${e}=${v}`)
          .join(' ')
      : '',
  ]
    .filter(Boolean)
    .join(' ')
  const changed = c.changed?.length ? changeText(c.changed) : ''
  return [
    c.bench.replace(/^(nccl|p2p)\./, ''),
    who,
    extra,
    k.sizeBytes !== null ? formatBytes(k.sizeBytes) : '',
    changed,
  ]
    .filter(Boolean)
    .join(' · ')
}

/** The most cells the diff chart shows: the largest |delta| first. */
const DIFF_TOP = 40

/** The CI of a relative change B/A − 1 from the two medians' CIs (the extreme ratios of their ends). */
function deltaCi(c: DiffResult['cells'][number]): { lo?: number; hi?: number } {
  const [al, ah] = c.a.ci
  const [bl, bh] = c.b.ci
  if (![al, ah, bl, bh].every((v) => Number.isFinite(v) && v > 0)) return {}
  return { lo: bl / ah - 1, hi: bh / al - 1 }
}

/** Delta % of the cells of a diff that moved most (time and latency cells), with CI whiskers; A and B named. */
export function diffCharts(d: DiffResult, ctx: ChartContext): NamedChart[] {
  // Times and latencies are the headline (bandwidth mirrors them); out-of-place only, like nccl-tests' summary.
  const all = d.cells.filter(
    (c) =>
      (c.metric === 'time' || c.metric === 'latency') &&
      c.config.placement !== 'in-place' &&
      !(c.config.timer === 'cpu' && c.bench.startsWith('p2p.')) &&
      Number.isFinite(c.delta),
  )
  if (all.length === 0) return []
  const shown = [...all].sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta)).slice(0, DIFF_TOP)
  const bars = shown.map((c) => ({ label: diffLabel(c), delta: c.delta, significant: c.significant, ...deltaCi(c) }))
  const side = (s: DiffResult['a']): string => `${s.id}${s.simulated ? ' (SIMULATED)' : ''}`
  return [
    {
      name: 'diff',
      kind: 'diff',
      title: 'Change against the baseline',
      caption:
        `Relative change of each cell's median, B (${d.b.id}) vs A (${d.a.id}), for the ` +
        `${shown.length} of ` +
        `${all.length} time cells that moved most, with the 95% CI of the change; green is faster, red slower, grey no ` +
        'significant change.',
      spec: diffChart(bars, ctx, { a: side(d.a), b: side(d.b), total: all.length }),
    },
  ]
}
