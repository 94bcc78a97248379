/**
 * Simulated topology: the texts the topology tools would print on a preset's machine, and a
 * topology capture made of them (marked simulated) for a simulated result set's `topology/`.
 * Nothing here reads this host's sysfs or runs nvidia-smi: a simulated capture is about the
 * preset, not the machine gpucomm runs on.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { badInput } from '../../errors/index.ts'
import type { TopologyReport } from '../../topology/index.ts'
import { presetByName } from '../_physics.ts'
import type { Preset, TopoFormat } from '../_types.ts'
import { TOPO_FORMATS } from '../_types.ts'
import { hostFiles, lspciTvText, queryGpuText, topoMText, topoP2pText } from './_topo-text.ts'

/** One simulated topology output: the file name a live capture stores it under, and its text. */
export interface SimTopologyInput {
  name: string
  text: string
}

/** The GPUs to show (physical indices, in CUDA-ordinal order); all of the preset's by default. */
function checkGpus(p: Preset, gpus: readonly number[] | undefined): readonly number[] {
  const list = gpus ?? p.pciBus.map((_, i) => i)
  if (list.length === 0) throw badInput('--gpus: no GPU given')
  const bad = list.find((g) => !Number.isInteger(g) || g < 0 || g >= p.pciBus.length)
  if (bad !== undefined)
    throw badInput(`--gpus: GPU ${bad} does not exist in preset ${p.name} (0-${p.pciBus.length - 1})`)
  if (new Set(list).size !== list.length) throw badInput('--gpus: a GPU is listed twice')
  return list
}

/**
 * The topology texts of `preset`'s machine with GPUs `gpus` (physical indices; GPU i of every
 * text is gpus[i], numbered as the simulated benchmarks number them, as nvidia-smi would in a
 * VM or container given only those GPUs). Each text starts with SIM_MARKER and a line naming
 * the preset and the command it imitates: `nvidia-smi --query-gpu` CSV, `nvidia-smi topo -m`,
 * `topo -p2p r`, `topo -p2p w`, and `lspci -tv` where the preset models a PCI tree (not nvlink).
 * Unknown preset or bad GPU list → bad input.
 */
export function simTopologyInputs(preset: string, gpus?: readonly number[]): SimTopologyInput[] {
  const p = presetByName(preset)
  const g = checkGpus(p, gpus)
  const out: SimTopologyInput[] = [
    { name: 'nvidia-smi-query-gpu.csv', text: queryGpuText(p, g) },
    { name: 'nvidia-smi-topo-m.txt', text: topoMText(p, g) },
    { name: 'nvidia-smi-topo-p2p-r.txt', text: topoP2pText(p, g, 'r') },
    { name: 'nvidia-smi-topo-p2p-w.txt', text: topoP2pText(p, g, 'w') },
  ]
  const tree = lspciTvText(p, g)
  if (tree !== undefined) out.push({ name: 'lspci-tv.txt', text: tree })
  return out
}

/** One topology text, as `gpucomm sim --format topo-m|topo-p2p-r|topo-p2p-w|lspci-tv` prints it. */
export function simTopologyText(preset: string, format: TopoFormat, gpus?: readonly number[]): string {
  const p = presetByName(preset)
  const g = checkGpus(p, gpus)
  switch (format) {
    case 'topo-m':
      return topoMText(p, g)
    case 'topo-p2p-r':
      return topoP2pText(p, g, 'r')
    case 'topo-p2p-w':
      return topoP2pText(p, g, 'w')
    case 'lspci-tv': {
      const t = lspciTvText(p, g)
      if (t === undefined) throw badInput(`--format lspci-tv: preset ${p.name} models no PCI tree`)
      return t
    }
    default:
      throw badInput(`--format ${String(format)}: expected one of ${TOPO_FORMATS.join(', ')}`)
  }
}

/**
 * Writes a topology capture of `preset`'s machine (GPUs `gpus`, all by default) to `dir`
 * (new or empty), so `collectTopology({ from: dir })` reads it back; returns the report.
 * The texts of simTopologyInputs go in as saved inputs, the preset's /proc/cpuinfo and (in a
 * guest) DMI files as a stand-in sysfs root, so the hypervisor and CPU vendor are the preset's;
 * the capture's capture.json says `"simulated": true` and its report carries `simulated: true`
 * and a `simulated` finding. Temporary files are removed afterwards.
 */
export async function writeSimTopology(dir: string, preset: string, gpus?: readonly number[]): Promise<TopologyReport> {
  const p = presetByName(preset)
  const inputs = simTopologyInputs(p.name, gpus)
  const tmp = mkdtempSync(join(tmpdir(), `gpucomm-sim-${p.name}-`))
  try {
    const paths = inputs.map((i) => {
      const path = join(tmp, i.name)
      writeFileSync(path, i.text)
      return path
    })
    const root = join(tmp, 'root')
    for (const f of hostFiles(p)) {
      mkdirSync(dirname(join(root, f.path)), { recursive: true })
      writeFileSync(join(root, f.path), f.text)
    }
    // Loaded lazily: the simulator's text output does not need the topology module.
    const { captureTopology } = await import('../../topology/index.ts')
    return await captureTopology(dir, { inputs: paths, sysfsRoot: root, simulated: true })
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}

/**
 * The PCIe link of each GPU (physical indices) as a reading under load would give it on
 * `preset`'s machine: the trained generation and width, current = max (SIMULATED). Bus ids
 * as the simulated `nvidia-smi --query-gpu` prints them; empty when the preset models no link.
 */
export function simLinks(preset: string, gpus: readonly number[]): { bdf: string; gen: number; width: number }[] {
  const p = presetByName(preset)
  const link = p.machine.pcieLink
  if (!link) return []
  return checkGpus(p, gpus).map((g) => ({
    bdf: `0000:${(p.pciBus[g] as number).toString(16).padStart(2, '0')}:00.0`,
    gen: link.gen,
    width: link.width,
  }))
}
