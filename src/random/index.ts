/**
 * Seeded randomness shared by the simulator (noise), the analysis (bootstrap intervals) and
 * the sweep planner (shuffled order): the same seed gives the same draws on every machine and
 * Node version, which Math.random cannot promise. Pure functions; no global state.
 */

/** A uniform generator on [0, 1). */
export type Uniform = () => number

/**
 * mulberry32 (Tommy Ettinger, public domain): a 32-bit state generator with period 2^32,
 * fast and ample for noise, shuffles and a few thousand bootstrap draws.
 */
export function mulberry32(seed: number): Uniform {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Standard normal deviates (Box–Muller) drawn from `u`: two uniforms per deviate. */
export function normals(u: Uniform): () => number {
  // 1 - u() lies in (0, 1], so the log is finite.
  return () => Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u())
}

/** A uniform integer in [0, n). */
export const randInt = (u: Uniform, n: number): number => Math.floor(u() * n)

/** A Fisher–Yates shuffle of a copy of `items`, driven by `seed`. */
export function shuffle<T>(items: readonly T[], seed: number): T[] {
  const out = [...items]
  const u = mulberry32(seed)
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(u() * (i + 1))
    const tmp = out[i] as T
    out[i] = out[j] as T
    out[j] = tmp
  }
  return out
}

/** FNV-1a hash of a string to 32 bits (a per-series seed from its key). */
export function hashSeed(text: string, base = 0): number {
  let h = (0x811c9dc5 ^ base) >>> 0
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}

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

/**
 * A Gamma(shape, 1) deviate drawn from `u` (Marsaglia & Tsang 2000, "A simple method for
 * generating gamma variables", ACM TOMS 26(3)); a shape below 1 as Gamma(shape + 1)·U^(1/shape).
 */
export function gammaDeviate(u: Uniform, shape: number): number {
  if (shape < 1) return gammaDeviate(u, shape + 1) * (1 - u()) ** (1 / shape)
  const d = shape - 1 / 3
  const c = 1 / Math.sqrt(9 * d)
  for (;;) {
    let x: number
    let v: number
    do {
      x = Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u())
      v = 1 + c * x
    } while (v <= 0)
    v = v * v * v
    const w = 1 - u()
    const x2 = x * x
    if (w < 1 - 0.0331 * x2 * x2 || Math.log(w) < 0.5 * x2 + d * (1 - v + Math.log(v))) return d * v
  }
}

/** A Beta(a, b) deviate drawn from `u`: Ga / (Ga + Gb) of two Gamma deviates. */
export function betaDeviate(u: Uniform, a: number, b: number): number {
  const x = gammaDeviate(u, a)
  return x / (x + gammaDeviate(u, b))
}
