/**
 * The human `gpucomm topo` output: a compact pair matrix (link class and P2P), the
 * per-GPU table, the verdict lines and the grouping advice.
 */
import { renderTable } from '../text/index.ts'
import { COPY_CAPS } from './_pairs.ts'
import type { TopologyReport, TopoPair } from './_types.ts'

function cell(p: TopoPair | undefined): string {
  if (!p) return '?'
  const statuses = [...new Set(COPY_CAPS.map((c) => p.p2p[c]).filter((s) => s !== undefined))]
  return `${p.link ?? (p.pciPath ? `${p.pciPath}(PCIe path)` : '?')}${statuses.length ? ` ${statuses.join('/')}` : ''}`
}

function pairMatrix(r: TopologyReport): string {
  const idx = r.gpus.map((g) => g.index)
  const pair = (a: number, b: number): TopoPair | undefined =>
    r.pairs.find((p) => (p.a === a && p.b === b) || (p.a === b && p.b === a))
  const lines = idx.map((a) => [`GPU${a}`, ...idx.map((b) => (a === b ? 'X' : cell(pair(a, b))))])
  const caps = [...new Set(r.pairs.flatMap((p) => COPY_CAPS.filter((c) => p.p2p[c] !== undefined)))]
  const title =
    `Pairs: link class` + `${caps.length ? ` and P2P status (${caps.join('/')})` : ' (P2P status not reported)'}\n`
  return title + renderTable(['', ...idx.map((i) => `GPU${i}`)], lines)
}

function gpuTable(r: TopologyReport): string {
  const lines = r.gpus.map((g) => [
    String(g.index),
    g.name ?? g.pciId ?? '?',
    g.busId ?? '?',
    g.numa === undefined ? '-' : String(g.numa),
    g.rootBus ?? '?',
    g.rootPort ?? '?',
    g.iommuGroup === undefined ? '-' : String(g.iommuGroup),
    g.switchPath === undefined ? '?' : g.switchPath.join(' > ') || 'none',
    g.driver ?? '-',
  ])
  return renderTable(
    ['GPU', 'name', 'bus id', 'NUMA', 'root bus', 'root port', 'IOMMU', 'PCIe switch', 'driver'],
    lines,
  )
}

function host(r: TopologyReport): string {
  const h = r.hypervisor
  const hv = h.detected
    ? `VM${h.virt && h.virt !== 'none' ? ` (${h.virt})` : h.sysVendor ? ` (${h.sysVendor})` : ''}`
    : h.kind === 'unknown'
      ? 'unknown'
      : 'none'
  return (
    `${r.gpus.length} GPU${r.gpus.length === 1 ? '' : 's'}; hypervisor: ${hv}` +
    `${h.container ? `; container: ${h.container}` : ''}` +
    `${r.cpuVendor ? `; CPU ${r.cpuVendor}` : ''}; PCI root buses: ` +
    `${r.pciRootBuses.length ? r.pciRootBuses.join(' ') : 'none seen'}\n`
  )
}

/** One line of host state (power, IOMMU, NUMA), when read. */
function hostState(r: TopologyReport): string | undefined {
  const h = r.host
  if (!h) return undefined
  const d = h.cpu.deepestEnabled
  const types = [...new Set(Object.values(h.iommu.gpuGroupType))]
  const parts = [
    h.aspmPolicy ? `ASPM policy ${h.aspmPolicy}` : undefined,
    d
      ? `deepest idle state ${d.name} (${+(d.exitLatencyS * 1e6).toFixed(1)} µs exit` +
        `${h.cpu.idleDriver ? `, ${h.cpu.idleDriver}` : ''})`
      : undefined,
    h.cpu.freqGovernor
      ? `cpufreq ${h.cpu.freqGovernor}${h.cpu.amdPstate ? `, amd_pstate ${h.cpu.amdPstate}` : ''}`
      : undefined,
    types.length ? `GPU IOMMU groups ${types.join('/')}` : undefined,
    h.numa ? `NUMA nodes ${h.numa.nodes.join(',')}` : undefined,
  ].filter((x) => x !== undefined)
  return parts.length ? `Host: ${parts.join('; ')}\n` : undefined
}

/** The whole human report. */
export function renderTopology(r: TopologyReport): string {
  const out: string[] = [host(r), ...[hostState(r)].filter((x) => x !== undefined)]
  if (r.gpus.length > 0) out.push(pairMatrix(r), gpuTable(r))
  out.push(
    'Verdict:\n' +
      r.findings
        .map((f) => `  [${f.severity}] ${f.id}: ${f.message}${f.reference ? `\n      ref: ${f.reference}` : ''}\n`)
        .join(''),
  )
  if (r.groupings.length > 0)
    out.push(
      'Grouping advice (best first per size; lower cost is better):\n' +
        r.groupings.map((g) => `  ${g.reason}\n`).join(''),
    )
  return out.join('\n')
}

/** One line saying why no GPU was found, naming what was tried. */
export function noGpuLine(r: TopologyReport): string {
  const smi = r.sources.find((s) => s.name.startsWith('nvidia-smi'))
  const sysfs = r.sources.find((s) => s.kind === 'sysfs')
  const tried = [
    smi
      ? smi.ok
        ? 'nvidia-smi lists none'
        : `nvidia-smi: ${(smi.note ?? 'failed').replace(/^nvidia-smi: /, '')}`
      : undefined,
    sysfs
      ? `${sysfs.name}: ${sysfs.ok ? 'no NVIDIA display device (vendor 0x10de, class 0x03xx)' : 'no PCI devices'}`
      : undefined,
  ].filter((x) => x !== undefined)
  return (
    `no NVIDIA GPU found (` +
    `${tried.join('; ') || 'no source named one'}); --json shows what was read (hypervisor, PCI root buses); to read another machine use ` +
    `topo --from CAPTURE_DIR or --input FILE..., or try the simulator (gpucomm sim --preset ` +
    `seed-vm --format topo-m)`
  )
}
