/**
 * The report's floors section, grouped as the text outputs group it: the notes, one row per
 * class of fits (pairs of one kind, link class and mechanism; the groups of a grouping) with its
 * floor against its published band, then, collapsed, the verdicts and every fit. The
 * latency-vs-size charts stay open; the per-pair heatmaps fold away when a latency chart of the
 * pairs is drawn (without one they are the pairs' only picture and stay open).
 */
import type { Analysis } from '../../analysis/index.ts'
import { alphaCiText, groupedFloors, subjectOf } from '../../analysis/index.ts'
import { formatRate, formatSeconds } from '../../units/index.ts'
import type { NamedChart } from '../charts/index.ts'
import type { ReportChart, Section } from './_html.ts'
import { details, html, list, paragraphs, table } from './_html.ts'

/** Seconds in human units; '–' for a missing or non-finite value. */
export const orDash = (v: number | null | undefined): string =>
  v === null || v === undefined || !Number.isFinite(v) ? '–' : formatSeconds(v)

export const toReportChart = (c: NamedChart): ReportChart => ({
  id: c.name,
  title: c.title,
  caption: c.caption,
  spec: c.spec,
})

/** Floors against the expectation bands: the grouped table first, the detail collapsed. */
export function floorSection(a: Analysis, charts: NamedChart[]): Section {
  const notes = [
    ...new Set([
      ...a.verdicts
        .filter((v) => v.kind === 'outlier' || v.kind === 'note')
        .map((v) => (v.kind === 'note' ? v.text : `${v.subject}: ${v.text}`)),
      ...a.notes,
    ]),
  ]
  // Per link class and per group: the verdicts the grouped table sums up, every word kept.
  const verdicts = [
    ...a.verdicts.filter((v) => v.kind === 'class').map((v) => `${v.subject}: ${v.text}`),
    ...a.fits.filter((f) => f.src === undefined).map((f) => f.verdict),
  ]
  const grouped = groupedFloors(a)
  const rows = a.fits.map((f) => [
    subjectOf(f),
    f.linkClass ?? '–',
    orDash(f.alpha),
    f.alphaCi[0] === f.alphaCi[1] ? alphaCiText(f) : `[${orDash(f.alphaCi[0])}, ${orDash(f.alphaCi[1])}]`,
    f.beta ? formatRate(f.beta) : '–',
    f.bands.join(' ') || '–',
  ])
  const body = html`${paragraphs(notes)}${grouped.rows.length ? table(grouped.header, grouped.rows) : ''}${
    verdicts.length
      ? details(`Verdicts per link class and group (${verdicts.length}): mechanism, evidence and bands`, list(verdicts))
      : ''
  }${details(
    `All ${a.fits.length} fits (α–β per pair and group, 95% bootstrap CI, bands the floor falls in)`,
    table(['subject', 'link', 'α (floor)', 'α 95% CI', 'β', 'bands'], rows),
  )}${a.warnings.length ? details(`${a.warnings.length} warnings`, list(a.warnings)) : ''}`
  const pairsDrawn = charts.some((c) => c.kind === 'latency' && c.name.startsWith('latency-p2p'))
  const fold = pairsDrawn ? charts.filter((c) => c.kind === 'heatmap') : []
  return {
    id: 'floors',
    title: 'Floors against the expectation bands',
    body,
    charts: charts.filter((c) => !fold.includes(c)).map(toReportChart),
    ...(fold.length
      ? { folded: { summary: `Per-pair floors as heatmaps (${fold.length} charts)`, charts: fold.map(toReportChart) } }
      : {}),
  }
}
