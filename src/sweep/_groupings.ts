import { badInput } from '../errors/index.ts'
import { formatGpuList, parseGpuList } from '../lists/index.ts'

/** One way of splitting the GPUs into groups; the groups of a grouping run concurrently. */
export interface Grouping {
  /** "tp8", "tp4", "best", or the explicit text "0-3/4-7". */
  name: string
  groups: number[][]
  /** Where the groups came from (e.g. the topology ranking), when not obvious. */
  note?: string
}

/** What the topology offers for the `best` grouping: groups, or why there are none. */
export type BestGroups = { groups: number[][]; note: string } | { reason: string }

/** A grouping that could not be formed, with the reason (becomes a skipped point). */
export interface GroupingSkip {
  name: string
  reason: string
}

const KEYWORD = /^(tp\d+|best)$/i

/**
 * Splits the --groupings text into grouping tokens. Keywords (tp8, tp4, tp2, best) are
 * separated by commas or semicolons; an explicit grouping is GPU lists joined by "/"
 * ("0-3/4-7", "0,2,4,6/1,3,5,7"); consecutive non-keyword comma pieces belong to one
 * explicit grouping, so separate two explicit ones with ";".
 */
export function splitGroupingTokens(text: string): string[] {
  const out: string[] = []
  for (const chunk of text.split(';')) {
    let explicit: string[] = []
    for (const raw of chunk.split(',')) {
      const p = raw.trim()
      if (p === '') continue
      if (KEYWORD.test(p)) {
        if (explicit.length) out.push(explicit.join(','))
        explicit = []
        out.push(p.toLowerCase())
      } else explicit.push(p)
    }
    if (explicit.length) out.push(explicit.join(','))
  }
  return out
}

/**
 * Resolves grouping tokens against the GPU list. `tpN` splits the GPUs, in order, into
 * consecutive groups of N (TP4 on 8 GPUs = two groups of 4 that run at once, as TP4×PP2
 * does); `best` takes the topology's ranking when there is one, and is skipped with a
 * reason otherwise.
 */
export function resolveGroupings(
  tokens: readonly string[],
  gpus: readonly number[],
  best?: BestGroups,
): { groupings: Grouping[]; skips: GroupingSkip[] } {
  const groupings: Grouping[] = []
  const skips: GroupingSkip[] = []
  for (const t of tokens) {
    const g = resolveOne(t, gpus, best)
    if ('reason' in g) skips.push(g)
    else if (groupings.some((x) => x.name === g.name)) throw badInput(`--groupings: ${g.name} is listed twice`)
    else groupings.push(g)
  }
  return { groupings, skips }
}

function resolveOne(t: string, gpus: readonly number[], best?: BestGroups): Grouping | GroupingSkip {
  const tp = /^tp(\d+)$/.exec(t)
  if (tp) {
    const n = Number(tp[1])
    if (n < 2) throw badInput(`--groupings: ${t} needs at least 2 GPUs per group`)
    if (n > gpus.length || gpus.length % n !== 0) {
      return { name: t, reason: `${t} needs a multiple of ${n} GPUs; ${gpus.length} selected (${formatGpuList(gpus)})` }
    }
    const groups: number[][] = []
    for (let i = 0; i < gpus.length; i += n) groups.push(gpus.slice(i, i + n))
    return { name: t, groups }
  }
  if (t === 'best') {
    if (!best) return { name: t, reason: 'best: no topology ranking available (the topology capture is missing)' }
    if ('reason' in best) return { name: t, reason: `best: ${best.reason}` }
    return { name: t, groups: best.groups, note: best.note }
  }
  return explicit(t, gpus)
}

function explicit(t: string, gpus: readonly number[]): Grouping {
  const groups = t.split('/').map((g) => parseGpuList(g, `--groupings ${t}`))
  const seen = new Set<number>()
  for (const g of groups) {
    if (g.length < 2) throw badInput(`--groupings: group "${formatGpuList(g)}" of ${t} has fewer than 2 GPUs`)
    for (const i of g) {
      if (!gpus.includes(i)) throw badInput(`--groupings: GPU ${i} of ${t} is not in --gpus ${formatGpuList(gpus)}`)
      if (seen.has(i)) throw badInput(`--groupings: GPU ${i} appears in two groups of ${t}`)
      seen.add(i)
    }
  }
  return { name: groups.map(formatGpuList).join('/'), groups }
}
