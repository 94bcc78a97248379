/**
 * The simulator's seeded streams: every noisy cell is keyed by a string hashed with hash53,
 * and draws from its own mulberry32 stream (src/random). No Math.random anywhere, so the same
 * seed and arguments always give the same bytes.
 */
import { hash53, mulberry32, normals } from '../random/index.ts'

export { hash53 }

/** A deterministic stream of uniform and normal draws. */
export interface Rng {
  /** Uniform in [0, 1). */
  uniform(): number
  /** Standard normal (Box–Muller). */
  normal(): number
  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number
}

/** The stream for one named thing (a cell, a trial's drift) under a seed. */
export function rngFor(seed: number, key: string): Rng {
  const uniform = mulberry32(hash53(key, seed >>> 0) % 4294967296)
  return { uniform, normal: normals(uniform), int: (lo, hi) => lo + Math.floor(uniform() * (hi - lo + 1)) }
}
