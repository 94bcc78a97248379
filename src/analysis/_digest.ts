/**
 * The analysis answered first: what sets the floor of small copies between GPUs and of each
 * collective (mechanism and numbers), then the fits grouped (pairs of one kind, link class and
 * mechanism in one row; the groups of a grouping in one row), then the verdicts, and what was
 * left out with the flag that shows it. Every fit stays in `--all` and `--json`.
 */
import { simPrefix } from '../model/index.ts'
import { medianOf, sortSample } from '../stats/index.ts'
import type { Answer } from '../text/index.ts'
import { plural, rangeText, renderAnswer } from '../text/index.ts'
import { formatRate, formatSeconds } from '../units/index.ts'
import { renderAnalysis, verdictSections } from './_text.ts'
import type { Analysis, Fit } from './_types.ts'
import { bandClause, statedBand } from './verdict/_stated.ts'

/** Fits alike but for the pair or group: one row of the grouped table. */
export interface FitGroup {
  /** "p2p.latency p2p=enabled (no peer access)". */
  subject: string
  /** "56 PHB pairs", "8 GPUs to itself", "tp4: 2 groups of 4 ranks". */
  who: string
  fits: Fit[]
}

/** A fit's arm: its NCCL env and host-axis values, "" for none. */
const armText = (f: Fit): string =>
  [...Object.entries(f.env ?? {}), ...Object.entries(f.hostAxis ?? {})].map(([k, v]) => `${k}=${v}`).join(' ')

const isPair = (f: Fit): boolean => f.src !== undefined && f.dst !== undefined
const samePair = (f: Fit): boolean => isPair(f) && f.src === f.dst

function subject(f: Fit): string {
  const p2p = f.p2p ? ` p2p=${f.p2p}${f.peerAccess === false ? ' (no peer access)' : ''}` : ''
  const more = [
    f.copy,
    f.staging,
    f.direction,
    ...Object.entries(f.env ?? {}).map(([k, v]) => `${k}=${v}`),
    ...Object.entries(f.hostAxis ?? {}).map(([k, v]) => `${k}=${v}`),
  ]
  return `${f.host ? `${f.host} ` : ''}${f.bench}${p2p}${more
    .filter(Boolean)
    .map((x) => ` ${x}`)
    .join('')}`
}

function whoText(fits: readonly Fit[]): string {
  const f = fits[0] as Fit
  if (samePair(f)) return `${plural(fits.length, 'GPU')} to itself`
  if (isPair(f)) return `${fits.length} ${f.linkClass ? `${f.linkClass} ` : ''}pair${fits.length === 1 ? '' : 's'}`
  const ranks = f.ranks === undefined ? '' : ` of ${f.ranks} ranks`
  return `${f.grouping ? `${f.grouping}: ` : ''}${plural(fits.length, 'group')}${ranks}`
}

/** Fits grouped by subject, kind of pair (or grouping), link class and mechanism, in the fits' order. */
export function groupFits(fits: readonly Fit[]): FitGroup[] {
  const groups = new Map<string, FitGroup>()
  for (const f of fits) {
    const kind = isPair(f) ? `${samePair(f) ? 'same' : 'cross'}|${f.linkClass ?? ''}` : `${f.grouping}|${f.ranks}`
    const key = [subject(f), kind, f.mechanism.id, f.mechanism.text].join('\u0000')
    const g = groups.get(key)
    if (g) g.fits.push(f)
    else groups.set(key, { subject: subject(f), who: '', fits: [f] })
  }
  const out = [...groups.values()]
  for (const g of out) g.who = whoText(g.fits)
  return out
}

const alphaRange = (fits: readonly Fit[]): string =>
  rangeText(
    fits.map((f) => f.alpha),
    's',
  )

function betaRange(fits: readonly Fit[]): string {
  const b = fits.map((f) => f.beta).filter((x): x is number => x !== null)
  if (b.length === 0) return '-'
  const lo = formatRate(Math.min(...b))
  const hi = formatRate(Math.max(...b))
  return lo === hi ? lo : rangeText(b, 'B/s')
}

function groupLine(g: FitGroup): string[] {
  const f = g.fits[0] as Fit
  const bands = [...new Set(g.fits.flatMap((x) => x.bands))]
  return [
    g.subject,
    g.who,
    f.mechanism.id,
    f.linkClass ?? '-',
    alphaRange(g.fits),
    betaRange(g.fits),
    bands.join(' ') || '-',
  ]
}

/** The p2p sentence: what small copies between two GPUs cost and why, per mechanism and class. */
function p2pSentence(groups: readonly FitGroup[]): string | undefined {
  const cross = groups.filter((g) => isPair(g.fits[0] as Fit) && !samePair(g.fits[0] as Fit))
  if (cross.length === 0) return undefined
  // What a program gets by default: P2P requested (or not said) first; P2P-disabled copies only when nothing else.
  const asked = cross.filter((g) => (g.fits[0] as Fit).p2p !== 'disabled')
  const shown = (asked.length ? asked : cross).filter((g) => (g.fits[0] as Fit).bench === 'p2p.latency')
  const use = shown.length ? shown : asked.length ? asked : cross
  const byMech = new Map<string, FitGroup[]>()
  for (const g of use) {
    const t = (g.fits[0] as Fit).mechanism.text
    byMech.set(t, [...(byMech.get(t) ?? []), g])
  }
  const f = use[0]?.fits[0] as Fit
  // Arms (env, host-axis values) each keep their own floor: one pooled range would be a floor no arm has.
  const parts = [...byMech.entries()].map(([text, gs]) =>
    gs.some((g) => armText(g.fits[0] as Fit))
      ? `${text}: floor ${gs.map((g) => `${alphaRange(g.fits)} (${armText(g.fits[0] as Fit) || 'as found'}, ${g.who})`).join(', ')}`
      : `${text}: floor ${alphaRange(gs.flatMap((g) => g.fits))} over ${gs.map((g) => g.who).join(', ')}`,
  )
  const p2p = f.p2p ? ` p2p=${f.p2p}${f.peerAccess === false ? ', no peer access' : ''}` : ''
  return `Small copies between GPUs (${f.bench}${p2p}): ${parts.join('; ')}.`
}

/** One sentence per collective bench: its mechanism and floor per grouping. */
function collectiveSentences(groups: readonly FitGroup[]): string[] {
  const byBench = new Map<string, FitGroup[]>()
  for (const g of groups) {
    const f = g.fits[0] as Fit
    if (isPair(f)) continue
    byBench.set(f.bench, [...(byBench.get(f.bench) ?? []), g])
  }
  return [...byBench.entries()].map(([bench, gs]) => {
    const mechs = [...new Set(gs.map((g) => (g.fits[0] as Fit).mechanism.text))]
    const floors = gs
      .map((g) => {
        const arm = armText(g.fits[0] as Fit)
        return `${(g.fits[0] as Fit).grouping ?? g.who}${arm ? ` ${arm}` : ''} ${alphaRange(g.fits)}`
      })
      .join(', ')
    return `${bench}: ${mechs.join('; ')}; floor ${floors}.`
  })
}

/** A class's floor against the band stated for its fits at their median floor (statedBand, in its words). */
function classClause(fits: readonly Fit[], median: number): string {
  const c = statedBand(fits, median)?.band
  return c ? bandClause(c) : 'no published band for this mechanism'
}

const medianAlpha = (fits: readonly Fit[]): number => medianOf(sortSample(fits.map((f) => f.alpha)))

/**
 * One line per grouped class of fits: its floor and where the floor sits against the band the
 * report states for the same fits (statedBand: the same band, the same words).
 */
export function bandLines(a: Analysis): string[] {
  return groupFits(a.fits).map(
    (g) => `${g.subject}, ${g.who}: floor ${alphaRange(g.fits)}; ${classClause(g.fits, medianAlpha(g.fits))}`,
  )
}

/** The fits grouped as the text outputs group them, each class with its mechanism and its floor against its band. */
export function groupedFloors(a: Analysis): { header: string[]; rows: string[][] } {
  return {
    header: ['class', 'pairs/groups', 'mechanism', 'floor α median', 'α range', 'β', 'against the published band'],
    rows: groupFits(a.fits).map((g) => {
      const median = medianAlpha(g.fits)
      const mechanism = (g.fits[0] as Fit).mechanism.text
      return [
        g.subject,
        g.who,
        mechanism,
        formatSeconds(median),
        alphaRange(g.fits),
        betaRange(g.fits),
        classClause(g.fits, median),
      ]
    }),
  }
}

/** The answer of an analysis: the sentences, the grouped fits, the verdicts, what was left out. */
export function analysisAnswer(a: Analysis, full = false): Answer {
  const groups = groupFits(a.fits)
  const answer = [p2pSentence(groups), ...collectiveSentences(groups)].filter((x): x is string => x !== undefined)
  const left: string[] = []
  if (!full && groups.length < a.fits.length)
    left.push(
      `${a.fits.length} fits one by one, with α's bootstrap CI and segments (--all; --json has every fit and cell)`,
    )
  return {
    question: 'What sets the cost of moving data between these GPUs, and why?',
    answer: answer.length ? answer : ['No pair or group could be fitted (see the warnings).'],
    table: {
      title: `Fits grouped (time = α + size/β; α the floor; topology: ${a.topology.note}):`,
      header: ['subject', 'pairs/groups', 'mechanism', 'link', 'α (floor)', 'β', 'bands'],
      rows: groups.map(groupLine),
    },
    after: full ? [] : verdictSections(a).replace(/^\n/, '').replace(/\n$/, '').split('\n'),
    left,
  }
}

/** The default `analyze` text: the answer first; with `all` every fit after it (the full analysis). */
export function analysisAnswerText(a: Analysis, all = false): string {
  const head = `${simPrefix(a)}analysis of result set ${a.id} (${a.dir})\n`
  const answer = head + renderAnswer(analysisAnswer(a, all))
  return all ? `${answer}\nEvery fit:\n${renderAnalysis(a).split('\n').slice(1).join('\n')}` : answer
}
