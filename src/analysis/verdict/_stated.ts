/**
 * The one band a statement about some fits cites: the report's summary states it in words and
 * the latency chart draws it for the same fits, so the two can never name different bands.
 */

import { BAND_TOLERANCE } from '../../bands/index.ts'
import type { CitedBand, Fit, Mechanism } from '../_types.ts'
import { bandDistance, positionOf } from './_cite.ts'
import { bandById } from './_verdict.ts'

/** The most common of some values, first seen on a tie. */
export function mostCommon<T>(values: readonly T[], key: (v: T) => string): T | undefined {
  const n = new Map<string, number>()
  for (const v of values) n.set(key(v), (n.get(key(v)) ?? 0) + 1)
  let best: T | undefined
  for (const v of values) if (best === undefined || (n.get(key(v)) ?? 0) > (n.get(key(best)) ?? 0)) best = v
  return best
}

/** The position of a stated value against a band, from the number itself (± BAND_TOLERANCE of an edge). */
function placeOf(c: CitedBand, value: number | undefined): Pick<CitedBand, 'distance' | 'position'> {
  const b = c.compared === 'floor α' && value !== undefined ? bandById(c.id) : undefined
  if (!b) return c
  const distance = bandDistance(b, value as number)
  return { distance, position: positionOf(distance) }
}

/** What a statement about some fits says: their most common mechanism, its fits, and the band it cites. */
export interface Stated {
  mechanism: Mechanism
  /** The fits of that mechanism. */
  fits: Fit[]
  /** The band the floor `value` falls in (or, none matching, the nearest); absent without one. */
  band?: CitedBand
}

/**
 * The mechanism of some fits and the one published band their floor `value` is stated against:
 * a matching band it falls in (most cited, first on a tie), else the nearest non-reference
 * band. Its position is that of `value` (the number the statement gives), not of another fit's
 * floor; a band compared at fitted times (not the floor) keeps the position of the fit nearest
 * `value`.
 */
export function statedBand(fits: readonly Fit[], value?: number): Stated | undefined {
  const m = mostCommon(
    fits.map((f) => f.mechanism),
    (x) => x.text,
  )
  if (!m) return undefined
  const same = fits.filter((f) => f.mechanism.text === m.text)
  // The fit whose floor is the stated value (or nearest it) speaks for bands not compared at the floor.
  const byNear =
    value === undefined ? same : [...same].sort((x, y) => Math.abs(x.alpha - value) - Math.abs(y.alpha - value))
  const cited = byNear.flatMap((f) => f.cited).map((c) => ({ ...c, ...placeOf(c, value) }))
  const within = mostCommon(
    cited.filter((c) => c.role === 'match' && c.position !== 'outside'),
    (c) => c.id,
  )
  const nearest = mostCommon(
    cited.filter((c) => c.role !== 'reference'),
    (c) => c.id,
  )
  const band = within ?? nearest
  return { mechanism: m, fits: same, ...(band ? { band } : {}) }
}

/** A signed distance: "+4.2%", "−11%"; a nonzero one never prints as 0. */
const pct = (x: number): string => {
  const t = (Math.abs(x) * 100).toFixed(Math.abs(x) < 0.1 ? 1 : 0)
  return `${x > 0 ? '+' : x < 0 ? '−' : ''}${x !== 0 && Number(t) === 0 ? '<0.1' : t}%`
}

/**
 * Where a stated floor sits against its band, in the words the report's summary and the
 * sweep's closing lines share: "within the published band L (R)", "+4% from the edge of the
 * published band L (R), within its ±10 % tolerance", "outside the published bands (nearest: L, R, +23%)".
 */
export function bandClause(c: CitedBand): string {
  const what = c.compared === 'floor α' ? '' : `, compared at its ${c.compared}`
  const other = c.differs ? `; differs: ${c.differs.join(', ')}` : ''
  if (c.position === 'inside') return `within the published band ${c.label} (${c.range}${what}${other})`
  if (c.position === 'tolerance')
    return (
      `${pct(c.distance)} from the edge of the published band ${c.label} (${c.range}${what}${other}), ` +
      `within its ±${BAND_TOLERANCE * 100} % tolerance`
    )
  return `outside the published bands (nearest: ${c.label}, ${c.range}, ${pct(c.distance)}${what}${other})`
}
