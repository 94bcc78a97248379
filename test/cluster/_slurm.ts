/**
 * A throwaway Slurm cluster for tests: slurmctld + slurmd in the foreground with their own
 * config, state and ports under a temp dir (auth/none and cred/none, so no munge;
 * AccountingStorageType=accounting_storage/none). One node named after this host, or
 * `nodes: N` nodes node01…nodeNN on this one machine: Slurm's multiple-slurmd mode (every
 * NodeName on this host and 127.0.0.1, each slurmd with its own Port, started as
 * `slurmd -N nodeXX`). Every daemon runs under `timeout` (it cannot outlive the test by more
 * than that), stop() ends them all, and so does this process's exit.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { hostname } from 'node:os'
import { join } from 'node:path'
import type { ResultPromise } from 'execa'
import { execa } from 'execa'
import { CLEAN_ENV } from '../e2e/_sweep.ts'
import { BIN, ROOT, tmp } from '../helpers.ts'

/** Why Slurm tests cannot run here, or undefined when they can. */
export async function slurmMissing(): Promise<string | undefined> {
  for (const b of ['slurmctld', 'slurmd', 'srun', 'sinfo', 'timeout']) {
    const r = await execa('sh', ['-c', `command -v ${b}`], { reject: false })
    if (r.exitCode !== 0) return `${b} not found (Debian's slurm-wlm is not installed)`
  }
  if (process.getuid?.() !== 0) return 'a private slurmctld/slurmd needs root here'
  if (!existsSync('/usr/lib/x86_64-linux-gnu/slurm-wlm/auth_none.so') && !existsSync('/usr/lib/slurm/auth_none.so'))
    return "Slurm's auth/none plugin is missing"
  return undefined
}

async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer()
    s.once('error', rej)
    s.listen(0, '127.0.0.1', () => {
      const a = s.address()
      s.close(() => (typeof a === 'object' && a ? res(a.port) : rej(new Error('no port'))))
    })
  })
}

/** A running private cluster: its config path (for SLURM_CONF), its node names and stop(). */
export interface SlurmCluster {
  conf: string
  dir: string
  nodes: string[]
  stop: () => Promise<void>
}

/** Starts slurmctld and the slurmds and waits until every node is idle. */
export async function startSlurm(opts: { nodes?: number } = {}): Promise<SlurmCluster> {
  const dir = tmp('gpucomm-slurm-')
  const host = hostname().split('.')[0] as string
  const multi = opts.nodes !== undefined
  const nodes = multi
    ? Array.from({ length: opts.nodes ?? 0 }, (_, i) => `node${String(i + 1).padStart(2, '0')}`)
    : [host]
  const ctld = await freePort()
  const ports: number[] = []
  for (const _ of nodes) ports.push(await freePort())
  for (const d of ['state', 'spool']) mkdirSync(join(dir, d))
  for (const n of nodes) mkdirSync(join(dir, 'spool', n))
  const cpus = Math.max(2, (await import('node:os')).cpus().length)
  const nodeLines = multi
    ? nodes.map(
        (n, i) => `NodeName=${n} NodeHostname=${host} NodeAddr=127.0.0.1 Port=${ports[i]} CPUs=${cpus} State=UNKNOWN`,
      )
    : [`NodeName=${host} NodeAddr=127.0.0.1 CPUs=${cpus} State=UNKNOWN`]
  const conf = join(dir, 'slurm.conf')
  writeFileSync(
    conf,
    `${[
      'ClusterName=gpucommtest',
      `SlurmctldHost=${host}(127.0.0.1)`,
      'AuthType=auth/none',
      'CredType=cred/none',
      'SlurmUser=root',
      'SlurmdUser=root',
      `SlurmctldPort=${ctld}`,
      ...(multi ? [] : [`SlurmdPort=${ports[0]}`]),
      `StateSaveLocation=${dir}/state`,
      `SlurmdSpoolDir=${dir}/spool/%n`,
      `SlurmctldPidFile=${dir}/slurmctld.pid`,
      `SlurmdPidFile=${dir}/slurmd.%n.pid`,
      `SlurmctldLogFile=${dir}/slurmctld.log`,
      `SlurmdLogFile=${dir}/slurmd.%n.log`,
      'ProctrackType=proctrack/pgid',
      'TaskPlugin=task/none',
      'SelectType=select/cons_tres',
      'SelectTypeParameters=CR_Core',
      'MpiDefault=none',
      'ReturnToService=2',
      'AccountingStorageType=accounting_storage/none',
      'JobCompType=jobcomp/none',
      'JobAcctGatherType=jobacct_gather/none',
      'SwitchType=switch/none',
      ...nodeLines,
      `PartitionName=debug Nodes=${nodes.join(',')} Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:8`,
    ].join('\n')}\n`,
  )
  const env = { SLURM_CONF: conf }
  const daemons: ResultPromise[] = []
  // The safety net: a test that dies between start and stop() still takes the daemons along.
  const killAll = (): void => {
    for (const d of daemons) d.kill('SIGTERM')
  }
  process.once('exit', killAll)
  const stop = async (): Promise<void> => {
    killAll()
    await Promise.all(daemons)
    process.removeListener('exit', killAll)
  }
  try {
    daemons.push(
      execa('timeout', ['300', 'slurmctld', '-D', '-i', '-f', conf], { reject: false, env, stdio: 'ignore' }),
    )
    await new Promise((r) => setTimeout(r, 500))
    for (const n of nodes)
      daemons.push(
        execa('timeout', ['300', 'slurmd', '-D', '-f', conf, '-N', n], { reject: false, env, stdio: 'ignore' }),
      )
    for (let i = 0; i < 120; i++) {
      const s = await execa('timeout', ['5', 'sinfo', '-h', '-N', '-o', '%N %T'], { reject: false, env })
      const idle = String(s.stdout)
        .split('\n')
        .filter((l) => /^\S+ idle/.test(l))
      if (new Set(idle.map((l) => l.split(' ')[0])).size === nodes.length) return { conf, dir, nodes, stop }
      await new Promise((r) => setTimeout(r, 250))
    }
  } catch (e) {
    await stop()
    throw e
  }
  await stop()
  throw new Error(`the private Slurm cluster did not come up; see ${dir}/slurmctld.log and slurmd.*.log`)
}

/** `salloc -N n gpucomm sweep …` against the private cluster. */
export async function sallocSweep(
  conf: string,
  n: number,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const r = await execa(
    'timeout',
    ['240', 'salloc', '-N', String(n), '--job-name', 'gpucomm-test', process.execPath, BIN, 'sweep', ...args],
    { reject: false, cwd: ROOT, env: { ...CLEAN_ENV, SLURM_CONF: conf }, extendEnv: true },
  )
  return { code: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) }
}

/** A simulator-instrument sweep launched through srun, with no GPU options for Slurm. */
export const SWEEP = ['--instrument', 'sim', '--preset', 'seed-vm', '--launcher', 'srun', '--srun-gpus', 'none']
