/**
 * `nvidia-smi -q`: the per-GPU "GPU Link Info" block (PCIe generation and link width, current
 * and max, where "Max" is the lower of the device's and the host port's maxima) and the
 * performance state, keyed by bus id. Lines outside these blocks are ignored.
 */
import { normalizeBdf } from '../parsers/index.ts'

/** One GPU's link as nvidia-smi reports it. */
export interface SmiLink {
  busId: string
  gen?: { current: number; max: number }
  width?: { current: number; max: number }
  /** `Performance State`, e.g. P0 (busy) … P8 (idle). */
  pstate?: string
  /** 1-based line of the GPU's header. */
  line: number
}

/**
 * `key : value` split at the first colon, both trimmed (undefined without a colon or a key).
 * Not a regex: `^(\s*)([^:]+?)\s*:\s*(.*?)\s*$` was cubic in a run of blanks (4,000 blanks: 19 s).
 */
function keyValue(line: string): [string, string] | undefined {
  const colon = line.indexOf(':')
  if (colon <= 0) return undefined
  return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()]
}

/** Parses `nvidia-smi -q` text; GPUs without a link block keep only their bus id. */
export function parseSmiQuery(text: string): SmiLink[] {
  const out: SmiLink[] = []
  let gpu: SmiLink | undefined
  let section = ''
  const seen: Record<string, number> = {}
  const lines = text.split(/\r?\n/)
  lines.forEach((l, i) => {
    const head = /^GPU\s+([0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7])\s*$/.exec(l)
    if (head) {
      const busId = normalizeBdf(head[1] as string)
      gpu = busId ? { busId, line: i + 1 } : undefined
      if (gpu) out.push(gpu)
      return
    }
    if (!gpu) return
    const t = l.trim()
    if (t === 'PCIe Generation' || t === 'Link Width') {
      section = t
      return
    }
    const kv = keyValue(l)
    if (!kv) return
    const [key, value] = kv
    if (key === 'Performance State') gpu.pstate = value
    if ((key === 'Max' || key === 'Current') && section !== '') {
      const n = Number.parseInt(value, 10)
      if (!Number.isFinite(n)) return
      seen[`${section}.${key}`] = n
      const cur = seen[`${section}.Current`]
      const max = seen[`${section}.Max`]
      if (cur !== undefined && max !== undefined) {
        if (section === 'PCIe Generation') gpu.gen = { current: cur, max }
        else gpu.width = { current: cur, max }
        delete seen[`${section}.Current`]
        delete seen[`${section}.Max`]
        section = ''
      }
    }
  })
  return out
}
