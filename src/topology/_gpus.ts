/**
 * Merges what every source said about each GPU into one `TopoGpu`, keeping the source of
 * every field. GPUs are indexed as nvidia-smi indexes them: in PCI bus order, unless a
 * --query-gpu CSV states index ↔ bus id explicitly.
 */
import type { Diagnostic } from '../model/index.ts'
import type { ParsedInputs } from './_inputs.ts'
import type { SysfsScan } from './_pci.ts'
import { roleOf } from './_pci.ts'
import type { TopoBridge, TopoGpu } from './_types.ts'

type Field = Exclude<keyof TopoGpu, 'index' | 'from'>

/** Sets a field (first source wins) and records where it came from. */
function put<K extends Field>(g: TopoGpu, key: K, value: TopoGpu[K] | undefined, from: string): void {
  if (value === undefined || g[key] !== undefined) return
  g[key] = value
  g.from[key] = from
}

function gpuCount(inp: ParsedInputs, scan: SysfsScan | undefined): { n: number; counts: string[] } {
  const counts: [string, number][] = []
  for (const { file, t } of inp.topoM) counts.push([file, t.devices.filter((d) => /^GPU\d+$/.test(d)).length])
  for (const { file, t } of inp.p2p) counts.push([file, t.devices.length])
  for (const { file, gpus } of inp.query) counts.push([file, gpus.length])
  if (scan?.present) counts.push(['sysfs', scan.gpus.length])
  for (const { file, t } of inp.lspciNn) counts.push([file, t.gpus.length])
  for (const { file, t } of inp.lspciTv) counts.push([file, t.gpus.length])
  return { n: Math.max(0, ...counts.map((c) => c[1])), counts: counts.map(([f, c]) => `${f}: ${c}`) }
}

function fromSysfs(g: TopoGpu, scan: SysfsScan | undefined, busOrder: string[]): void {
  const s = scan?.gpus.find((x) => x.busId === g.busId) ?? (g.busId === undefined ? scan?.gpus[g.index] : undefined)
  if (!s) return
  const at = (k: string): string => `sysfs ${s.from[k] ?? s.from.busId}`
  put(
    g,
    'busId',
    s.busId,
    g.busId === undefined ? `sysfs ${s.from.busId} (PCI bus order ${busOrder.indexOf(s.busId)})` : at('busId'),
  )
  put(g, 'pciId', s.pciId, at('pciId'))
  put(g, 'numa', s.numa, at('numa'))
  put(g, 'rootBus', s.rootBus, at('rootBus'))
  put(g, 'rootPort', s.chain[0], at('upstream'))
  put(g, 'upstream', s.upstream, at('upstream'))
  put(g, 'switchPath', s.switchPath, at('upstream'))
  put(g, 'iommuGroup', s.iommuGroup, at('iommuGroup'))
  put(g, 'driver', s.driver, at('driver'))
}

function fromLspci(g: TopoGpu, inp: ParsedInputs): void {
  for (const { file, t } of inp.lspciNn) {
    const d = t.gpus.find((x) => x.bdf === g.busId) ?? (g.busId === undefined ? t.gpus[g.index] : undefined)
    if (!d) continue
    put(g, 'busId', d.bdf, `${file}:${d.line}`)
    put(g, 'name', d.name, `${file}:${d.line}`)
    put(g, 'pciId', d.pciId, `${file}:${d.line}`)
    put(g, 'driver', d.driver, `${file}:${d.line}`)
  }
  for (const { file, t } of inp.lspciTv) {
    const d = t.gpus.find((x) => x.bdf === g.busId) ?? (g.busId === undefined ? t.gpus[g.index] : undefined)
    if (!d) continue
    const where = `${file}:${d.line}`
    const roles = d.chain.map((b, i): TopoBridge => ({ bdf: b, role: roleOf(i, d.chain.length) }))
    put(g, 'busId', d.bdf, where)
    put(g, 'name', d.name, where)
    put(g, 'rootBus', d.rootBus, where)
    put(g, 'rootPort', d.chain[0], where)
    put(g, 'upstream', roles, where)
    put(g, 'switchPath', d.switches, where)
  }
  for (const { file, t } of inp.iommu)
    if (g.busId && t.byDevice[g.busId] !== undefined) put(g, 'iommuGroup', t.byDevice[g.busId], file)
}

/** Builds the GPU list from every source. */
export function buildGpus(
  inp: ParsedInputs,
  scan: SysfsScan | undefined,
): { gpus: TopoGpu[]; diagnostics: Diagnostic[] } {
  const { n, counts } = gpuCount(inp, scan)
  const diagnostics: Diagnostic[] = []
  const distinct = new Set(counts.map((c) => c.split(': ')[1]))
  if (distinct.size > 1)
    diagnostics.push({
      file: 'topology',
      line: 0,
      severity: 'warn',
      code: 'gpu-count',
      message: `sources disagree on the number of GPUs (${counts.join(', ')}); indices are matched in PCI bus order`,
    })
  const busOrder = (scan?.gpus ?? []).map((s) => s.busId)
  const gpus: TopoGpu[] = []
  for (let index = 0; index < n; index++) {
    const g: TopoGpu = { index, from: {} }
    for (const { file, gpus: q } of inp.query) {
      const r = q.find((x) => x.index === index)
      if (r) [put(g, 'busId', r.busId, `${file}:${r.line}`), put(g, 'name', r.name, `${file}:${r.line}`)]
    }
    for (const { file, t } of inp.topoM) {
      const r = t.gpus.find((x) => x.index === index)
      if (!r) continue
      put(g, 'numa', typeof r.numa === 'number' ? r.numa : undefined, `${file}:${r.line}`)
      put(g, 'cpuAffinity', r.cpuAffinity, `${file}:${r.line}`)
    }
    fromSysfs(g, scan, busOrder)
    fromLspci(g, inp)
    gpus.push(g)
  }
  return { gpus, diagnostics }
}
