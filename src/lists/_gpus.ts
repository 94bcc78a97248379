import { badInput } from '../errors/index.ts'

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
