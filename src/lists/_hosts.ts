/**
 * Expands a Slurm hostlist ("node[01-03,07],gpu5") into host names, keeping zero
 * padding. Pure; throws nothing (an unbalanced bracket is taken literally).
 */
export function expandHostlist(list: string): string[] {
  const out: string[] = []
  for (const item of splitTop(list)) {
    const m = /^(.*?)\[([^\]]+)\](.*)$/.exec(item)
    if (!m) {
      if (item) out.push(item)
      continue
    }
    const [, pre, body, post] = m as unknown as [string, string, string, string]
    for (const r of body.split(',')) {
      const mm = /^(\d+)(?:-(\d+))?$/.exec(r)
      if (!mm) {
        out.push(`${pre}${r}${post}`)
        continue
      }
      const a = mm[1] as string
      const b = mm[2] ?? a
      for (let i = Number(a); i <= Number(b); i++) {
        for (const tail of expandHostlist(post)) out.push(`${pre}${String(i).padStart(a.length, '0')}${tail}`)
        if (post === '') out.push(`${pre}${String(i).padStart(a.length, '0')}`)
      }
    }
  }
  return out
}

function splitTop(list: string): string[] {
  const out: string[] = []
  let depth = 0
  let cur = ''
  for (const ch of list) {
    if (ch === '[') depth++
    if (ch === ']') depth--
    if (ch === ',' && depth === 0) {
      out.push(cur.trim())
      cur = ''
    } else cur += ch
  }
  out.push(cur.trim())
  return out.filter(Boolean)
}

/**
 * Hosts for mpirun/srun: those given, else the Slurm allocation's (SLURM_JOB_NODELIST),
 * else none (the local host / Slurm's choice).
 */
export function resolveHosts(given: readonly string[], env: Readonly<Record<string, string | undefined>>): string[] {
  if (given.length) return [...given]
  const list = env.SLURM_JOB_NODELIST ?? env.SLURM_NODELIST
  return list ? expandHostlist(list) : []
}
