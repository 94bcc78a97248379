/**
 * p2pBandwidthLatencyTest text (FORMATS §2, the layout cuda-samples printed from the CUDA 10
 * era to v13.0): device list, peer-access lines, connectivity matrix, four bandwidth matrices,
 * two latency sections of a GPU and a CPU matrix each. Devices are numbered 0… in --gpus order,
 * as the real tool numbers them under CUDA_VISIBLE_DEVICES; bus ids are the physical GPUs'.
 */
import { SIM_MARKER } from '../model/index.ts'
import { cell } from './_fmt.ts'
import { hostDeltaS } from './_host.ts'
import type { Noise } from './_noise.ts'
import { noiseOfRun } from './_noise.ts'
import { p2pBandwidth, p2pLatency } from './_physics.ts'
import type { Rendered, Run } from './_run.ts'
import { simHeader } from './_run.ts'

type Mode = 'enabled' | 'disabled'

const colHeader = (label: string, n: number): string =>
  label + Array.from({ length: n }, (_, j) => `${String(j).padStart(6)} `).join('')

function matrix(n: number, label: string, value: (i: number, j: number) => number): string[] {
  const out = [colHeader(label, n)]
  for (let i = 0; i < n; i++)
    out.push(`${String(i).padStart(6)} ${Array.from({ length: n }, (_, j) => cell(value(i, j))).join('')}`)
  return out
}

function bandwidths(r: Run, noise: Noise): string[] {
  const n = r.gpus.length
  const g = (i: number): number => r.gpus[i] as number
  const bw = (direction: 'uni' | 'bi', p2p: Mode) => (i: number, j: number) => {
    const truth = p2pBandwidth(r.preset, { src: g(i), dst: g(j), p2p, direction })
    const cold = r.warmup === 0 && direction === 'uni' && p2p === 'disabled' && i === 0 && j === 0
    return noise.bandwidth(truth, `bw-${direction}-${p2p}|${g(i)}|${g(j)}`, cold) / 1e9
  }
  return [
    'Unidirectional P2P=Disabled Bandwidth Matrix (GB/s)',
    ...matrix(n, '   D\\D', bw('uni', 'disabled')),
    'Unidirectional P2P=Enabled Bandwidth (P2P Writes) Matrix (GB/s)',
    ...matrix(n, '   D\\D', bw('uni', 'enabled')),
    'Bidirectional P2P=Disabled Bandwidth Matrix (GB/s)',
    ...matrix(n, '   D\\D', bw('bi', 'disabled')),
    'Bidirectional P2P=Enabled Bandwidth Matrix (GB/s)',
    ...matrix(n, '   D\\D', bw('bi', 'enabled')),
  ]
}

function latencies(r: Run, noise: Noise, p2p: Mode): string[] {
  const n = r.gpus.length
  const g = (i: number): number => r.gpus[i] as number
  const staged = (i: number, j: number): boolean =>
    i !== j && (p2p === 'disabled' || !r.preset.link(g(i), g(j)).peerAccess)
  const delta = hostDeltaS(r.preset, r.host)
  const lat = (timer: 'gpu' | 'cpu') => (i: number, j: number) =>
    noise.time(
      p2pLatency(r.preset, g(i), g(j), p2p, timer) + (staged(i, j) ? delta : 0),
      `lat-${timer}-${p2p}|${g(i)}|${g(j)}`,
    ) * 1e6
  return [...matrix(n, '   GPU', lat('gpu')), '', ...matrix(n, '   CPU', lat('cpu'))]
}

function devices(r: Run): string[] {
  const n = r.gpus.length
  const out = r.gpus.map(
    (g, i) =>
      `Device: ${i}, ${r.preset.gpuName}, pciBusID: ` +
      `${(r.preset.pciBus[g] ?? 0).toString(16)}, pciDeviceID: 0, pciDomainID:0`,
  )
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (i === j) continue
      const can = r.preset.link(r.gpus[i] as number, r.gpus[j] as number).peerAccess
      out.push(`Device=${i} ${can ? 'CAN' : 'CANNOT'} Access Peer Device=${j}`)
    }
  }
  return out
}

function connectivity(r: Run): string[] {
  const n = r.gpus.length
  const out = [
    'P2P Connectivity Matrix',
    `     D\\D${Array.from({ length: n }, (_, j) => String(j).padStart(6)).join('')}`,
  ]
  for (let i = 0; i < n; i++) {
    const cells = Array.from({ length: n }, (_, j) => {
      const ok = i === j || r.preset.link(r.gpus[i] as number, r.gpus[j] as number).peerAccess
      return String(ok ? 1 : 0).padStart(6)
    })
    out.push(`${String(i).padStart(6)}\t${cells.join('')}`)
  }
  return out
}

/** The whole p2pBandwidthLatencyTest output of a run. */
export function renderP2p(r: Run): Rendered {
  const scope = `${r.preset.name}|p2p|${r.gpus.join(',')}`
  const noise = noiseOfRun(r, scope)
  const head = [...simHeader(SIM_MARKER, r), '[P2P (Peer-to-Peer) GPU Bandwidth Latency Test]', ...devices(r)]
  const data = [
    ...connectivity(r),
    ...bandwidths(r, noise),
    'P2P=Disabled Latency Matrix (us)',
    ...latencies(r, noise, 'disabled'),
    'P2P=Enabled Latency (P2P Writes) Matrix (us)',
    ...latencies(r, noise, 'enabled'),
  ]
  const note = [
    '',
    "***NOTE: In case a device doesn't have P2P access to other one, it falls back to normal memcopy procedure.",
    'So you can see lesser Bandwidth (GB/s) and unstable Latency (us) in those cases.',
    '',
  ]
  const tail = [
    '',
    'NOTE: The CUDA Samples are not meant for performance measurements. Results may vary when GPU Boost is enabled.',
  ]
  const dataStart = head.length + note.length
  return {
    lines: [...head, ...note, ...data, ...tail],
    bannerEnd: head.length,
    dataStart,
    dataEnd: dataStart + data.length,
  }
}
