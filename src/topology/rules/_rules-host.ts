/**
 * Host findings: pure rules over the host facts, in the topology doctor's Rule shape. Each
 * says what it read, the effect on the floor where a published figure exists (and says so
 * where none does), and what can be done: BIOS, kernel parameter, runtime switch.
 */

import type { LinkReading } from '../../host/index.ts'
import { DEEP_EXIT_S } from '../../host/index.ts'
import { p2pBlocked } from '../_pairs.ts'
import { REF } from './_refs-host.ts'
import type { Rule, RuleContext } from './_rule.ts'
import { pairGpus, rule } from './_rule.ts'

const MEASURE = 'no published figure for host-staged GPU copies; measure it with gpucomm sweep --host-axis'
const us = (s: number): string => `${+(s * 1e6).toFixed(1)} µs`
const linkName = (l: LinkReading): string =>
  `${l.role === 'gpu' ? 'GPU link' : 'switch uplink'} ${l.parent ?? '?'} → ${l.bdf}`
const allLinks = (c: RuleContext): [number, LinkReading][] =>
  Object.entries(c.host?.links ?? {}).flatMap(([g, ls]) => ls.map((l) => [Number(g), l] as [number, LinkReading]))

const downtrained = rule('pcie-link-downtrained', (c) => {
  const load = c.host?.underLoad === true
  const hits = allLinks(c).flatMap(([g, l]) => {
    const narrow = l.width && l.width.current < l.width.max
    const slow = (load || l.underLoad !== undefined) && l.gen && l.gen.current < l.gen.max
    if (!narrow && !slow) return []
    const w = l.width ? `x${l.width.current} of x${l.width.max}` : 'width unknown'
    const s = l.gen ? `Gen${l.gen.current} of Gen${l.gen.max}` : 'speed unknown'
    const when = l.underLoad ? `; ${l.underLoad}` : ''
    return [
      {
        g,
        loaded: l.underLoad !== undefined,
        fact: `GPU${g} ${linkName(l)}: ${w}, ${s} (${l.reading}: ${l.from}${when})`,
      },
    ]
  })
  if (hits.length === 0) return undefined
  const reading = hits.some((h) => h.loaded)
    ? 'readings the sweep took under load, during a bandwidth point: speed and width both judged'
    : load
      ? 'readings taken under load (--under-load): speed and width both judged'
      : 'readings taken at rest: only the width is judged, since NVIDIA GPUs drop to a low PCIe ' +
        'generation when idle (Gen1 at idle is normal); read again during a bandwidth test ' +
        '(--under-load) to judge the speed'
  return {
    severity: 'problem',
    gpus: [...new Set(hits.map((h) => h.g))],
    message:
      `${hits.length} PCIe link${hits.length === 1 ? '' : 's'} run below what both ends support (` +
      `${reading}). Bandwidth scales with lanes × rate, so x8 or one generation down halves it; the ` +
      `small-copy floor barely moves. Remedy: reseat the card and check the riser or cable; in ` +
      `the BIOS set the slot's link speed (Auto or the generation both ends support) and its ` +
      `bifurcation (x16); a link retrains on reboot.`,
    facts: hits.map((h) => h.fact),
    reference: `${REF.pciSysfs}; ${REF.pcieRates}`,
  }
})

const aspm = rule('aspm-active', ({ host }) => {
  if (!host) return undefined
  const policy = host.aspmPolicy
  const on = Object.entries(host.links).flatMap(([g, ls]) =>
    ls
      .filter((l) => l.aspmOn?.length)
      .map((l) => `GPU${g} ${linkName(l)}: ${(l.aspmOn ?? []).join(', ')} on (${l.bdf}/link/)`),
  )
  const savingPolicy = policy === 'powersave' || policy === 'powersupersave'
  if (!savingPolicy && on.length === 0) return undefined
  return {
    severity: 'warn',
    message:
      `PCIe Active State Power Management is on${savingPolicy ? ` (policy ${policy})` : ''}` +
      `${on.length ? ` on ${on.length} GPU link${on.length === 1 ? '' : 's'}` : ''}: a link in L0s/L1 must ` +
      `wake before a copy crosses it, which adds its exit latency (the ` +
      `device reports it, lspci -vv "Exit Latency"; ` +
      `${MEASURE}). Remedy: runtime, echo performance > /sys/module/pcie_aspm/parameters/policy or echo 0 ` +
      `> /sys/bus/pci/devices/<gpu>/link/l1_aspm (root); kernel parameter pcie_aspm=off or ` +
      `pcie_aspm.policy=performance; BIOS: ASPM Disabled.`,
    facts: [...(policy ? [`/sys/module/pcie_aspm/parameters/policy: ${policy}`] : []), ...on],
    reference: `${REF.aspm}; ${REF.pciSysfs}`,
  }
})

/** The BIOS settings deep-cstates names, which the OS cannot read. */
const BIOS_AMD =
  ' BIOS (AMD): Global C-State Control, DF C-States (the data fabric’s own idle states) and ' +
  'APBDIS=1 (fixed fabric P-state) cannot be read from the OS: check them in BIOS setup.'
const BIOS_OTHER =
  ' BIOS: package C-states and any fabric/uncore power saving cannot be read from the OS: check them in BIOS setup.'

const deepCstates = rule('deep-cstates', ({ host, hypervisor, cpuVendor }) => {
  const deepest = host?.cpu.deepestEnabled
  if (!host || !deepest || deepest.exitLatencyS <= DEEP_EXIT_S) return undefined
  const cpu = host.cpu
  const shallow = cpu.states.filter((s) => s.exitLatencyS <= DEEP_EXIT_S).map((s) => s.name)
  const vm = hypervisor.detected
    ? " This is a VM: these are the guest's idle states; the host's C-states decide how fast the " +
      'vCPU itself wakes and are set on the host.'
    : ''
  const amd = cpuVendor === 'AuthenticAMD' || cpu.amdPstate !== undefined
  return {
    severity: 'warn',
    message:
      `CPU idle state ${deepest.name} is enabled with a ` +
      `${us(deepest.exitLatencyS)} exit latency: a thread that sleeps while a host-staged copy is in flight can take that ` +
      `long to wake and act (${MEASURE}, e.g. cstates=default,shallow).` +
      `${vm} Remedy: runtime (root), cpupower idle-set -D ` +
      `${Math.round(DEEP_EXIT_S * 1e6)} or echo 1 > /sys/devices/system/cpu/cpu*/cpuidle/state<N>/disable for the deeper states ` +
      `(keeping ` +
      `${shallow.join(', ') || 'none'}); kernel parameter processor.max_cstate=1 (ACPI) or intel_idle.max_cstate=1; cpufreq ` +
      `governor performance (cpupower frequency-set -g performance).` +
      (amd ? BIOS_AMD : BIOS_OTHER),
    facts: [
      `cpu0 idle states: ` +
        `${cpu.states.map((s) => `${s.name} ${us(s.exitLatencyS)}${s.disabled ? ' (disabled)' : ''}`).join(', ')}`,
      ...cpu.from,
    ],
    reference: `${REF.cpuidle}${amd ? `; ${REF.amdTuning}` : ''}`,
  }
})

const iommuTranslated = rule('iommu-translated', ({ host, hypervisor }) => {
  if (!host) return undefined
  const translated = Object.entries(host.iommu.gpuGroupType).filter(([, t]) => t === 'DMA' || t === 'DMA-FQ')
  if (translated.length === 0) return undefined
  const vm = hypervisor.detected
    ? " This is a VM with a virtual IOMMU: the guest's translation adds to the host's, which " +
      'VFIO passthrough always uses and the guest cannot switch off.'
    : ''
  return {
    severity: 'warn',
    gpus: translated.map(([g]) => Number(g)),
    message:
      `The IOMMU translates the DMA of ${translated.length} GPU` +
      `${translated.length === 1 ? '' : 's'} (group type ` +
      `${[...new Set(translated.map(([, t]) => t))].join('/')}): each host-staged copy's DMA can miss the IOTLB and wait for a page walk (DMA-FQ ` +
      `batches invalidations; strict DMA does not) (${MEASURE}).` +
      `${vm} Remedy: kernel parameter iommu=pt (x86) or iommu.passthrough=1; runtime (root, device ` +
      `unbound from its driver), echo identity > /sys/kernel/iommu_groups/<N>/type; or ` +
      `iommu.strict=0 to keep translation with lazy invalidation.`,
    facts: [
      ...translated.map(([g, t]) => `GPU${g}: IOMMU group type ${t}`),
      `kernel command line: ${host.iommu.cmdline.join(' ') || 'no IOMMU parameter'}`,
      ...host.iommu.from.filter((f) => !f.includes('/type:')),
    ],
    reference: REF.iommu,
  }
})

const numaHidden = rule('numa-not-exposed', ({ hypervisor, gpus, host }) => {
  if (!hypervisor.detected || gpus.length === 0 || gpus.some((g) => g.numa !== undefined)) return undefined
  if (gpus.every((g) => g.from.busId === undefined || !g.from.busId.includes('/sys/'))) return undefined
  const nodes = host?.numa?.nodes
  if (nodes && nodes.length > 1) return undefined
  return {
    severity: 'warn',
    gpus: gpus.map((g) => g.index),
    message:
      `The VM exposes no NUMA placement: no GPU has a NUMA node` +
      `${nodes ? ` and the guest sees ${nodes.length} node` : ''}. If the host has several sockets, staging buffers land on whichever socket the ` +
      `hypervisor backed guest memory with, remote to some GPUs, and nothing in the guest can ` +
      `tell which (cross-socket costs ~0.6 µs per small P2P copy through switches; ` +
      `${MEASURE} for host-staged ones). Remedy (host side): give the VM NUMA nodes matching the host ` +
      `(Proxmox numa: 1 with vCPU affinity; QEMU -numa node,… with memory backends) and put each ` +
      `GPU's root port on a pxb-pcie expander with its host node (numa_node=).`,
    facts: [
      ...gpus.map((g) => `GPU${g.index}: numa_node -1 or absent${g.from.busId ? ` (${g.from.busId}/numa_node)` : ''}`),
      nodes ? `guest NUMA nodes: ${nodes.join(', ')} (${host?.numa?.from})` : 'no /sys/devices/system/node in the tree',
      ...hypervisor.from,
    ],
    reference: `${REF.qemuNuma}; ${REF.crossNuma}`,
  }
})

const stagingRemote = rule('staging-buffer-remote', ({ gpus, pairs }) => {
  const numa = new Map(gpus.filter((g) => g.numa !== undefined).map((g) => [g.index, g.numa as number]))
  const cross = pairs.filter((p) => p2pBlocked(p) && numa.has(p.a) && numa.has(p.b) && numa.get(p.a) !== numa.get(p.b))
  if (cross.length === 0) return undefined
  const nodes = [...new Set(numa.values())].sort((a, b) => a - b)
  return {
    severity: 'warn',
    gpus: pairGpus(cross),
    message:
      `${cross.length} host-staged GPU pair` +
      `${cross.length === 1 ? '' : 's'} span NUMA nodes: the staging buffer sits on one socket, remote to the other GPU, ` +
      `whatever the binding (cross-socket costs ~0.6 µs per small P2P copy through switches; ` +
      `${MEASURE}, numa=local,remote). Remedy: keep TP groups within one node; bind each rank and its ` +
      `pinned buffers to its GPU's node (numactl --cpunodebind=N --membind=N; nodes ` +
      `${nodes.join(', ')}).`,
    facts: [
      ...gpus
        .filter((g) => g.numa !== undefined)
        .map((g) => `GPU${g.index}: NUMA node ${g.numa as number}${g.from.numa ? ` (${g.from.numa})` : ''}`),
      ...cross
        .slice(0, 4)
        .map((p) => `pair ${p.a}-${p.b}: P2P unavailable, nodes ${numa.get(p.a)} and ${numa.get(p.b)}`),
    ],
    reference: REF.crossNuma,
  }
})

/** The host rules, in the order their findings are listed. */
export const HOST_RULES: readonly Rule[] = [downtrained, aspm, deepCstates, iommuTranslated, numaHidden, stagingRemote]
