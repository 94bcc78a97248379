/**
 * Reads the host facts through a FsView (live `/`, a capture's root, or `--sysfs-root`):
 * PCIe link speed and width of each GPU and switch upstream port (Linux sysfs ABI,
 * Documentation/ABI/testing/sysfs-bus-pci), ASPM policy and per-link ASPM state, cpu0's
 * cpuidle states and cpufreq governor (Documentation/admin-guide/pm/cpuidle.rst,
 * cpufreq.rst, amd-pstate.rst), the IOMMU kernel parameters and group types
 * (Documentation/ABI/testing/sysfs-kernel-iommu_groups), and the NUMA nodes.
 */
import type { FsView, SmiLink } from '../machine/index.ts'
import type { CpuPower, HostFacts, HostGpu, IdleState, IommuState, LinkReading, NumaState } from './_types.ts'

const DEV = '/sys/bus/pci/devices'
const CPU = '/sys/devices/system/cpu'
/** GT/s per lane → PCIe generation. */
const GEN: Record<string, number> = { '2.5': 1, '5': 2, '8': 3, '16': 4, '32': 5, '64': 6 }
const ASPM_FILES = ['l0s_aspm', 'l1_aspm', 'l1_1_aspm', 'l1_2_aspm', 'l1_1_pcipm', 'l1_2_pcipm'] as const

/** "16.0 GT/s PCIe" or "8 GT/s" → 4 or 3; undefined for "Unknown" or anything else. */
export function genOf(speed: string | undefined): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*GT\/s/.exec(speed ?? '')
  return m ? GEN[String(Number(m[1]))] : undefined
}

const num = (s: string | undefined): number | undefined => {
  const n = Number.parseInt((s ?? '').replace(/^x/, ''), 10)
  return Number.isFinite(n) && n > 0 ? n : undefined
}

/** The link above `bdf` (whose parent port is `parent`): current vs the lower of both ends' maxima. */
function readLink(
  fs: FsView,
  bdf: string,
  parent: string | undefined,
  role: LinkReading['role'],
  portEmulated: boolean,
): LinkReading | undefined {
  const at = (d: string, f: string): string | undefined => fs.text(`${DEV}/${d}/${f}`)
  const cur = { gen: genOf(at(bdf, 'current_link_speed')), width: num(at(bdf, 'current_link_width')) }
  const mine = { gen: genOf(at(bdf, 'max_link_speed')), width: num(at(bdf, 'max_link_width')) }
  const up =
    parent && !portEmulated
      ? { gen: genOf(at(parent, 'max_link_speed')), width: num(at(parent, 'max_link_width')) }
      : {}
  const lower = (a?: number, b?: number): number | undefined =>
    a === undefined ? b : b === undefined ? a : Math.min(a, b)
  const from =
    `${DEV}/${bdf}/{current,max}_link_{speed,width}` +
    `${portEmulated ? ' (VM: the port above is emulated, judged against the GPU’s own maximum)' : ''}`
  const link: LinkReading = { bdf, role, reading: 'sysfs', from }
  if (parent) link.parent = parent
  const maxGen = lower(mine.gen, up.gen)
  const maxWidth = lower(mine.width, up.width)
  if (cur.gen !== undefined && maxGen !== undefined) link.gen = { current: cur.gen, max: maxGen }
  if (cur.width !== undefined && maxWidth !== undefined) link.width = { current: cur.width, max: maxWidth }
  const aspm = ASPM_FILES.filter((f) => at(bdf, `link/${f}`) === '1')
  if (aspm.length) link.aspmOn = aspm
  return link.gen || link.width || aspm.length ? link : undefined
}

/** Each GPU's links: the GPU's own, then each switch upstream port's above it. */
function readLinks(fs: FsView, gpus: readonly HostGpu[], vm: boolean): Record<number, LinkReading[]> {
  const out: Record<number, LinkReading[]> = {}
  for (const g of gpus) {
    if (!g.busId) continue
    const up = g.upstream ?? []
    const links = [readLink(fs, g.busId, up[up.length - 1]?.bdf, 'gpu', vm)]
    up.forEach((u, i) => {
      if (u.role === 'switch-upstream') links.push(readLink(fs, u.bdf, up[i - 1]?.bdf, 'switch-upstream', vm))
    })
    const got = links.filter((l): l is LinkReading => l !== undefined)
    if (got.length) out[g.index] = got
  }
  return out
}

function readCpu(fs: FsView): CpuPower {
  const from: string[] = []
  const read = (p: string): string | undefined => {
    const v = fs.text(p)
    if (v !== undefined) from.push(`${p}: ${v}`)
    return v
  }
  const dir = `${CPU}/cpu0/cpuidle`
  const states: IdleState[] = fs
    .list(dir)
    .map((e) => /^state(\d+)$/.exec(e)?.[1])
    .filter((i): i is string => i !== undefined)
    .map(Number)
    .sort((a, b) => a - b)
    .flatMap((i) => {
      const s = `${dir}/state${i}`
      const latency = Number(fs.text(`${s}/latency`))
      if (!Number.isFinite(latency)) return []
      return [
        {
          index: i,
          name: fs.text(`${s}/name`) ?? `state${i}`,
          exitLatencyS: latency * 1e-6,
          disabled: fs.text(`${s}/disable`) === '1',
        },
      ]
    })
  if (states.length) from.push(`${dir}/state*/{name,latency,disable}`)
  const cpu: CpuPower = { states, from }
  const set = <K extends keyof CpuPower>(k: K, v: CpuPower[K] | undefined): void => {
    if (v !== undefined) cpu[k] = v
  }
  set('idleDriver', read(`${CPU}/cpuidle/current_driver`))
  set('idleGovernor', read(`${CPU}/cpuidle/current_governor_ro`) ?? read(`${CPU}/cpuidle/current_governor`))
  set('freqGovernor', read(`${CPU}/cpu0/cpufreq/scaling_governor`))
  set('freqDriver', read(`${CPU}/cpu0/cpufreq/scaling_driver`))
  set('amdPstate', read(`${CPU}/amd_pstate/status`))
  const enabled = states.filter((s) => !s.disabled)
  set(
    'deepestEnabled',
    enabled.reduce<IdleState | undefined>((a, s) => (!a || s.exitLatencyS >= a.exitLatencyS ? s : a), undefined),
  )
  return cpu
}

/** IOMMU-related kernel parameters (`iommu=`, `amd_iommu=`, `intel_iommu=`, `iommu.passthrough=`, …). */
export function iommuParams(cmdline: string | undefined): string[] {
  return (cmdline ?? '').split(/\s+/).filter((t) => /^(iommu|amd_iommu|intel_iommu|iommu\.\w+)(=|$)/.test(t))
}

function readIommu(fs: FsView, gpus: readonly HostGpu[]): IommuState {
  const cmdline = fs.text('/proc/cmdline')
  const state: IommuState = {
    cmdline: iommuParams(cmdline),
    gpuGroupType: {},
    groups: fs.list('/sys/kernel/iommu_groups').filter((g) => /^\d+$/.test(g)).length,
    from: cmdline !== undefined ? ['/proc/cmdline'] : [],
  }
  for (const g of gpus) {
    if (g.iommuGroup === undefined) continue
    const p = `/sys/kernel/iommu_groups/${g.iommuGroup}/type`
    const type = fs.text(p)
    if (type === undefined) continue
    state.gpuGroupType[g.index] = type
    state.from.push(`${p}: ${type}`)
  }
  return state
}

function readNuma(fs: FsView): NumaState | undefined {
  const dir = '/sys/devices/system/node'
  const nodes = fs
    .list(dir)
    .map((e) => /^node(\d+)$/.exec(e)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number)
  return nodes.length ? { nodes: nodes.sort((a, b) => a - b), from: `${dir}/node*` } : undefined
}

/** What else the host reading needs besides the files. */
export interface HostReadOptions {
  /** The readings were taken while a bandwidth test ran. */
  underLoad?: boolean
  /** Running in a VM: PCIe ports above passed-through GPUs are emulated. */
  vm?: boolean
  /** Parsed `nvidia-smi -q` outputs. */
  smi?: readonly { file: string; gpus: readonly SmiLink[] }[]
}

/** nvidia-smi -q link readings of the GPUs it names (its "Max" is already the lower of device and host). */
function smiLinks(gpus: readonly HostGpu[], smi: HostReadOptions['smi']): [number, LinkReading][] {
  return (smi ?? []).flatMap(({ file, gpus: q }) =>
    q.flatMap((s) => {
      const g = gpus.find((x) => x.busId === s.busId)
      if (!g || (!s.gen && !s.width)) return []
      const link: LinkReading = {
        bdf: s.busId,
        role: 'gpu',
        reading: 'nvidia-smi -q',
        from: `${file}:${s.line}${s.pstate ? ` (performance state ${s.pstate})` : ''}`,
        ...(s.gen ? { gen: s.gen } : {}),
        ...(s.width ? { width: s.width } : {}),
      }
      return [[g.index, link] as [number, LinkReading]]
    }),
  )
}

/**
 * Reads every host fact `fs` (when given) and nvidia-smi -q outputs hold for `gpus`; undefined
 * when there is neither.
 */
export function readHostFacts(
  fs: FsView | undefined,
  gpus: readonly HostGpu[],
  o: HostReadOptions = {},
): HostFacts | undefined {
  const smi = smiLinks(gpus, o.smi)
  if (!fs && smi.length === 0) return undefined
  const links = fs ? readLinks(fs, gpus, o.vm === true) : {}
  for (const [g, l] of smi) links[g] = [...(links[g] ?? []), l]
  const policy = fs?.text('/sys/module/pcie_aspm/parameters/policy')
  const numa = fs ? readNuma(fs) : undefined
  return {
    links,
    ...(policy ? { aspmPolicy: /\[(\w+)\]/.exec(policy)?.[1] ?? policy } : {}),
    cpu: fs ? readCpu(fs) : { states: [], from: [] },
    iommu: fs ? readIommu(fs, gpus) : { cmdline: [], gpuGroupType: {}, groups: 0, from: [] },
    ...(numa ? { numa } : {}),
    underLoad: o.underLoad === true,
  }
}
