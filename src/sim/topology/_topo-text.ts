/**
 * The topology texts of a preset's machine (SIMULATED), in the upstream layouts (the shared
 * FORMATS notes §4–§6): `nvidia-smi topo -m` and `topo -p2p r|w` in their raw-TAB form, the
 * `--query-gpu=index,name,pci.bus_id` CSV, `lspci -tv`, and the host files the hypervisor
 * check reads. GPU i of every text is physical GPU gpus[i], as the benchmarks number them.
 */
import { SIM_MARKER } from '../../model/index.ts'
import type { Preset } from '../_types.ts'
import { renderLspciTree } from './_lspci.ts'

/** The second line of every text: preset, GPUs, and which command it imitates. */
const header = (p: Preset, gpus: readonly number[], command: string): string[] => [
  SIM_MARKER,
  `# preset ${p.name} gpus ${gpus.join(',')}: ` +
    `${command} as this machine would print it (simulated data, not a measurement)`,
]

const lines = (ls: readonly string[]): string => ls.map((l) => `${l}\n`).join('')

const TOPO_M_LEGEND = [
  '',
  'Legend:',
  '',
  '  X    = Self',
  '  SYS  = Connection traversing PCIe as well as the SMP interconnect between NUMA nodes (e.g., QPI/UPI)',
  '  NODE = Connection traversing PCIe as well as the interconnect between PCIe Host Bridges within a NUMA node',
  '  PHB  = Connection traversing PCIe as well as a PCIe Host Bridge (typically the CPU)',
  '  PXB  = Connection traversing multiple PCIe bridges (without traversing the PCIe Host Bridge)',
  '  PIX  = Connection traversing at most a single PCIe bridge',
  '  NV#  = Connection traversing a bonded set of # NVLinks',
]

/** The link class nvidia-smi prints for two physical GPUs. */
export function linkClass(p: Preset, a: number, b: number): string {
  const level = p.link(a, b).level
  return level === 'NV' ? `NV${p.machine.nvlinks ?? 12}` : level
}

/** `nvidia-smi topo -m`, raw TABs as a current driver prints it (CPU/NUMA affinity, GPU NUMA ID). */
export function topoMText(p: Preset, gpus: readonly number[]): string {
  const labels = gpus.map((_, i) => `GPU${i}`)
  const rows = gpus.map((a, i) => {
    const cells = gpus.map((b, j) => (i === j ? ' X ' : linkClass(p, a, b)))
    const numa = p.machine.numa(a)
    return [labels[i], ...cells, p.machine.cpuAffinity(a), numa === null ? 'N/A' : String(numa), '', 'N/A'].join('\t')
  })
  return lines([
    ...header(p, gpus, 'nvidia-smi topo -m'),
    ['', ...labels, 'CPU Affinity', 'NUMA Affinity', 'GPU NUMA ID'].join('\t'),
    ...rows,
    ...TOPO_M_LEGEND,
  ])
}

const P2P_LEGEND = [
  '',
  'Legend:',
  '',
  '  X    = Self',
  '  OK   = Status Ok',
  '  CNS  = Chipset not supported',
  '  GNS  = GPU not supported',
  '  TNS  = Topology not supported',
  '  NS   = Not supported',
  '  DR   = Disabled by regkey',
  '  U    = Unknown',
]

/**
 * `nvidia-smi topo -p2p r` or `w`: OK where the preset's pair has peer access, NS where it
 * has not (the seed VM: NS everywhere). Raw layout: leading space, trailing TAB, bare X.
 */
export function topoP2pText(p: Preset, gpus: readonly number[], cap: 'r' | 'w'): string {
  const labels = gpus.map((_, i) => `GPU${i}`)
  const rows = gpus.map(
    (a, i) =>
      ` ${labels[i] as string}\t` +
      `${gpus.map((b, j) => (i === j ? 'X' : p.link(a, b).peerAccess ? 'OK' : 'NS')).join('\t')}\t`,
  )
  return lines([...header(p, gpus, `nvidia-smi topo -p2p ${cap}`), ` \t${labels.join('\t')}\t`, ...rows, ...P2P_LEGEND])
}

const busId = (p: Preset, gpu: number): string =>
  `00000000:${(p.pciBus[gpu] as number).toString(16).padStart(2, '0').toUpperCase()}:00.0`

/** `nvidia-smi --query-gpu=index,name,pci.bus_id --format=csv,noheader`: index ↔ bus id, stated. */
export function queryGpuText(p: Preset, gpus: readonly number[]): string {
  return lines([
    ...header(p, gpus, 'nvidia-smi --query-gpu=index,name,pci.bus_id --format=csv,noheader'),
    ...gpus.map((g, i) => `${i}, ${p.gpuName}, ${busId(p, g)}`),
  ])
}

/** `lspci -tv` of the machine with only these GPUs, or undefined when the preset models no PCI tree. */
export function lspciTvText(p: Preset, gpus: readonly number[]): string | undefined {
  if (!p.machine.pci) return undefined
  return lines([...header(p, gpus, 'lspci -tv'), ...renderLspciTree(p.machine.pci, new Set(gpus))])
}

/**
 * The host files the hypervisor check reads, relative to a root: /proc/cpuinfo (vendor, and
 * the `hypervisor` flag in a guest; its first line is the SIMULATED marker) and, in a guest,
 * DMI's sys_vendor and product_name (one value each, so no marker there).
 */
export function hostFiles(p: Preset): { path: string; text: string }[] {
  const flags =
    `fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr ` +
    `sse sse2 ht syscall nx mmxext fxsr_opt pdpe1gb rdtscp lm constant_tsc rep_good nopl cpuid` +
    `${p.machine.vm ? ' hypervisor' : ''} lahf_lm`
  const cpuinfo =
    `${SIM_MARKER}\n# preset ` +
    `${p.name}: /proc/cpuinfo (first processor only)\nprocessor\t: 0\nvendor_id\t: ` +
    `${p.machine.cpuVendor}\nflags\t\t: ${flags}\n`
  const files = [{ path: 'proc/cpuinfo', text: cpuinfo }]
  if (p.machine.vm)
    files.push(
      { path: 'sys/class/dmi/id/sys_vendor', text: `${p.machine.vm.sysVendor}\n` },
      { path: 'sys/class/dmi/id/product_name', text: `${p.machine.vm.productName}\n` },
    )
  return files
}
