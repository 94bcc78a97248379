/**
 * Host-staged floors seen together: when they fall in two groups (a gap of MODE_GAP× or more
 * between neighbouring floors), the slower group is host-staged and slow, with its own
 * explanation (cross-socket staging when exactly the slow pairs are SYS, one GPU's path when
 * every slow pair involves it, else contention). Same-GPU copies slower than the published
 * same-GPU range point at per-copy driver overhead (WDDM) for every slow host-staged floor.
 */

import { BAND_TOLERANCE } from '../../bands/index.ts'
import { formatSeconds } from '../../units/index.ts'
import type { Fit } from '../_types.ts'
import { linkKey } from '../verdict/_cite.ts'
import { mechanismOf, RANGES, slowCauses } from '../verdict/_mechanism.ts'

/**
 * Two groups of host-staged floors are two when neighbours differ by this factor: more than
 * two band tolerances apart ((1 + 0.1) / (1 − 0.1) = 1.22), so noise within one mode does not split it.
 */
export const MODE_GAP = 1.3

const staged = (f: Fit): boolean => f.mechanism.id === 'host-staged' || f.mechanism.id === 'host-staged-slow'
const cross = (f: Fit): boolean => f.src !== undefined && f.dst !== undefined && f.src !== f.dst

/** Splits a list of floors at its largest gap, when that gap is at least MODE_GAP×. */
function split(fits: Fit[]): { fast: Fit[]; slow: Fit[]; gap: number } | undefined {
  const sorted = [...fits].sort((a, b) => a.alpha - b.alpha)
  let at = -1
  let gap = 1
  for (let i = 1; i < sorted.length; i++) {
    const r = (sorted[i] as Fit).alpha / (sorted[i - 1] as Fit).alpha
    if (r > gap) [gap, at] = [r, i]
  }
  if (gap < MODE_GAP || at < 2 || sorted.length - at < 2) return undefined
  return { fast: sorted.slice(0, at), slow: sorted.slice(at), gap }
}

const median = (v: number[]): number => {
  const s = [...v].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2
}

/** The one GPU every fit involves, if there is one. */
function commonGpu(fits: readonly Fit[]): number | undefined {
  const first = fits[0]
  if (!first || fits.length < 2) return undefined
  return [first.src, first.dst].find((g) => g !== undefined && fits.every((f) => f.src === g || f.dst === g))
}

/**
 * Refines host-staged pair fits in place (mechanism, causes, evidence) and returns the notes
 * to add to the analysis. Verdict texts are rebuilt by the caller.
 */
export function refineHostStaged(fits: Fit[]): string[] {
  const notes: string[] = []
  const sameGpuSlow = fits.some(
    (f) => f.src !== undefined && f.src === f.dst && f.alpha > RANGES['same-gpu'].high * (1 + BAND_TOLERANCE),
  )
  const groups = new Map<string, Fit[]>()
  for (const f of fits.filter((x) => cross(x) && staged(x))) {
    const k = `${f.bench}|${f.p2p}|${JSON.stringify(f.env ?? {})}`
    groups.set(k, [...(groups.get(k) ?? []), f])
  }
  for (const g of groups.values()) {
    const modes = split(g)
    if (modes) {
      const slowSys = modes.slow.every((f) => f.linkClass && linkKey(f.linkClass) === 'SYS')
      const fastSys = modes.fast.some((f) => f.linkClass && linkKey(f.linkClass) === 'SYS')
      const one = commonGpu(modes.slow)
      const [mf, ms] = [median(modes.fast.map((f) => f.alpha)), median(modes.slow.map((f) => f.alpha))]
      for (const f of modes.slow) {
        const causes = slowCauses({
          ...(slowSys && !fastSys && f.linkClass ? { linkClass: f.linkClass } : {}),
          sameGpuSlow,
          ...(one !== undefined ? { oneGpu: one } : {}),
        })
        f.mechanism = mechanismOf('host-staged-slow', f.linkClass, causes)
        f.evidence.push({
          strength: 3,
          fact:
            `the slower of two groups of host-staged floors: ${modes.slow.length} pairs near ` +
            `${formatSeconds(ms)}, ${modes.fast.length} near ${formatSeconds(mf)} (` +
            `${(ms / mf).toFixed(1)}×)`,
          source: 'this set',
        })
      }
      const why = modes.slow[0]?.mechanism.causes?.[0] ?? 'contention'
      notes.push(
        `${g[0]?.bench} host-staged floors fall in two groups: ${modes.fast.length} pairs near ` +
          `${formatSeconds(mf)} and ${modes.slow.length} near ${formatSeconds(ms)} (` +
          `${(ms / mf).toFixed(1)}×). Both are host-staged; the slower group most likely: ${why}.`,
      )
    }
    for (const f of g)
      if (f.mechanism.id === 'host-staged-slow' && !f.mechanism.causes)
        f.mechanism = mechanismOf(
          'host-staged-slow',
          f.linkClass,
          slowCauses({ ...(f.linkClass ? { linkClass: f.linkClass } : {}), sameGpuSlow }),
        )
  }
  return notes
}
