import { badInput } from '../errors/index.ts'
import { parseSize } from '../units/index.ts'

/**
 * Parses a GPU list: "0-7", "0,2,4", "0-3,6" (indices, no duplicates), in the order given.
 * `what` names the flag in the error message.
 */
export function parseGpuList(text: string, what = '--gpus'): number[] {
  const out: number[] = []
  const t = text.trim()
  if (t === '') throw badInput(`${what}: empty GPU list (use e.g. 0-7 or 0,2,4)`)
  for (const part of t.split(',')) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part)
    if (!m) throw badInput(`${what}: "${part}" is not a GPU index or range (use e.g. 0-7 or 0,2,4)`)
    const a = Number(m[1])
    const b = m[2] === undefined ? a : Number(m[2])
    if (b < a) throw badInput(`${what}: range "${part}" runs backwards`)
    if (b > 4095) throw badInput(`${what}: GPU index ${b} is out of range`)
    for (let i = a; i <= b; i++) {
      if (out.includes(i)) throw badInput(`${what}: GPU ${i} is listed twice`)
      out.push(i)
    }
  }
  return out
}

/** Formats GPU indices compactly: [0,1,2,3] → "0-3", [0,2,4] → "0,2,4". */
export function formatGpuList(gpus: readonly number[]): string {
  const parts: string[] = []
  let i = 0
  while (i < gpus.length) {
    let j = i
    while (j + 1 < gpus.length && (gpus[j + 1] as number) === (gpus[j] as number) + 1) j++
    parts.push(j - i >= 2 ? `${gpus[i]}-${gpus[j]}` : gpus.slice(i, j + 1).join(','))
    i = j + 1
  }
  return parts.join(',')
}

const MAX_SIZES = 64

/**
 * Parses message sizes: "8:128M:x2" (min:max:xFACTOR, both ends included when reached),
 * "8:1M:+256K" (additive step), or a list "8,1K,1M". Sizes are bytes (binary suffixes,
 * as nccl-tests reads them).
 */
export function parseSizes(text: string, what = '--sizes'): number[] {
  const t = text.trim()
  const range = /^([^:]+):([^:]+):([x+*])?(.+)$/.exec(t)
  if (!range) return parseSizeList(t, what)
  const lo = size(range[1] as string, what)
  const hi = size(range[2] as string, what)
  if (hi < lo) throw badInput(`${what}: "${t}" has max below min`)
  const op = range[3] ?? 'x'
  const out: number[] = []
  if (op === '+') {
    const step = size(range[4] as string, what)
    if (step <= 0) throw badInput(`${what}: step must be positive in "${t}"`)
    for (let s = lo; s <= hi && out.length <= MAX_SIZES; s += step) out.push(s)
  } else {
    const f = Number(range[4])
    if (!Number.isFinite(f) || f <= 1)
      throw badInput(`${what}: factor must be a number above 1 in "${t}" (e.g. 8:128M:x2)`)
    if (lo === 0) throw badInput(`${what}: a multiplicative range cannot start at 0 in "${t}"`)
    for (let s = lo; s <= hi && out.length <= MAX_SIZES; s = Math.round(s * f)) out.push(s)
  }
  if (out.length > MAX_SIZES) throw badInput(`${what}: "${t}" gives more than ${MAX_SIZES} sizes`)
  return out
}

function parseSizeList(t: string, what: string): number[] {
  const out = t.split(',').map((p) => size(p, what))
  if (new Set(out).size !== out.length) throw badInput(`${what}: a size is listed twice in "${t}"`)
  return out
}

function size(text: string, what: string): number {
  const v = parseSize(text)
  if (v === undefined) throw badInput(`${what}: "${text.trim()}" is not a size (use e.g. 8, 64K, 128M)`)
  return v
}

/** The nccl-tests style argument for sizes: "lo:hi:x2" when geometric by 2, else a comma list. */
export function sizesArg(sizes: readonly number[]): string {
  const geometric = sizes.length >= 2 && sizes.every((s, i) => i === 0 || s === (sizes[i - 1] as number) * 2)
  return geometric ? `${sizes[0]}:${sizes[sizes.length - 1]}:x2` : sizes.join(',')
}

/**
 * Parses one env axis "NCCL_PROTO=LL,Simple" into [name, values]. Values are split on
 * commas; an empty value ("NCCL_ALGO=") means "unset".
 */
export function parseEnvAxis(text: string, what = '--env'): [string, string[]] {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(text.trim())
  if (!m) throw badInput(`${what}: "${text}" is not NAME=VALUE[,VALUE...] (e.g. NCCL_PROTO=LL,Simple)`)
  const values = (m[2] as string).split(',').map((v) => v.trim())
  if (new Set(values).size !== values.length) throw badInput(`${what}: a value of ${m[1]} is listed twice`)
  return [m[1] as string, values]
}

/** The most pairs a plan holds (every ordered pair of 256 GPUs is 65,280). */
export const MAX_PAIRS = 65_536

/**
 * Parses `all` (every ordered pair of different GPUs), `self` (each GPU to itself: the
 * local-copy and host-staged floors, measurable on one GPU) or "0>1,2>3" pair lists.
 */
export function parsePairs(text: string, gpus: readonly number[], what = '--pairs'): [number, number][] {
  const t = text.trim()
  const n = gpus.length
  if (t === 'all' && n * (n - 1) > MAX_PAIRS)
    throw badInput(
      `${what} all: ${n} GPUs make ${n * (n - 1)} ordered pairs; a plan holds at most ` +
        `${MAX_PAIRS} pairs (every pair of 256 GPUs): name fewer --gpus or list the pairs`,
    )
  if (t === 'all') return allPairs(gpus)
  if (t === 'self') return gpus.map((g) => [g, g])
  const out: [number, number][] = []
  for (const part of t.split(',')) {
    const m = /^\s*(\d+)\s*[>:]\s*(\d+)\s*$/.exec(part)
    if (!m) throw badInput(`${what}: "${part}" is not a pair (use all, self, or SRC>DST pairs like 0>1,2>3)`)
    const p: [number, number] = [Number(m[1]), Number(m[2])]
    if (p[0] === p[1]) throw badInput(`${what}: pair "${part}" names one GPU twice (use self for each GPU to itself)`)
    for (const g of p) if (!gpus.includes(g)) throw badInput(`${what}: GPU ${g} of pair "${part}" is not in --gpus`)
    out.push(p)
  }
  return out
}

/** Every ordered pair (src ≠ dst) of `gpus`. */
export function allPairs(gpus: readonly number[]): [number, number][] {
  const out: [number, number][] = []
  for (const a of gpus) for (const b of gpus) if (a !== b) out.push([a, b])
  return out
}
