/**
 * Intermittent faults across the fleet: a node whose links are slow in some measurements and
 * normal in the rest (a flapping NIC), so that the median of its links can stay normal while
 * their spread and tail are not. The samples are the node-pairs sendrecv busbw cells at the
 * large sizes (every cell of every launch: a flap hits cells, not whole nodes), each over the
 * fleet's median cell at its size; a cell is slow when it is TAIL_CUT or more below it. Slow
 * cells are explained greedily: the node with the largest share of slow cells on its links is
 * a suspect when that share, counted without its worst link (one bad link is a link outlier,
 * not a node), is unlikely at the rate of slow cells on the links without it (binomial upper
 * tail ≤ DEFAULT_THRESHOLDS.alpha over the number of nodes, Bonferroni: every node is tested,
 * and a healthy link's noise has rare dips of its own); its links are then explained and the
 * next suspect is sought. A suspect whose cells are mostly slow is consistently slow (the
 * median analysis names it); one with at least a third of its cells normal is intermittent.
 * Pure.
 */
import { binomialUpperTail, DEFAULT_THRESHOLDS, medianOf, modifiedZ, quantile, sortSample } from '../../stats/index.ts'

/** A cell this far below the fleet's median link bandwidth is slow (noise of a healthy link: σ ≈ 3 %). */
const TAIL_CUT = 0.25

/** One link's cells (a node pair): busbw at each size, every launch. */
export interface LinkCells {
  hosts: string[]
  cells: { size: number; value: number }[]
}

/** A link's cells over the fleet's median cell at their size. */
interface LinkSamples {
  hosts: string[]
  samples: number[]
}

/** A node with an intermittent tail. */
export interface TailFlag {
  node: string
  /** Slow cells and all cells on its links. */
  slow: number
  cells: number
  /** Links with a slow cell, and all its links. */
  slowLinks: number
  links: number
  /** Medians of its slow cells, and of all its cells, over the fleet's median at their sizes. */
  slowRatio: number
  medianRatio: number
  /** (Q3 − Q1) / median of its cells, and the median of that over the other nodes. */
  spread: number
  fleetSpread: number
  /** The modified z-score of its spread among every node's. */
  spreadZ: number
  p: number
}

const spreadOf = (xs: readonly number[]): number => {
  const s = sortSample([...xs])
  const m = medianOf(s)
  return m > 0 ? (quantile(s, 0.75) - quantile(s, 0.25)) / m : 0
}

/** Nodes whose links are slow some of the time (see the module comment). */
export function intermittentNodes(given: readonly LinkCells[]): TailFlag[] {
  if (given.length < 3) return []
  const links = relativeToFleet(given)
  const nodes = [...new Set(links.flatMap((l) => l.hosts))]
  const spreads = new Map(
    nodes.map((n) => [n, spreadOf(links.filter((l) => l.hosts.includes(n)).flatMap((l) => l.samples))]),
  )
  const spreadZ = modifiedZ(nodes.map((n) => spreads.get(n) ?? 0))
  let open = [...links]
  const out: TailFlag[] = []
  for (;;) {
    const found = slowestNode(nodes, open)
    if (!found) return out
    open = open.filter((l) => !l.hosts.includes(found.node))
    // Mostly slow: a consistently slow node, explained here and named by the median analysis.
    if (found.slow > (2 / 3) * found.cells) continue
    const all = found.mine.flatMap((l) => l.samples)
    const others = nodes.filter((n) => n !== found.node).map((n) => spreads.get(n) ?? 0)
    out.push({
      node: found.node,
      slow: found.slow,
      cells: found.cells,
      slowLinks: found.slowLinks,
      links: found.mine.length,
      slowRatio: medianOf(sortSample(all.filter((x) => x < CUT))),
      medianRatio: medianOf(sortSample(all)),
      spread: spreads.get(found.node) ?? 0,
      spreadZ: spreadZ[nodes.indexOf(found.node)] ?? 0,
      fleetSpread: medianOf(sortSample(others)),
      p: found.p,
    })
  }
}

const CUT = 1 - TAIL_CUT
const slowOf = (l: LinkSamples): number => l.samples.filter((x) => x < CUT).length

/** Each link's cells as ratios to the fleet's median cell at their size. */
function relativeToFleet(given: readonly LinkCells[]): LinkSamples[] {
  const bySize = new Map<number, number[]>()
  for (const l of given) for (const c of l.cells) bySize.set(c.size, [...(bySize.get(c.size) ?? []), c.value])
  const mid = new Map([...bySize].map(([size, v]) => [size, medianOf(sortSample(v))]))
  return given.map((l) => ({
    hosts: l.hosts,
    samples: l.cells.map((c) => c.value / (mid.get(c.size) as number)),
  }))
}

/**
 * The node, among the open links, with the highest share of slow cells whose slow cells (its
 * worst link left out) are too many for the rate elsewhere (binomial tail, Bonferroni over the
 * nodes); undefined when none is.
 */
function slowestNode(nodes: readonly string[], open: readonly LinkSamples[]) {
  const stats = nodes
    .map((node) => {
      const mine = open.filter((l) => l.hosts.includes(node))
      const cells = mine.reduce((s, l) => s + l.samples.length, 0)
      const slow = mine.reduce((s, l) => s + slowOf(l), 0)
      // Its worst link (most slow cells) is left out of the test: one bad link is not the node.
      const worst = mine.reduce<LinkSamples | undefined>((w, l) => (!w || slowOf(l) > slowOf(w) ? l : w), undefined)
      const spreadSlow = slow - (worst ? slowOf(worst) : 0)
      const spreadCells = cells - (worst?.samples.length ?? 0)
      return { node, mine, cells, slow, spreadSlow, spreadCells, slowLinks: mine.filter((l) => slowOf(l) > 0).length }
    })
    .filter((s) => s.cells > 0 && s.slow > 0)
    .sort((a, b) => b.slow / b.cells - a.slow / a.cells || b.slow - a.slow)
  const judged = stats.map((s) => {
    const rest = open.filter((l) => !l.hosts.includes(s.node))
    const restCells = rest.reduce((t, l) => t + l.samples.length, 0)
    const restSlow = rest.reduce((t, l) => t + slowOf(l), 0)
    // The rate elsewhere, with half a cell added so that a clean fleet is not rate 0.
    return { ...s, p: binomialUpperTail(s.spreadSlow, s.spreadCells, (restSlow + 0.5) / (restCells + 1)) }
  })
  return judged.find(
    (s) => s.spreadCells >= DEFAULT_THRESHOLDS.minCiSamples && s.p <= DEFAULT_THRESHOLDS.alpha / nodes.length,
  )
}

const x2 = (r: number): string => `×${r.toFixed(2)}`

/** The mechanism of an intermittent node, in words. */
export function tailMechanism(t: TailFlag): string {
  return (
    `a flapping NIC: ${t.slow} of ${t.cells} network cells on ${t.slowLinks} of its ` +
    `${t.links} links at ${x2(t.slowRatio)} of the fleet median, the rest normal (median ` +
    `${x2(t.medianRatio)}); spread (IQR/median) ${t.spread.toFixed(2)} against the fleet's ` +
    `${t.fleetSpread.toFixed(2)}: the port drops its rate intermittently (link flaps or error bursts: a marginal cable, ` +
    `transceiver or port on this node)`
  )
}
