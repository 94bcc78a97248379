/** Parsing of the simulator's list-valued flags (GPU lists, size ranges, KEY=VALUE env). */
import { badInput } from '../errors/index.ts'
import type { P2pMode, P2pPairs } from './_types.ts'

/** `0-7`, `0,2,4`, `0-3,6` → [0, 1, 2, 3, 6]; duplicates and bad tokens are bad input. */
export function parseGpuList(spec: string): number[] {
  const out: number[] = []
  for (const tok of spec.split(',').map((t) => t.trim())) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(tok)
    if (!m) throw badInput(`--gpus ${spec}: "${tok}" is not a GPU index or range (e.g. 0-7 or 0,2,4)`)
    const lo = Number(m[1])
    const hi = m[2] === undefined ? lo : Number(m[2])
    if (hi < lo) throw badInput(`--gpus ${spec}: range ${tok} runs backwards`)
    for (let g = lo; g <= hi; g++) out.push(g)
  }
  if (new Set(out).size !== out.length) throw badInput(`--gpus ${spec}: a GPU is listed twice`)
  return out
}

const UNIT: Record<string, number> = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }

/** A byte count as nccl-tests reads it: `8`, `1K`, `64M`, `1G` (powers of 1024; KiB/KB/k also accepted). */
export function parseBytes(tok: string, flag = '--sizes'): number {
  const m = /^(\d+)\s*([kKmMgG]?)(?:i?[bB])?$/.exec(tok.trim())
  if (!m) throw badInput(`${flag}: "${tok}" is not a size (e.g. 8, 4K, 64M)`)
  return Number(m[1]) * (UNIT[(m[2] ?? '').toUpperCase()] as number)
}

/**
 * `MIN:MAX:xF` (×F each step), `MIN:MAX:+S` (S bytes each step) or a list `8,1024,4K`.
 * Returns the sizes and the banner's `step:` text.
 */
export function parseSizes(spec: string): { sizes: number[]; step: string } {
  const range = /^([^:,]+):([^:,]+):([x+*])(\w+)$/.exec(spec.trim())
  if (range) {
    const lo = parseBytes(range[1] as string)
    const hi = parseBytes(range[2] as string)
    const geometric = range[3] !== '+'
    const by = geometric ? Number(range[4]) : parseBytes(range[4] as string)
    if (hi < lo) throw badInput(`--sizes ${spec}: the maximum is below the minimum`)
    if (!(geometric ? by >= 2 && Number.isInteger(by) : by > 0))
      throw badInput(`--sizes ${spec}: the step must be ${geometric ? 'an integer factor ≥ 2' : 'a positive size'}`)
    const sizes: number[] = []
    for (let s = lo; s <= hi && sizes.length < 4096; s = geometric ? Math.max(s * by, s + 1) : s + by) sizes.push(s)
    return { sizes, step: geometric ? `${by}(factor)` : `${by}(bytes)` }
  }
  const sizes = spec.split(',').map((t) => parseBytes(t))
  if (sizes.length === 0) throw badInput(`--sizes ${spec}: no sizes`)
  return { sizes, step: listStep(sizes) }
}

/** A list's `step:` as nccl-tests would have needed it: a constant factor, a constant increment, or 0 bytes. */
function listStep(sizes: readonly number[]): string {
  if (sizes.length < 2) return '1(bytes)'
  const f = (sizes[1] as number) / (sizes[0] as number)
  if (Number.isInteger(f) && f >= 2 && sizes.every((s, i) => i === 0 || s === (sizes[i - 1] as number) * f))
    return `${f}(factor)`
  const d = (sizes[1] as number) - (sizes[0] as number)
  if (d > 0 && sizes.every((s, i) => i === 0 || s - (sizes[i - 1] as number) === d)) return `${d}(bytes)`
  return '0(bytes)'
}

/** `["NCCL_P2P_DISABLE=1", …]` → a record; a token without `=` is bad input. */
export function parseEnvList(items: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {}
  for (const it of items) {
    const i = it.indexOf('=')
    if (i <= 0) throw badInput(`--env ${it}: expected NAME=VALUE`)
    env[it.slice(0, i)] = it.slice(i + 1)
  }
  return env
}

/** p2p_bench's --pairs: `all`, `self`, `cross`, or `0:1,1:0` (device indices). */
export function parsePairs(spec: string): P2pPairs {
  if (spec === 'all' || spec === 'self' || spec === 'cross') return spec
  return spec.split(',').map((tok) => {
    const m = /^(\d+):(\d+)$/.exec(tok.trim())
    if (!m) throw badInput(`--pairs ${spec}: "${tok}" is not SRC:DST (or all, self, cross)`)
    return [Number(m[1]), Number(m[2])] as const
  })
}

const P2P_MODES: readonly P2pMode[] = ['enabled', 'disabled', 'bounce']

/** p2p_bench's --p2p: a comma list of enabled, disabled, bounce. */
export function parseP2pModes(s: string): P2pMode[] {
  const modes = s.split(',').map((m) => m.trim())
  const bad = modes.find((m) => !(P2P_MODES as readonly string[]).includes(m))
  if (bad !== undefined) throw badInput(`--p2p ${s}: "${bad}" is not a P2P mode (enabled, disabled, bounce)`)
  return [...new Set(modes)] as P2pMode[]
}
