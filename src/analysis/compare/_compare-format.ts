/**
 * `compare` in Markdown and CSV (the text form is `renderComparison`, JSON the `Comparison`
 * itself): per bench and size, each axis value's median and 95 % CI, the ratio, winner and p;
 * the conclusions per size band.
 */
import { stringify } from 'csv-stringify/sync'
import { simLabel } from '../../model/index.ts'
import { mdCode, mdText } from '../../text/index.ts'
import { formatBytes, formatSeconds } from '../../units/index.ts'
import type { Comparison, GroupingStat } from '../_types.ts'

const ciText = (g: GroupingStat): string =>
  `${formatSeconds(g.median)} [${g.ci[0] === null ? '-∞' : formatSeconds(g.ci[0])}, ` +
  `${g.ci[1] === null ? '∞' : formatSeconds(g.ci[1])}] n=${g.n}`

/**
 * How several groups of one axis value were combined, said once per comparison. Groups of a
 * sweep's grouping ran at once; pairs of one p2p matrix ran one after another, so their
 * slowest is the slowest pair, not a step that waited.
 */
export function combinedNote(c: Comparison): string | null {
  const multi = new Set<string>()
  let pairsOnly = true
  const typical = new Set<string>()
  for (const b of c.benches)
    for (const z of b.sizes)
      for (const g of z.groupings)
        if (g.combined === 'median') typical.add(g.grouping)
        else if (g.combined !== 'single') {
          multi.add(g.grouping)
          pairsOnly &&= g.groups.every((x) => x.group.includes('→'))
        }
  const like =
    typical.size > 0
      ? `${[...typical].sort().join(', ')}: against a grouping of another group count, one value per trial, the ` +
        'median of its concurrent groups (like with like: the slowest of two against one group is biased slower)'
      : null
  if (multi.size === 0) return like
  const names = [...multi].sort().join(', ')
  let note: string
  if (pairsOnly)
    note = c.pool
      ? `${names}: one value per trial, the median of every pair's values pooled (--pool)`
      : `${names}: several pairs, one value per trial, the slowest pair's (--pool pools the pairs instead)`
  else
    note = c.pool
      ? `${names}: one value per trial, the median of all its concurrent groups printed (--pool)`
      : `${names}: concurrent groups, one value per trial, the slowest group's (a step waits for the ` +
        `slowest group; --pool pools them instead)`
  return like ? `${like}; ${note}` : note
}

/** The comparison as Markdown: a table per bench, then its conclusions. */
export function comparisonMarkdown(c: Comparison): string {
  const out: string[] = []
  if (c.simulated) out.push(`**${simLabel(c)} data**: these numbers come from gpucomm sim, not from hardware.`, '')
  out.push(`Comparison by ${mdCode(c.by)} of result set ${mdCode(c.id)} (${mdCode(c.dir)})`, '')
  const note = combinedNote(c)
  if (note) out.push(`- ${mdText(note)}`, '')
  for (const b of c.benches) {
    out.push(`### ${mdText(b.bench)} (time per call; median [95% CI])`, '')
    out.push(
      `| size | ${b.groupings.map(mdText).join(' | ')} | ratio | winner | p |`,
      `|---:|${b.groupings.map(() => '---:|').join('')}---:|---|---:|`,
    )
    for (const z of b.sizes) {
      const cells = b.groupings.map((g) => {
        const s = z.groupings.find((x) => x.grouping === g)
        return s ? ciText(s) : '-'
      })
      out.push(
        `| ${formatBytes(z.sizeBytes)} | ${cells.join(' | ')} | ` +
          `${z.ratio === null ? '-' : `${z.ratio.toFixed(2)}×`} | ${mdText(z.winner ?? '-')} | ` +
          `${z.p === null ? '-' : z.p.toPrecision(2)} |`,
      )
    }
    out.push('', ...b.conclusions.map((x) => `- ${mdText(x.text)}`), '')
  }
  for (const w of c.warnings) out.push(`> warning: ${mdText(w)}`)
  return `${out.join('\n').replace(/\n*$/, '')}\n`
}

const num = (x: number | null): number | string => (x === null || !Number.isFinite(x) ? '' : Number(x.toPrecision(12)))

/** The comparison as CSV in base units: one line per bench, size and axis value. */
export function comparisonCsv(c: Comparison): string {
  const rows: (string | number)[][] = [
    ['bench', 'size_bytes', c.by, 'n', 'median_s', 'ci_lo_s', 'ci_hi_s', 'combined', 'winner', 'ratio', 'p'],
  ]
  for (const b of c.benches)
    for (const z of b.sizes)
      for (const g of z.groupings)
        rows.push([
          b.bench,
          z.sizeBytes,
          g.grouping,
          g.n,
          num(g.median),
          num(g.ci[0]),
          num(g.ci[1]),
          g.combined,
          z.winner ?? '',
          num(z.ratio),
          num(z.p),
        ])
  return stringify(rows)
}
