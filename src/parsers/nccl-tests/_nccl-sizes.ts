/**
 * The sizes nccl-tests was asked for, from its banner (`minBytes 8 maxBytes 134217728 step:
 * 2(factor)`): one table row per size, in order. The printed size is count × type size, which
 * for all_gather, reduce_scatter and alltoall on n ranks rounds down to a multiple of n
 * elements (8 B on 8 ranks prints 0 B), so rows keep the requested size beside it.
 */

/**
 * The k-th requested size of a banner (minBytes, then × stepFactor or + stepBytes up to
 * maxBytes), or undefined when the banner does not say, the sequence has ended, or the printed
 * size does not fit it (larger than requested, or short of it by n 8-byte elements or more).
 */
export function requestedSize(
  params: Record<string, number | string> | undefined,
  k: number,
  printed: number,
  ranks: number | null,
): number | undefined {
  const min = params?.minBytes
  const max = params?.maxBytes
  if (typeof min !== 'number' || typeof max !== 'number') return undefined
  const f = params?.stepFactor
  const inc = params?.stepBytes
  let req = Number.NaN
  if (typeof f === 'number' && f > 1) req = min * f ** k
  else if (typeof inc === 'number' && inc > 0) req = min + k * inc
  else if (k === 0) req = min
  if (!(req <= max) || printed > req || req - printed >= Math.max(ranks ?? 1, 1) * 8) return undefined
  return req
}
