/**
 * Reads NVIDIA GPUs and their PCIe paths from sysfs (`/sys/bus/pci/devices/*`): resolved
 * device path → root bus, root port and bridges; NUMA node; IOMMU group; driver; ACS.
 */
import type { FsView } from '../machine/index.ts'
import type { TopoBridge } from './_types.ts'

/** A GPU as sysfs describes it. */
export interface SysfsGpu {
  busId: string
  pciId: string
  numa?: number
  rootBus: string
  chain: string[]
  upstream: TopoBridge[]
  switchPath: string[]
  iommuGroup?: number
  driver?: string
  from: Record<string, string>
}

/** What a sysfs scan found. */
export interface SysfsScan {
  /** Whether /sys/bus/pci/devices existed at all. */
  present: boolean
  deviceCount: number
  rootBuses: string[]
  gpus: SysfsGpu[]
}

const BDF = /^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$/
const ROOT = /^pci([0-9a-f]{4}:[0-9a-f]{2})$/
const DEVICES = '/sys/bus/pci/devices'

/** Root bus and bridge chain of a resolved device path `/sys/devices/pci0000:00/…/dev`. */
function pathChain(resolved: string): { rootBus?: string; chain: string[] } {
  const parts = resolved.split('/')
  let at = -1
  parts.forEach((p, i) => {
    if (ROOT.test(p)) at = i
  })
  if (at < 0) return { chain: [] }
  const bdfs = parts.slice(at + 1).filter((p) => BDF.test(p))
  return { rootBus: (ROOT.exec(parts[at] as string) as RegExpExecArray)[1] as string, chain: bdfs.slice(0, -1) }
}

/** ACS from a bridge's config space: walks the PCIe extended capabilities (ACS id 0x000d). */
function acsFromConfig(config: Buffer | undefined): TopoBridge['acs'] {
  if (!config || config.length < 0x104) return 'unreadable'
  let off = 0x100
  for (let hops = 0; off >= 0x100 && off + 8 <= config.length && hops < 64; hops++) {
    const header = config.readUInt32LE(off)
    if (header === 0 || header === 0xffffffff) return 'absent'
    if ((header & 0xffff) === 0x000d) {
      const capability = config.readUInt16LE(off + 4)
      const control = config.readUInt16LE(off + 6)
      return { capability, control, p2pRequestRedirect: (control & 0x0004) !== 0 }
    }
    off = (header >>> 20) & 0xffc
    if (off === 0) return 'absent'
  }
  return 'absent'
}

/** Role of the i-th of n bridges from the root port down (switches pair up below it). */
export function roleOf(i: number, n: number): TopoBridge['role'] {
  if (i === 0) return 'root-port'
  if (i % 2 === 1) return i + 1 < n ? 'switch-upstream' : 'bridge'
  return 'switch-downstream'
}

function readGpu(fs: FsView, bdf: string, resolved: string): SysfsGpu | undefined {
  const { rootBus, chain } = pathChain(resolved)
  if (!rootBus) return undefined
  const dev = `${DEVICES}/${bdf}`
  const device = fs.text(`${dev}/device`)?.replace(/^0x/, '') ?? '????'
  const upstream: TopoBridge[] = chain.map((b, i) => {
    const dir = resolved.slice(0, resolved.indexOf(`/${b}`) + b.length + 1)
    return { bdf: b, role: roleOf(i, chain.length), acs: acsFromConfig(fs.bytes(`${dir}/config`)) }
  })
  const g: SysfsGpu = {
    busId: bdf,
    pciId: `10de:${device}`,
    rootBus,
    chain,
    upstream,
    switchPath: upstream.filter((u) => u.role === 'switch-upstream').map((u) => u.bdf),
    from: { busId: dev, pciId: `${dev}/device`, rootBus: resolved, upstream: resolved },
  }
  const numa = Number(fs.text(`${dev}/numa_node`))
  if (Number.isInteger(numa) && numa >= 0) [g.numa, g.from.numa] = [numa, `${dev}/numa_node`]
  const group = fs.linkName(`${dev}/iommu_group`)
  if (group !== undefined && /^\d+$/.test(group))
    [g.iommuGroup, g.from.iommuGroup] = [Number(group), `${dev}/iommu_group`]
  const driver = fs.linkName(`${dev}/driver`)
  if (driver) [g.driver, g.from.driver] = [driver, `${dev}/driver`]
  return g
}

/** Scans sysfs for NVIDIA display devices (vendor 0x10de, class 0x03xxxx) and root buses. */
export function scanPci(fs: FsView): SysfsScan {
  const entries = fs.list(DEVICES).filter((e) => BDF.test(e))
  const roots = new Set<string>()
  const gpus: SysfsGpu[] = []
  for (const bdf of entries) {
    const resolved = fs.resolve(`${DEVICES}/${bdf}`)
    const { rootBus } = pathChain(resolved)
    if (rootBus) roots.add(rootBus)
    if (fs.text(`${DEVICES}/${bdf}/vendor`) !== '0x10de') continue
    if (!(fs.text(`${DEVICES}/${bdf}/class`) ?? '').startsWith('0x03')) continue
    const g = readGpu(fs, bdf, resolved)
    if (g) gpus.push(g)
  }
  return {
    present: entries.length > 0,
    deviceCount: entries.length,
    rootBuses: [...roots].sort(),
    gpus: gpus.sort((a, b) => a.busId.localeCompare(b.busId)),
  }
}
