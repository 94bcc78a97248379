/**
 * Builds GENERATED sysfs trees in a temp dir, with real directories and real relative
 * symlinks laid out the way Linux lays them out:
 *   sys/devices/pci<dddd:bb>/<root port>/…/<device>/{vendor,device,class,numa_node,config}
 *   sys/bus/pci/devices/<bdf> → ../../../devices/pci…/<bdf>
 *   sys/kernel/iommu_groups/<g>/devices/<bdf> → device dir;  <device>/iommu_group → group dir
 *   proc/cpuinfo, sys/class/dmi/id/{sys_vendor,product_name}
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'

/** One PCI function of a generated tree. */
export interface FakeDevice {
  /** Bridges from the root port down, ending with this device's own address. */
  path: string[]
  /** Root bus `dddd:bb`. */
  rootBus: string
  vendor: string
  device: string
  class: string
  numa?: number
  iommuGroup?: number
  /** The IOMMU group's default-domain type (identity, DMA, DMA-FQ). */
  groupType?: string
  config?: Buffer
  /** PCIe link files: speeds as sysfs prints them ("32.0 GT/s PCIe"), widths as lane counts. */
  link?: { speed: string; width: number; maxSpeed: string; maxWidth: number; aspmOn?: string[] }
}

/** One cpuidle state: name, exit latency in µs, disabled. */
export type FakeIdleState = [name: string, latencyUs: number, disabled?: boolean]

/** Host-wide files of a generated tree. */
export interface FakeHost {
  cpuinfo?: string
  sysVendor?: string
  productName?: string
  /** /proc/cmdline. */
  cmdline?: string
  /** /sys/module/pcie_aspm/parameters/policy, e.g. "[default] performance powersave powersupersave". */
  aspmPolicy?: string
  /** cpuidle driver and cpu0's states. */
  idle?: { driver: string; states: FakeIdleState[] }
  /** cpu0's cpufreq scaling_governor. */
  governor?: string
  amdPstate?: string
  /** /sys/devices/system/node/node<N>. */
  numaNodes?: number[]
}

const put = (path: string, text: string): void => {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, text)
}

/** The host-wide power, IOMMU and NUMA files. */
function writeHostFiles(root: string, host: FakeHost): void {
  const sys = join(root, 'sys')
  if (host.cmdline !== undefined) put(join(root, 'proc', 'cmdline'), `${host.cmdline}\n`)
  if (host.aspmPolicy !== undefined)
    put(join(sys, 'module', 'pcie_aspm', 'parameters', 'policy'), `${host.aspmPolicy}\n`)
  const cpu = join(sys, 'devices', 'system', 'cpu')
  if (host.idle) {
    put(join(cpu, 'cpuidle', 'current_driver'), `${host.idle.driver}\n`)
    put(join(cpu, 'cpuidle', 'current_governor_ro'), 'menu\n')
    host.idle.states.forEach(([name, latency, disabled], i) => {
      const s = join(cpu, 'cpu0', 'cpuidle', `state${i}`)
      put(join(s, 'name'), `${name}\n`)
      put(join(s, 'latency'), `${latency}\n`)
      put(join(s, 'disable'), `${disabled ? 1 : 0}\n`)
    })
  }
  if (host.governor !== undefined) put(join(cpu, 'cpu0', 'cpufreq', 'scaling_governor'), `${host.governor}\n`)
  if (host.amdPstate !== undefined) put(join(cpu, 'amd_pstate', 'status'), `${host.amdPstate}\n`)
  for (const n of host.numaNodes ?? [])
    mkdirSync(join(sys, 'devices', 'system', 'node', `node${n}`), { recursive: true })
}

const link = (from: string, to: string): void => {
  mkdirSync(dirname(from), { recursive: true })
  symlinkSync(relative(dirname(from), to), from)
}

/** Writes the tree under `root` (which should be an empty temp dir). */
export function buildSysfsTree(root: string, devices: readonly FakeDevice[], host: FakeHost = {}): void {
  const sys = join(root, 'sys')
  mkdirSync(join(sys, 'bus', 'pci', 'devices'), { recursive: true })
  for (const d of devices) {
    const dir = join(sys, 'devices', `pci${d.rootBus}`, ...d.path)
    const bdf = d.path[d.path.length - 1] as string
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'vendor'), `0x${d.vendor}\n`)
    writeFileSync(join(dir, 'device'), `0x${d.device}\n`)
    writeFileSync(join(dir, 'class'), `0x${d.class}\n`)
    writeFileSync(join(dir, 'numa_node'), `${d.numa ?? -1}\n`)
    writeFileSync(join(dir, 'config'), d.config ?? Buffer.alloc(64))
    link(join(sys, 'bus', 'pci', 'devices', bdf), dir)
    if (d.iommuGroup !== undefined) {
      const g = join(sys, 'kernel', 'iommu_groups', String(d.iommuGroup))
      link(join(g, 'devices', bdf), dir)
      link(join(dir, 'iommu_group'), g)
      if (d.groupType !== undefined) writeFileSync(join(g, 'type'), `${d.groupType}\n`)
    }
    if (d.link) {
      writeFileSync(join(dir, 'current_link_speed'), `${d.link.speed}\n`)
      writeFileSync(join(dir, 'current_link_width'), `${d.link.width}\n`)
      writeFileSync(join(dir, 'max_link_speed'), `${d.link.maxSpeed}\n`)
      writeFileSync(join(dir, 'max_link_width'), `${d.link.maxWidth}\n`)
      for (const f of ['l0s_aspm', 'l1_aspm']) put(join(dir, 'link', f), `${d.link.aspmOn?.includes(f) ? 1 : 0}\n`)
    }
  }
  writeHostFiles(root, host)
  if (host.cpuinfo !== undefined) {
    mkdirSync(join(root, 'proc'), { recursive: true })
    writeFileSync(join(root, 'proc', 'cpuinfo'), host.cpuinfo)
  }
  if (host.sysVendor !== undefined || host.productName !== undefined) {
    const dmi = join(sys, 'devices', 'virtual', 'dmi', 'id')
    mkdirSync(dmi, { recursive: true })
    if (host.sysVendor !== undefined) writeFileSync(join(dmi, 'sys_vendor'), `${host.sysVendor}\n`)
    if (host.productName !== undefined) writeFileSync(join(dmi, 'product_name'), `${host.productName}\n`)
    link(join(sys, 'class', 'dmi', 'id'), dmi)
  }
}

/** A /proc/cpuinfo with two processors, with or without the `hypervisor` flag. */
export function cpuinfo(vendor: string, hypervisor: boolean): string {
  const flags = `fpu vme de pse tsc msr pae mce cx8 apic sep${hypervisor ? ' hypervisor' : ''} lahf_lm`
  return [0, 1].map((p) => `processor\t: ${p}\nvendor_id\t: ${vendor}\nflags\t\t: ${flags}\n`).join('\n')
}

/** A 4 KiB PCIe config space whose extended capability list holds one ACS capability. */
export function configWithAcs(control: number): Buffer {
  const b = Buffer.alloc(4096)
  b.writeUInt32LE(0x000d | (1 << 16), 0x100) // ACS, version 1, next 0
  b.writeUInt16LE(0x005f, 0x104) // capability: SV, TB, RR, CR, UF, DT
  b.writeUInt16LE(control, 0x106)
  return b
}

/** `nvidia-smi topo -p2p <cap>` text for n GPUs with one status everywhere (raw TAB layout). */
export function p2pMatrix(cap: string, n: number, status: string): string {
  const labels = Array.from({ length: n }, (_, i) => `GPU${i}`)
  const rows = labels.map((l, i) => ` ${l}\t${labels.map((_, j) => (i === j ? 'X' : status)).join('\t')}\t`)
  return [
    `$ nvidia-smi topo -p2p ${cap}`,
    ` \t${labels.join('\t')}\t`,
    ...rows,
    '',
    'Legend:',
    '',
    '  X    = Self',
    '  OK   = Status Ok',
    '  NS   = Not supported',
    '',
  ].join('\n')
}

/** The seed host as the VM sees it (issue 3): 8 GPUs 10de:2bb5, each behind its own root port on its own root bus. */
export const SEED_GPUS = ['01', '11', '61', '71', '81', '91', 'e1', 'f1'] as const
/** IOMMU groups of the seed GPUs, in bus order. */
export const SEED_GROUPS = [42, 61, 28, 10, 101, 117, 90, 72] as const

/** Builds the seed VM tree: QEMU root ports (1b36:000c), a virtio NIC, hypervisor flag, QEMU DMI. */
export function buildSeedVm(root: string): void {
  const devices: FakeDevice[] = [
    { path: ['0000:00:02.0'], rootBus: '0000:00', vendor: '1af4', device: '1000', class: '020000' },
  ]
  SEED_GPUS.forEach((bus, i) => {
    const rootBus = `0000:${(parseInt(bus, 16) - 1).toString(16).padStart(2, '0')}`
    const port = `${rootBus}:01.0`
    devices.push({ path: [port], rootBus, vendor: '1b36', device: '000c', class: '060400' })
    devices.push({
      path: [port, `0000:${bus}:00.0`],
      rootBus,
      vendor: '10de',
      device: '2bb5',
      class: '030200',
      iommuGroup: SEED_GROUPS[i],
    })
  })
  buildSysfsTree(root, devices, {
    cpuinfo: cpuinfo('AuthenticAMD', true),
    sysVendor: 'QEMU',
    productName: 'Standard PC (Q35 + ICH9, 2009)',
  })
}

/**
 * Bare metal, two sockets: on each, one root port → one PCIe switch (Broadcom 1000:c030)
 * → 4 downstream ports → 4 GPUs. Socket 1's downstream ports have ACS P2P Request Redirect on.
 */
export function buildTwoSwitchHost(root: string): void {
  const devices: FakeDevice[] = []
  for (const [rootBus, numa, base, redirect] of [
    ['0000:00', 0, 0x00, false],
    ['0000:80', 1, 0x80, true],
  ] as const) {
    const hex = (n: number): string => n.toString(16).padStart(2, '0')
    const port = `${rootBus}:01.1`
    const up = `0000:${hex(base + 1)}:00.0`
    devices.push({ path: [port], rootBus, vendor: '1022', device: '14ab', class: '060400', numa })
    devices.push({ path: [port, up], rootBus, vendor: '1000', device: 'c030', class: '060400', numa })
    for (let k = 0; k < 4; k++) {
      const down = `0000:${hex(base + 2)}:0${k}.0`
      devices.push({
        path: [port, up, down],
        rootBus,
        vendor: '1000',
        device: 'c030',
        class: '060400',
        numa,
        config: configWithAcs(redirect ? 0x001d : 0x0019),
      })
      devices.push({
        path: [port, up, down, `0000:${hex(base + 3 + k)}:00.0`],
        rootBus,
        vendor: '10de',
        device: '2bb5',
        class: '030000',
        numa,
        iommuGroup: 20 + base + k,
      })
    }
  }
  buildSysfsTree(root, devices, { cpuinfo: cpuinfo('AuthenticAMD', false) })
}
