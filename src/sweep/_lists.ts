import { badInput } from '../errors/index.ts'
import { parseSize } from '../units/index.ts'

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
