/**
 * What a launch command line printed beside nccl-tests output says: how many ranks it
 * starts (launcher `-np`/`-n`/`--ntasks`, or nodes × processes per node, times nccl-tests'
 * `-t` threads × `-g` GPUs per thread), over how many hosts, and the NCCL_* / FI_* settings it
 * passes (`-x NAME=VALUE`, `--export=NAME=VALUE,…`, `NAME=VALUE` before the program). Open
 * MPI's `-N` is processes per node; Slurm's `-N` is nodes (the launcher's name decides).
 */

/** The launch facts of one command line. */
export interface LaunchFacts {
  /** Ranks the command starts (processes × threads × GPUs per thread), when it says. */
  ranks?: number
  /** How the rank count was read, e.g. "-np 1024", "-N 2 × --ntasks-per-node 4 × -g 2". */
  ranksFrom?: string
  /** Hosts (nodes) the command names or implies, when it says. */
  hosts?: number
  /** NCCL_*, FI_*, UCX_* settings the command passes (absent: none). */
  env?: Record<string, string>
}

const ENV = /^((?:NCCL|FI|UCX)_\w+)=(.*)$/
const posInt = (s: string | undefined): number | undefined => {
  if (s === undefined || !/^\d{1,7}$/.test(s)) return undefined
  const n = Number(s)
  return n > 0 ? n : undefined
}

/** Reads `-opt V` or `--opt=V` at token i; returns the value and how many tokens it took. */
function optValue(t: readonly string[], i: number, names: readonly string[]): { v: string; used: number } | undefined {
  const tok = t[i] as string
  for (const n of names) {
    if (tok === n && t[i + 1] !== undefined) return { v: t[i + 1] as string, used: 2 }
    if (n.startsWith('--') && tok.startsWith(`${n}=`)) return { v: tok.slice(n.length + 1), used: 1 }
  }
  return undefined
}

/** `-g2`: a short option with its value glued on. */
const glued = (tok: string, opt: string): { v: string; used: number } | undefined =>
  tok.length > opt.length && tok.startsWith(opt) && /^\d+$/.test(tok.slice(opt.length))
    ? { v: tok.slice(opt.length), used: 1 }
    : undefined

const unquote = (v: string): string => v.replace(/\\(.)/g, '$1').replace(/^(['"])(.*)\1$/, '$2')

/** What the launcher's options (the tokens before the program) say. */
interface LauncherOptions {
  env: Record<string, string>
  procs?: number
  /** The option that gave `procs`, e.g. "-np 1024". */
  procWhy: string
  nodes?: number
  perNode?: number
}

/**
 * An NCCL_* / FI_* / UCX_* setting at token i (`NAME=VALUE`, `-x NAME=VALUE`, `--env NAME=VALUE`,
 * `--export=NAME=VALUE,…`) put into `env`; returns how many tokens it took (0: none there).
 */
function envSetting(t: readonly string[], i: number, env: Record<string, string>): number {
  const tok = t[i] as string
  const e = ENV.exec(tok)
  if (e) {
    env[e[1] as string] = unquote(e[2] as string)
    return 1
  }
  if ((tok === '-x' || tok === '--env') && t[i + 1] !== undefined) {
    const x = ENV.exec(t[i + 1] as string)
    if (x) env[x[1] as string] = unquote(x[2] as string)
    return 2
  }
  if (tok.startsWith('--export=')) {
    for (const part of tok.slice(9).split(',')) {
      const x = ENV.exec(part)
      if (x) env[x[1] as string] = unquote(x[2] as string)
    }
    return 1
  }
  return 0
}

/** The launcher's settings, process count, node count and processes per node (tokens before `prog`). */
function launcherOptions(t: readonly string[], prog: number, slurm: boolean): LauncherOptions {
  const o: LauncherOptions = { env: {}, procWhy: '' }
  for (let i = 0; i < prog; i++) {
    const tok = t[i] as string
    const took = envSetting(t, i, o.env)
    if (took) {
      i += took - 1
      continue
    }
    const np = optValue(t, i, ['-np', '--np', '-n', '--n', '--ntasks'])
    if (np && posInt(np.v) !== undefined) {
      o.procs = posInt(np.v)
      o.procWhy = `${tok.includes('=') ? tok.split('=')[0] : tok} ${o.procs}`
      i += np.used - 1
      continue
    }
    const nd = optValue(t, i, slurm ? ['-N', '--nodes'] : [])
    if (nd && posInt(nd.v) !== undefined) {
      o.nodes = posInt(nd.v)
      i += nd.used - 1
      continue
    }
    const per = optValue(t, i, slurm ? ['--ntasks-per-node'] : ['-N', '-npernode', '--npernode'])
    if (per && posInt(per.v) !== undefined) {
      o.perNode = posInt(per.v)
      i += per.used - 1
      continue
    }
    const ppr = optValue(t, i, ['--map-by'])
    const pm = ppr ? /^ppr:(\d+):node/.exec(ppr.v) : null
    if (ppr && pm) {
      o.perNode = Number(pm[1])
      i += ppr.used - 1
      continue
    }
    const hl = optValue(t, i, ['-H', '--host'])
    if (hl && /^[\w.-]+(?::\d+)?(?:,[\w.-]+(?::\d+)?)*$/.test(hl.v)) {
      o.nodes = hl.v.split(',').length
      i += hl.used - 1
    }
  }
  return o
}

/** nccl-tests' own `-g` (GPUs per thread) and `-t` (threads), read after the program. */
function programOptions(t: readonly string[], prog: number): { gpus: number; threads: number } {
  let gpus = 1
  let threads = 1
  for (let i = prog + 1; i < t.length; i++) {
    const g = optValue(t, i, ['-g', '--ngpus']) ?? glued(t[i] as string, '-g')
    if (g && posInt(g.v) !== undefined) gpus = posInt(g.v) as number
    const th = optValue(t, i, ['-t', '--nthreads']) ?? glued(t[i] as string, '-t')
    if (th && posInt(th.v) !== undefined) threads = posInt(th.v) as number
  }
  return { gpus, threads }
}

/** The launch facts of a command line that runs an nccl-tests `*_perf` program; undefined when none runs. */
export function launchFacts(line: string): LaunchFacts | undefined {
  const t = line.trim().split(/\s+/)
  const prog = t.findIndex((x) => /(?:^|\/)\w+_perf(?:_mpi)?$/.test(x))
  if (prog < 0) return undefined
  const launcher = (t[0] ?? '').split('/').pop() ?? ''
  const slurm = launcher === 'srun' || launcher === 'sbatch' || launcher === 'salloc'
  const { env, procs, procWhy, nodes, perNode } = launcherOptions(t, prog, slurm)
  const { gpus, threads } = programOptions(t, prog)
  const why: string[] = []
  const out: LaunchFacts = Object.keys(env).length ? { env } : {}
  const perProc = gpus * threads
  const tail = `${threads > 1 ? ` × -t ${threads}` : ''}${gpus > 1 ? ` × -g ${gpus}` : ''}`
  if (procs !== undefined) {
    why.push(procWhy)
    out.ranks = procs * perProc
    if (nodes !== undefined) out.hosts = nodes
    else if (perNode !== undefined && procs % perNode === 0) out.hosts = procs / perNode
  } else if (nodes !== undefined && (slurm || perNode !== undefined)) {
    const k = perNode ?? 1
    why.push(
      `${slurm ? '-N' : '-H'} ${nodes}${perNode !== undefined ? ` × ${slurm ? '--ntasks-per-node' : '-npernode'} ${k}` : ''}`,
    )
    out.ranks = nodes * k * perProc
    out.hosts = nodes
  } else if (t.slice(0, prog).every((x) => x === 'env' || /^[A-Z_][A-Z0-9_]*=/.test(x) || /[#$>:]$/.test(x))) {
    // The program itself (after a shell prompt, `Running:` or variable settings): one process.
    why.push('one process')
    out.ranks = perProc
    out.hosts = 1
  }
  if (out.ranks !== undefined) out.ranksFrom = why.join('') + tail
  return out
}
