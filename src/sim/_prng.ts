/**
 * Seeded randomness for the simulator: a string hash (cyrb53-style, 53-bit) that keys every
 * noisy cell, and mulberry32 streams drawn from it. No Math.random anywhere, so the same
 * seed and arguments always give the same bytes.
 */

/** A 53-bit hash of a string (cyrb53 by bryc, public domain), as a non-negative integer. */
export function hash53(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed
  let h2 = 0x41c6ce57 ^ seed
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ ch, 2654435761)
    h2 = Math.imul(h2 ^ ch, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return 4294967296 * (2097151 & h2) + (h1 >>> 0)
}

/** A deterministic stream of uniform and normal draws. */
export interface Rng {
  /** Uniform in [0, 1). */
  uniform(): number
  /** Standard normal (Box–Muller). */
  normal(): number
  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number
}

/** mulberry32 (Tommy Ettinger, public domain): a 32-bit state PRNG, fast and good enough for noise. */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0
  const uniform = (): number => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    uniform,
    normal: () => {
      const u = 1 - uniform() // (0, 1]: log is finite
      const v = uniform()
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v)
    },
    int: (lo, hi) => lo + Math.floor(uniform() * (hi - lo + 1)),
  }
}

/** The stream for one named thing (a cell, a trial's drift) under a seed. */
export const rngFor = (seed: number, key: string): Rng => mulberry32(hash53(key, seed >>> 0) % 4294967296)
