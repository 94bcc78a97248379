/**
 * A small seeded PRNG so bootstrap intervals are reproducible: the same data and seed give
 * the same interval on every machine (Math.random would not).
 */

/** A uniform generator on [0, 1). */
export type Rng = () => number

/**
 * mulberry32 (Tommy Ettinger, public domain): a 32-bit state generator with period 2^32,
 * ample for a few thousand bootstrap draws.
 */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** FNV-1a hash of a string to 32 bits: derives a per-series seed from its key. */
export function hashSeed(text: string, base = 0): number {
  let h = (0x811c9dc5 ^ base) >>> 0
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}

/** A uniform integer in [0, n). */
export const randInt = (rng: Rng, n: number): number => Math.floor(rng() * n)
