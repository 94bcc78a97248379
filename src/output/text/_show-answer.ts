/**
 * `show` answered first: what the set measured and what small copies and collectives cost,
 * then one row per series (bench, conditions, kind of pair or grouping) at its smallest and
 * largest size, the range of the pairs' or groups' medians in each, and what was left out
 * (every line: `--all`; everything: `--json`).
 */
import type { Row } from '../../model/index.ts'
import { rowMemo } from '../../model/index.ts'
import { medianOf, sortSample } from '../../stats/index.ts'
import type { Answer } from '../../text/index.ts'
import { plural, rangeText, renderAnswer } from '../../text/index.ts'
import { formatBytes } from '../../units/index.ts'
import { showLines, showTable, who } from './_table.ts'

/** One grouped row of `show`: the medians of every pair or group of one series at one size. */
export interface ShowGroup {
  /** "p2p.latency p2p=enabled ce". */
  bench: string
  metric: string
  unit: Row['unit']
  /** "56 cross-GPU pairs", "8 GPUs to itself", "tp4: 2 groups of 4 ranks". */
  who: string
  size: number | null
  /** One median per pair or group (and placement, host). */
  medians: number[]
}

const benchText = (r: Row): string =>
  [
    r.bench,
    r.p2p ? `p2p=${r.p2p}${r.peerAccess === false ? ' (no peer access)' : ''}` : '',
    r.copy ?? '',
    r.staging ?? '',
    r.direction ?? '',
    r.timer === 'cpu' && r.bench.startsWith('p2p.') ? 'cpu-timed' : '',
    ...Object.entries(r.env ?? {}).map(([k, v]) => `${k}=${v}`),
    ...Object.entries(r.hostAxis ?? {}).map(([k, v]) => `${k}=${v}`),
  ]
    .filter(Boolean)
    .join(' ')

const kindOf = (r: Row): string =>
  r.src !== null && r.dst !== null
    ? r.src === r.dst
      ? 'same'
      : 'cross'
    : `${r.grouping ?? ''}|${r.ranks ?? ''}${r.host ? '' : ''}`

/** Rows grouped by series and size, one median per pair or group; read once (replayed rows work). */
export function showGroups(rows: Iterable<Row>): ShowGroup[] {
  const cells = new Map<string, { group: string; row: Row; values: number[] }>()
  const keys = rowMemo((r) => {
    const group = [benchText(r), r.metric, kindOf(r), r.requestedBytes ?? r.sizeBytes ?? ''].join('\u0000')
    return `${group}\u0001${[who(r), r.placement ?? '', r.host ?? '', r.dtype ?? '', r.redop ?? ''].join('\u0000')}`
  })
  for (const r of rows) {
    const key = keys(r)
    const c = cells.get(key)
    if (c) c.values.push(r.value)
    else cells.set(key, { group: key.slice(0, key.indexOf('\u0001')), row: { ...r }, values: [r.value] })
  }
  const groups = new Map<string, { row: Row; medians: number[]; who: Set<string> }>()
  for (const c of cells.values()) {
    const g = groups.get(c.group)
    const m = medianOf(sortSample(c.values))
    if (g) {
      g.medians.push(m)
      g.who.add(who(c.row))
    } else groups.set(c.group, { row: c.row, medians: [m], who: new Set([who(c.row)]) })
  }
  return [...groups.values()].map(({ row, medians, who: names }) => ({
    bench: benchText(row),
    metric: row.metric,
    unit: row.unit,
    who: whoText(row, names.size),
    size: row.requestedBytes ?? row.sizeBytes,
    medians,
  }))
}

function whoText(r: Row, n: number): string {
  const k = kindOf(r)
  if (k === 'same') return `${plural(n, 'GPU')} to itself`
  if (k === 'cross') return plural(n, 'cross-GPU pair')
  const ranks = r.ranks === null ? '' : ` of ${r.ranks} ranks`
  return `${r.grouping ? `${r.grouping}: ` : ''}${plural(n, 'group')}${ranks}`
}

/** The smallest and the largest size of each series (one row when it has one size), in the order first seen. */
export function endSizes(groups: readonly ShowGroup[]): ShowGroup[] {
  const ends = new Map<string, { lo: ShowGroup; hi: ShowGroup }>()
  for (const g of groups) {
    const key = [g.bench, g.metric, g.who].join('\u0000')
    const e = ends.get(key)
    const z = g.size ?? 0
    if (!e) ends.set(key, { lo: g, hi: g })
    else {
      if (z < (e.lo.size ?? 0)) e.lo = g
      if (z > (e.hi.size ?? 0)) e.hi = g
    }
  }
  return [...ends.values()].flatMap((e) => (e.lo === e.hi ? [e.lo] : [e.lo, e.hi]))
}

const sizeText = (z: number | null): string => (z === null ? '-' : formatBytes(z))

/** The sentence of what small copies cost: the smallest size of the cross-GPU latency series, P2P as asked first. */
function answerLines(groups: readonly ShowGroup[], total: number): string[] {
  const benches = [...new Set(groups.map((g) => g.bench.split(' ')[0]))]
  const sizes = groups.map((g) => g.size).filter((z): z is number => z !== null)
  const what =
    `${total.toLocaleString('en-US')} rows of ${benches.join(', ')}` +
    (sizes.length ? `, sizes ${sizeText(Math.min(...sizes))}–${sizeText(Math.max(...sizes))}` : '') +
    '.'
  const ends = endSizes(groups)
  const smallest = (pick: (g: ShowGroup) => boolean): ShowGroup[] => {
    const gs = ends.filter(pick)
    const lo = Math.min(...gs.map((g) => g.size ?? 0))
    return gs.filter((g) => (g.size ?? 0) === lo)
  }
  const lat = smallest((g) => g.metric === 'latency' && g.who.includes('cross-GPU'))
  const asked = lat.filter((g) => !g.bench.includes('p2p=disabled'))
  const out: string[] = []
  const p = (asked.length ? asked : lat)[0]
  if (p)
    out.push(
      `Small copies between GPUs (${p.bench}, ${sizeText(p.size)}): median ${rangeText(p.medians, p.unit)} over ${p.who}.`,
    )
  const coll = smallest((g) => g.metric === 'time' && !g.who.includes('GPU'))
  if (coll.length)
    out.push(
      `${coll[0]?.bench.split(' ')[0]} at ${sizeText(coll[0]?.size ?? null)}: ` +
        `${coll.map((g) => `${g.who} ${rangeText(g.medians, g.unit)}`).join('; ')}.`,
    )
  return [what, ...out]
}

/** The answer of `show`: what the set holds, what small copies and collectives cost, the grouped table. */
export function showAnswer(rows: Iterable<Row>, total: number): Answer {
  const groups = showGroups(rows)
  const shown = endSizes(groups)
  return {
    question: 'What does this set hold, and what did it measure?',
    answer: answerLines(groups, total),
    table: {
      title: 'Medians grouped (the range over pairs or groups, at the smallest and largest size of each series):',
      header: ['bench', 'metric', 'pairs/groups', 'size', 'medians'],
      rows: shown.map((g) => [g.bench, g.metric, g.who, sizeText(g.size), rangeText(g.medians, g.unit)]),
    },
    left:
      groups.length > shown.length
        ? [
            `${groups.length - shown.length} other sizes of these series, and each pair or group on its own ` +
              '(--all prints every line; --json has them all)',
          ]
        : [],
  }
}

/**
 * The default `show` text: the answer; every line after it with `all` or when the lines are few
 * (`rows` is read twice: a loaded set's rows or a replayable iterable).
 */
export function showAnswerText(rows: Iterable<Row>, total: number, all = false): string {
  const answer = renderAnswer(showAnswer(rows, total))
  const few = !all && showLines(rows).length <= 40
  return all || few ? `${answer}\nEvery line:\n${showTable(rows)}` : answer
}
