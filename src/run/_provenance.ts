import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import type { InstrumentIdentity } from '../instruments/index.ts'
import type { HostFacts } from '../model/index.ts'
import { writeSimTopology } from '../sim/index.ts'
import type { TopologyReport } from '../topology/index.ts'
import { captureTopology } from '../topology/index.ts'

/** What nvidia-smi says about this machine's GPUs (found = false with the reason when it cannot). */
export interface GpuQuery {
  found: boolean
  reason?: string
  gpus: NonNullable<HostFacts['gpus']>
  driver?: string
  cuda?: string
}

/**
 * Asks nvidia-smi for the GPUs (index, name, bus id, compute capability), the driver and
 * the CUDA version. Never throws: a missing nvidia-smi or no GPU gives found = false.
 */
export async function queryGpus(bin = 'nvidia-smi'): Promise<GpuQuery> {
  const q = async (fields: string) =>
    execa(bin, [`--query-gpu=${fields}`, '--format=csv,noheader'], { reject: false, timeout: 15_000 })
  let r = await q('index,name,pci.bus_id,driver_version,compute_cap')
  if (r.failed && r.exitCode !== undefined) r = await q('index,name,pci.bus_id,driver_version')
  if (r.failed || typeof r.stdout !== 'string') {
    const why =
      r.code === 'ENOENT'
        ? `${bin} not found`
        : `${bin} failed: ${
            String(r.stderr || r.stdout || r.shortMessage)
              .trim()
              .split('\n')[0]
          }`
    return { found: false, reason: why, gpus: [] }
  }
  const gpus: GpuQuery['gpus'] = []
  let driver: string | undefined
  for (const line of r.stdout.split('\n')) {
    const f = line.split(',').map((s) => s.trim())
    if (f.length < 4 || !/^\d+$/.test(f[0] as string)) continue
    const g: GpuQuery['gpus'][number] = { index: Number(f[0]), name: f[1] as string, busId: f[2] as string }
    if (f[4]) g.computeCap = f[4]
    gpus.push(g)
    driver = f[3]
  }
  if (gpus.length === 0) return { found: false, reason: `${bin} lists no GPU`, gpus }
  const out: GpuQuery = { found: true, gpus }
  if (driver) out.driver = driver
  const head = await execa(bin, [], { reject: false, timeout: 15_000 })
  const cuda = /CUDA Version:\s*([\d.]+)/.exec(String(head.stdout ?? ''))
  if (cuda) out.cuda = cuda[1] as string
  return out
}

/** The NCCL_* and CUDA_* variables of an environment, sorted. */
export function ncclCudaEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const k of Object.keys(env).sort())
    if (/^(NCCL|CUDA)_/.test(k) && env[k] !== undefined) out[k] = env[k] as string
  return out
}

/** Host facts for the manifest: hostname, GPUs, driver and CUDA versions, the NCCL_ and CUDA_ env. */
export function hostFacts(gpu: GpuQuery, env: Readonly<Record<string, string | undefined>>): HostFacts {
  const h: HostFacts = { hostname: hostname(), env: ncclCudaEnv(env) }
  if (gpu.found) h.gpus = gpu.gpus
  else h.gpuQuery = gpu.reason
  if (gpu.driver) h.driver = gpu.driver
  if (gpu.cuda) h.cuda = gpu.cuda
  return h
}

/**
 * The instrument hash: sha256 over the identity's name, version, extra facts and the
 * bytes of every file under its paths (a missing path hashes as "absent"), so a rebuilt
 * binary or an edited simulator is a different instrument.
 */
export function instrumentHash(id: InstrumentIdentity): string {
  const h = createHash('sha256')
  h.update(`${id.name}\0${id.version ?? ''}\0${id.extra ?? ''}\0`)
  for (const p of id.paths) hashPath(h, p)
  return h.digest('hex').slice(0, 16)
}

function hashPath(h: ReturnType<typeof createHash>, p: string): void {
  if (!p || !existsSync(p)) {
    h.update(`${p}\0absent\0`)
    return
  }
  const st = statSync(p)
  if (st.isDirectory()) {
    for (const e of readdirSync(p).sort()) hashPath(h, join(p, e))
    return
  }
  h.update(`${p.split('/').pop()}\0`)
  h.update(readFileSync(p))
}

/**
 * Captures the topology into `dir`: the live machine for real sweeps, or the simulator
 * preset's (SIMULATED) topology for simulated ones. A failure is a reason, not an error:
 * the sweep goes on without a capture and says why.
 */
export async function captureSweepTopology(
  dir: string,
  sim?: { preset: string; gpus: readonly number[] },
): Promise<{ report?: TopologyReport; reason?: string }> {
  try {
    return { report: sim ? await writeSimTopology(dir, sim.preset, sim.gpus) : await captureTopology(dir, {}) }
  } catch (e) {
    return { reason: `topology capture failed: ${(e as Error).message.split('\n')[0]}` }
  }
}
