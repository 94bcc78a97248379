/**
 * `compare` answered first: which value of the axis is faster, by how much and why, band by
 * band (the conclusions' sentences: ratio with its interval and the α–β reading), then a table
 * with one row per band of sizes (each value's median range over those sizes), then what was
 * left out with the flag that shows it. Every size stays in `--all`, `--format md|csv|json`.
 */
import type { Answer } from '../text/index.ts'
import { plural, rangeText, renderAnswer } from '../text/index.ts'
import { formatBytes } from '../units/index.ts'
import { decodeText, renderComparison } from './_text.ts'
import type { BenchComparison, Comparison, Conclusion, SizeBand } from './_types.ts'
import { combinedNote } from './compare/_compare-format.ts'

/** The most conclusions the answer states; the rest are rows of the table. */
const ANSWER_SENTENCES = 4

const BAND: Record<SizeBand, string> = {
  latency: 'latency-bound',
  transition: 'between',
  bandwidth: 'bandwidth-bound',
}

/** One value's medians over the sizes of a band: "tp4 20.42–25.5 µs". */
function medians(b: BenchComparison, c: Conclusion, grouping: string): string {
  const at = b.sizes
    .filter((z) => z.sizeBytes >= c.fromBytes && z.sizeBytes <= c.toBytes)
    .flatMap((z) => z.groupings.filter((g) => g.grouping === grouping).map((g) => g.median))
  return `${grouping} ${rangeText(at, 's')}`
}

/** "1.84× [1.81, 1.87]" (the conclusion's ratio and interval), or the ratio alone when its interval is open. */
function ratioText(c: Conclusion): string {
  const [lo, hi] = c.ci
  return lo === null || hi === null
    ? `${c.ratio.toFixed(2)}×`
    : `${c.ratio.toFixed(2)}× [${lo.toFixed(2)}, ${hi.toFixed(2)}]`
}

function bandRow(b: BenchComparison, c: Conclusion): string[] {
  const sizes =
    c.fromBytes === c.toBytes ? formatBytes(c.fromBytes) : `${formatBytes(c.fromBytes)}–${formatBytes(c.toBytes)}`
  return [
    b.bench,
    `${sizes} (${plural(c.sizes, 'size')})`,
    BAND[c.band],
    medians(b, c, c.faster),
    medians(b, c, c.slower),
    ratioText(c),
    c.clear ? c.faster : '~ (within the noise)',
  ]
}

/** The answer of a comparison: the conclusions, a row per band, what was left out. */
export function comparisonAnswer(c: Comparison, full = false): Answer {
  const all = c.benches.flatMap((b) => b.conclusions.map((x) => ({ b, x })))
  const measured = c.benches.filter((b) => b.groupings.length > 1)
  const answer = all.slice(0, ANSWER_SENTENCES).map(({ x }) => x.text)
  if (answer.length === 0)
    answer.push(
      measured.length === 0
        ? `Only one value of ${c.by} was measured: nothing to compare (--by names another axis).`
        : 'No band of sizes could be compared (too few trials or sizes; --all prints every size).',
    )
  const sizes = c.benches.reduce((n, b) => n + b.sizes.length, 0)
  const left: string[] = []
  if (!full) {
    if (sizes > 0)
      left.push(
        `${plural(sizes, 'size')} one by one: each value's median, 95 % CI and n, the ratio, winner and p ` +
          '(--all; --format md|csv|json)',
      )
    if (all.length > ANSWER_SENTENCES) left.push(`${all.length - ANSWER_SENTENCES} more conclusions (the table; --all)`)
    if (c.warnings.length) left.push(`${plural(c.warnings.length, 'warning')} (--all)`)
  }
  const note = combinedNote(c)
  return {
    question: `Which ${c.by} is faster, by how much, and why?`,
    answer,
    table: {
      title: 'Sizes grouped by where they sit on the α–β line (ratio slower/faster with its 95 % interval):',
      header: ['bench', 'sizes', 'regime', 'faster', 'slower', 'ratio', 'winner'],
      rows: all.map(({ b, x }) => bandRow(b, x)),
    },
    after: [
      ...(note ? [note] : []),
      // With --model, the decode model follows the answer (it is what --model asked).
      ...(c.decode && !full ? ['', ...decodeText(c.decode).replace(/^\n+/, '').trimEnd().split('\n')] : []),
    ],
    left,
  }
}

/** The default `compare` text: the answer first; with `all`, every size after it (the full comparison). */
export function comparisonAnswerText(c: Comparison, all = false): string {
  const head = `${c.simulated ? 'SIMULATED ' : ''}comparison by ${c.by} of result set ${c.id} (${c.dir})\n`
  const answer = head + renderAnswer(comparisonAnswer(c, all))
  return all ? `${answer}\nEvery size:\n${renderComparison(c).split('\n').slice(1).join('\n')}` : answer
}
