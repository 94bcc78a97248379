/**
 * A throwaway single-node Slurm cluster for tests: slurmctld + slurmd in the foreground
 * with their own config, state and ports under a temp dir (auth/none and cred/none, so no
 * munge; AccountingStorageType=accounting_storage/none). Every Slurm command runs under
 * `timeout`; stop() ends both daemons.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { hostname } from 'node:os'
import { join } from 'node:path'
import type { ResultPromise } from 'execa'
import { execa } from 'execa'
import { tmp } from '../helpers.ts'

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

/** A running private cluster: its config path (for SLURM_CONF) and stop(). */
export interface SlurmCluster {
  conf: string
  dir: string
  stop: () => Promise<void>
}

/** Starts slurmctld and slurmd and waits until the node is idle. */
export async function startSlurm(): Promise<SlurmCluster> {
  const dir = tmp('gpucomm-slurm-')
  const node = hostname().split('.')[0] as string
  const [ctld, slurmd] = [await freePort(), await freePort()]
  for (const d of ['state', 'spool']) mkdirSync(join(dir, d))
  const conf = join(dir, 'slurm.conf')
  writeFileSync(
    conf,
    `${[
      'ClusterName=gpucommtest',
      `SlurmctldHost=${node}(127.0.0.1)`,
      'AuthType=auth/none',
      'CredType=cred/none',
      'SlurmUser=root',
      'SlurmdUser=root',
      `SlurmctldPort=${ctld}`,
      `SlurmdPort=${slurmd}`,
      `StateSaveLocation=${dir}/state`,
      `SlurmdSpoolDir=${dir}/spool`,
      `SlurmctldPidFile=${dir}/slurmctld.pid`,
      `SlurmdPidFile=${dir}/slurmd.pid`,
      `SlurmctldLogFile=${dir}/slurmctld.log`,
      `SlurmdLogFile=${dir}/slurmd.log`,
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
      `NodeName=${node} NodeAddr=127.0.0.1 CPUs=${Math.max(2, (await import('node:os')).cpus().length)} State=UNKNOWN`,
      `PartitionName=debug Nodes=${node} Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:8`,
    ].join('\n')}\n`,
  )
  const env = { SLURM_CONF: conf }
  const daemons: ResultPromise[] = [
    execa('timeout', ['300', 'slurmctld', '-D', '-i', '-f', conf], { reject: false, env, stdio: 'ignore' }),
  ]
  await new Promise((r) => setTimeout(r, 500))
  daemons.push(
    execa('timeout', ['300', 'slurmd', '-D', '-f', conf, '-N', node], { reject: false, env, stdio: 'ignore' }),
  )
  const stop = async (): Promise<void> => {
    for (const d of daemons) d.kill('SIGTERM')
    await Promise.all(daemons)
  }
  for (let i = 0; i < 60; i++) {
    const s = await execa('timeout', ['5', 'sinfo', '-h', '-o', '%T'], { reject: false, env })
    if (/^idle/m.test(String(s.stdout))) return { conf, dir, stop }
    await new Promise((r) => setTimeout(r, 250))
  }
  await stop()
  throw new Error(`the private Slurm cluster did not come up; see ${dir}/slurmctld.log and slurmd.log`)
}
