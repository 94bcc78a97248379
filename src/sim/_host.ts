/**
 * The simulator's host model (a MODEL, not a measurement): how the host knobs of
 * `sweep --host-axis` move a host-staged copy. A preset's staged floor is taken as measured
 * with the host as found (cstates=default, numa=local, IOMMU as the preset says); each knob
 * value adds or removes its part of that floor, per staged copy and per host-staged ring step.
 */
import { badInput } from '../errors/index.ts'
import type { HostModel, Preset } from './_types.ts'

/** The values the simulator models, per knob (the sweep's knobs plus iommu, which needs a reboot to switch). */
export const SIM_HOST_VALUES: Readonly<Record<string, readonly string[]>> = {
  cstates: ['default', 'shallow'],
  numa: ['local', 'remote'],
  iommu: ['as-found', 'identity'],
}

/** Checks `--host NAME=VALUE` items against SIM_HOST_VALUES; bad input otherwise. */
export function parseSimHost(items: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const it of items) {
    const [name, value] = it.split('=', 2)
    const known = SIM_HOST_VALUES[name ?? '']
    if (!known) throw badInput(`--host ${it}: unknown knob (known: ${Object.keys(SIM_HOST_VALUES).join(', ')})`)
    if (!known.includes(value ?? '')) throw badInput(`--host ${it}: expected ${name}=${known.join('|')}`)
    out[name as string] = value as string
  }
  return out
}

/**
 * Seconds a staged copy (or host-staged ring step) gains (+) or loses (−) under these knob
 * values. The wake-up counts only where a CPU thread drives the copy (`cpuDriven`: the copy
 * engine staging of cudaMemcpy, NCCL's SHM with cudaMemcpy), not NCCL's SHM where the GPUs
 * poll host memory themselves.
 */
export function hostDeltaS(p: Preset, host: Readonly<Record<string, string>> | undefined, cpuDriven = true): number {
  const m: HostModel | undefined = p.host
  if (!m || !host) return 0
  let us = 0
  if (host.cstates === 'shallow' && cpuDriven) us -= m.wakeUs
  if (host.numa === 'remote') us += m.crossSocketUs
  if (host.iommu === 'identity') us -= m.iommuUs
  return us * 1e-6
}
