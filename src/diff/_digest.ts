/**
 * The diff answered first: which change is largest (numbers and mechanism), a table of grouped
 * cells (pairs of one kind and link class in one row, the concurrent groups of a grouping in
 * one row, in- and out-of-place together), one size per series (the smallest for times and
 * latencies, the largest for bandwidths), and what was left out with the flag that shows it.
 * It groups whatever the cells carry; the statistics stay diffSets' own.
 */
import type { Answer } from '../text/index.ts'
import { ANSWER_ROWS, pctRange, plural, rangeText, renderAnswer } from '../text/index.ts'
import { formatBytes } from '../units/index.ts'
import type { GroupVerdict } from './_counts.ts'
import { countsText, diffCounts, groupVerdict } from './_counts.ts'
import { diffText } from './_format.ts'
import { changeText } from './_observed.ts'
import type { TableProjection } from './_project.ts'
import type { DiffCell, DiffResult } from './_types.ts'

/** A pair's link class on one side of the diff ("PHB", "NODE"), when that set's topology names it. */
export type LinkClassOf = (src: number, dst: number) => string | undefined

/** Link classes of the two sets, where their topology captures name them. */
export interface DigestClasses {
  a?: LinkClassOf
  b?: LinkClassOf
}

/** One row of the grouped table: cells alike but for pair, group, placement. */
export interface DigestGroup {
  bench: string
  metric: string
  /** "p2p=enabled copy=ce": the conditions the cells share. */
  conditions: string
  /** "56 cross-GPU pairs (PHB → NODE)", "tp4: 2 groups of 4". */
  who: string
  size: number | null
  cells: DiffCell[]
}

const SHARED = ['p2p', 'copy', 'staging', 'direction', 'dtype', 'redop', 'root'] as const

function conditions(c: DiffCell): string {
  const k = c.config
  const parts: string[] = SHARED.filter((f) => k[f] !== undefined && k[f] !== null).map((f) => `${f}=${k[f]}`)
  for (const [n, v] of Object.entries(k.env ?? {})) parts.push(`${n}=${v}`)
  for (const [n, v] of Object.entries(k.hostAxis ?? {})) parts.push(`${n}=${v}`)
  return parts.join(' ')
}

/** The kind of pair or group a cell belongs to, for grouping ("cross-GPU|PHB|NODE", "tp4|4"). */
function kindOf(c: DiffCell, classes: DigestClasses): string {
  const { src, dst } = c.config
  if (src !== null && dst !== null) {
    if (src === dst) return 'same GPU'
    const a = classes.a?.(src, dst) ?? ''
    const b = classes.b?.(src, dst) ?? ''
    return `cross-GPU|${a}|${b}`
  }
  return `${c.config.grouping ?? ''}|${c.config.ranks ?? ''}`
}

function whoText(kind: string, cells: readonly DiffCell[]): string {
  const first = cells[0]?.config
  if (kind === 'same GPU') return `${plural(new Set(cells.map((c) => c.config.src)).size, 'GPU')} to itself`
  if (kind.startsWith('cross-GPU')) {
    const [, a, b] = kind.split('|')
    const pairs = new Set(cells.map((c) => `${c.config.src}>${c.config.dst}`)).size
    const cls = a || b ? ` (${a === b ? a : `${a || '?'} → ${b || '?'}`})` : ''
    return `${plural(pairs, 'cross-GPU pair')}${cls}`
  }
  const groups = new Set(cells.map((c) => c.config.group ?? '')).size
  const ranks = first?.ranks
  const size = ranks === null || ranks === undefined ? '' : ` of ${ranks}`
  const name = first?.grouping ? `${first.grouping}: ` : ''
  return `${name}${plural(groups, 'group')}${size}`
}

const sizeOf = (c: DiffCell): number | null => c.config.requestedBytes ?? c.config.sizeBytes

/** Tested cells grouped into rows (every size), in the order of the cells. */
export function digestGroups(r: DiffResult, classes: DigestClasses = {}): DigestGroup[] {
  const groups = new Map<string, DigestGroup>()
  for (const c of r.cells) {
    if (!c.tested) continue
    const kind = kindOf(c, classes)
    const key = [c.bench, c.metric, conditions(c), kind, sizeOf(c)].join('\u0000')
    const g = groups.get(key)
    if (g) g.cells.push(c)
    else
      groups.set(key, {
        bench: c.bench,
        metric: c.metric,
        conditions: conditions(c),
        who: kind,
        size: sizeOf(c),
        cells: [c],
      })
  }
  const out = [...groups.values()]
  for (const g of out) g.who = whoText(g.who, g.cells)
  return out
}

/** One size per series: the smallest for times and latencies (the floor), the largest for bandwidths. */
export function answerSizes(groups: readonly DigestGroup[]): DigestGroup[] {
  const best = new Map<string, DigestGroup>()
  for (const g of groups) {
    const key = [g.bench, g.metric, g.conditions, g.who].join('\u0000')
    const higher = g.cells[0]?.better === 'higher'
    const cur = best.get(key)
    const size = g.size ?? 0
    if (!cur || (higher ? size > (cur.size ?? 0) : size < (cur.size ?? 0))) best.set(key, g)
  }
  return groups.filter((g) => best.get([g.bench, g.metric, g.conditions, g.who].join('\u0000')) === g)
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((x, y) => x - y)
  const m = s.length >> 1
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2
}

/** "24 better", "20 ~, 4 worse": how the group's cells tested (diffCounts over the group). */
function verdictText(cells: readonly DiffCell[]): string {
  const n = diffCounts({ cells, onlyA: [], onlyB: [] })
  const parts: string[] = []
  if (n.better) parts.push(`${n.better} better`)
  if (n.worse) parts.push(`${n.worse} worse`)
  if (n.same) parts.push(`${n.same} ~`)
  if (n.untestable) parts.push(`${n.untestable} untestable`)
  return parts.join(', ')
}

/** The observed change shared by every cell of the group ("peer access: no → yes"), or ''. */
function sharedChange(cells: readonly DiffCell[]): string {
  const texts = new Set(cells.map((c) => (c.changed?.length ? changeText(c.changed) : '')))
  return texts.size === 1 ? ([...texts][0] as string) : ''
}

const sizeText = (g: DigestGroup): string => (g.size === null ? '-' : formatBytes(g.size))

function groupLine(g: DigestGroup): string[] {
  return [
    `${g.bench} ${g.metric}`,
    g.conditions || '-',
    g.who,
    sizeText(g),
    rangeText(
      g.cells.map((c) => c.a.median),
      g.cells[0]?.unit ?? 's',
    ),
    rangeText(
      g.cells.map((c) => c.b.median),
      g.cells[0]?.unit ?? 's',
    ),
    pctRange(g.cells.map((c) => c.delta)),
    verdictText(g.cells),
  ]
}

/** The group the answer names: most of its cells significant, then the largest median change. */
function headlineGroup(rows: readonly DigestGroup[]): DigestGroup | undefined {
  const score = (g: DigestGroup): number => Math.abs(median(g.cells.map((c) => c.delta)))
  const sig = (g: DigestGroup): boolean => g.cells.filter((c) => c.significant).length * 2 > g.cells.length
  const pick = rows.filter(sig)
  return [...(pick.length ? pick : rows)].sort((x, y) => score(y) - score(x))[0]
}

const count = (n: number): string => n.toLocaleString('en-US')

/** The headline's word for a group's verdict: as the diff chart colours the group's bar. */
function verdictWord(v: GroupVerdict): string {
  if (v.kind === 'mixed') return `mixed: ${v.significant} of ${v.n} cells significant`
  return v.kind === 'same' ? 'no significant change' : v.kind
}
const seriesKey = (g: DigestGroup): string => [g.bench, g.metric, g.conditions, g.size].join('\u0000')

/**
 * The answer's sentences: the largest change over pairs of every link class together (then
 * B's range per class), its mechanism, and how all tested cells came out.
 */
function headline(r: DiffResult, byClass: readonly DigestGroup[]): string[] {
  const n = diffCounts(r)
  if (n.tested === 0)
    return [`No cell was tested: ${count(n.cells)} cells in both sets, ${count(n.onlyA + n.onlyB)} in one only.`]
  const { better, worse } = n
  const total = countsText(n, r.alpha)
  const g = headlineGroup(answerSizes(digestGroups(r)))
  if (!g) return [total]
  const unit = g.cells[0]?.unit ?? 's'
  const d = median(g.cells.map((c) => c.delta))
  const dir = verdictWord(groupVerdict(g.cells))
  const change = sharedChange(g.cells)
  const cross = (x: DigestGroup): boolean => x.who.includes('cross-GPU')
  const parts = byClass.filter((x) => seriesKey(x) === seriesKey(g) && cross(x) && cross(g) && x.who !== g.who)
  const perClass =
    parts.length > 1
      ? `; by link class: ${parts
          .map(
            (x) =>
              `${x.who.replace(/^\d+ cross-GPU pairs? \((.*)\)$/, '$1')} ${rangeText(
                x.cells.map((c) => c.b.median),
                unit,
              )}`,
          )
          .join(', ')}`
      : ''
  const what = `${g.bench} ${g.metric}${g.conditions ? ` (${g.conditions})` : ''}, ${g.who}${g.size === null ? '' : ` at ${sizeText(g)}`}`
  const a = rangeText(
    g.cells.map((c) => c.a.median),
    unit,
  )
  const b = rangeText(
    g.cells.map((c) => c.b.median),
    unit,
  )
  const lead = better + worse === 0 ? 'No significant change; the largest difference' : 'Largest change'
  return [
    `${lead}: ${what}: ${a} → ${b}, median ${pctRange([d])}${better + worse === 0 ? '' : ` (${dir})`}${change ? `; ${change}` : ''}${perClass}.`,
    total,
  ]
}

/**
 * The answer's sentences alone: the largest change (its cells grouped by kind of pair and link
 * class) and the count of every tested cell. The report's summary states the same.
 */
export function diffHeadline(r: DiffResult, classes: DigestClasses = {}): string[] {
  return headline(r, digestGroups(r, classes))
}

/** The answer of a diff: headline, grouped table, and what was left out. */
export function diffAnswer(r: DiffResult, classes: DigestClasses = {}, full = false): Answer {
  const all = digestGroups(r, classes)
  const rows = answerSizes(all)
  const shownCells = rows.reduce((n, g) => n + g.cells.length, 0)
  const tested = r.cells.filter((c) => c.tested).length
  const untested = r.cells.length - tested
  const left: string[] = []
  if (!full) {
    if (tested > shownCells)
      left.push(
        `${count(tested - shownCells)} tested cells at other sizes (--all prints every cell; ` +
          `--filter "size:<=1KiB" or --filter pair:0-1 narrows, --col size lays sizes across)`,
      )
    if (untested > 0) {
      const metrics = [...new Set(r.cells.filter((c) => !c.tested).map((c) => c.metric))]
      left.push(
        `${count(untested)} cells of metrics shown but not tested: ${metrics.join(', ')} ` +
          `(--all; --metric ${metrics.join(',')} tests them)`,
      )
    }
    const only = r.onlyA.length + r.onlyB.length
    if (only > 0)
      left.push(`${count(only)} cells found in one set only: ${r.onlyA.length} in A, ${r.onlyB.length} in B (--all)`)
    if (r.warnings.length > 0) left.push(`${plural(r.warnings.length, 'note')} on the cells (--all)`)
  }
  return {
    question: `What changed from A (${r.a.dir}) to B (${r.b.dir})?`,
    answer: headline(r, all),
    table: {
      title:
        'Grouped cells (pairs of one kind and link class, the groups of a grouping, both placements; ~ = no significant change):',
      header: ['bench', 'conditions', 'cells', 'size', 'A', 'B', 'delta', 'tested'],
      rows: rows.map(groupLine),
    },
    after: r.errors.map((e) => `ERROR ${e}`),
    left,
  }
}

/** How `diff` prints by default: the answer, then every cell when asked (`all`, `--row`/`--col`) or when they are few. */
export interface DigestOptions {
  classes?: DigestClasses
  all?: boolean
}

/**
 * The default text of `gpucomm diff`: the answer first; every cell's table after it with
 * `all`, a `--row`/`--col` projection, or at most ANSWER_ROWS cells (then they fit a screen).
 */
export function diffAnswerText(r: DiffResult, p: TableProjection = {}, o: DigestOptions = {}): string {
  const full = o.all === true || (p.row?.length ?? 0) > 0 || (p.col?.length ?? 0) > 0 || r.cells.length <= ANSWER_ROWS
  const sim = r.simulated ? 'SIMULATED data: these numbers come from gpucomm sim, not from hardware.\n' : ''
  const answer = sim + renderAnswer(diffAnswer(r, o.classes, full))
  return full ? `${answer}\nEvery cell:\n${diffText(r, p).replace(/^SIMULATED data:.*\n/, '')}` : answer
}
