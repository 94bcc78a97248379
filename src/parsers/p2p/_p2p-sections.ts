/**
 * The line shapes of cuda-samples p2pBandwidthLatencyTest (test/fixtures/p2pBandwidthLatencyTest has real ones): the banner,
 * device and peer-access lines, matrix titles and matrix headers.
 */
import { tokens } from '../_matrix-common.ts'

/** The banner line that starts every run. */
export const P2P_BANNER = '[P2P (Peer-to-Peer) GPU Bandwidth Latency Test]'

/** The final NOTE line; a run without it was cut short (or the paste was). */
export const P2P_FOOTER = 'NOTE: The CUDA Samples are not meant for performance measurements.'

/** What a matrix title says about the cells below it. */
export interface P2pSection {
  title: string
  bench: 'p2p.bw_uni' | 'p2p.bw_bi' | 'p2p.latency'
  metric: 'bandwidth' | 'latency'
  unit: 'B/s' | 's'
  /** Power of ten from the printed unit to the base unit: GB/s → 9, µs → -6. */
  exp: number
  p2p: 'enabled' | 'disabled'
  /** Only where the title says "(P2P Writes)" or "(P2P Reads)". */
  direction?: 'read' | 'write'
}

const BW_TITLE =
  /^(Unidirectional|Bidirectional)\s+P2P=(Enabled|Disabled)\s+Bandwidth\s+(?:\(P2P\s+(Writes|Reads)\)\s+)?Matrix\s*\(GB\/s\)$/
const LAT_TITLE = /^P2P=(Enabled|Disabled)\s+Latency\s+(?:\(P2P\s+(Writes|Reads)\)\s+)?Matrix\s*\(us\)$/

const dirOf = (w: string | undefined): 'read' | 'write' | undefined =>
  w === 'Reads' ? 'read' : w === 'Writes' ? 'write' : undefined

/** Classifies a trimmed line as a bandwidth or latency matrix title, or undefined. */
export function sectionOf(t: string): P2pSection | undefined {
  if (!t.includes('P2P=') || !t.endsWith(')')) return undefined
  const bw = BW_TITLE.exec(t)
  if (bw) {
    const direction = dirOf(bw[3])
    return {
      title: t,
      bench: bw[1] === 'Bidirectional' ? 'p2p.bw_bi' : 'p2p.bw_uni',
      metric: 'bandwidth',
      unit: 'B/s',
      exp: 9,
      p2p: bw[2] === 'Enabled' ? 'enabled' : 'disabled',
      ...(direction ? { direction } : {}),
    }
  }
  const lat = LAT_TITLE.exec(t)
  if (!lat) return undefined
  const direction = dirOf(lat[2])
  return {
    title: t,
    bench: 'p2p.latency',
    metric: 'latency',
    unit: 's',
    exp: -6,
    p2p: lat[1] === 'Enabled' ? 'enabled' : 'disabled',
    ...(direction ? { direction } : {}),
  }
}

/** One `Device: N, NAME, pciBusID: X, pciDeviceID: Y, pciDomainID:Z` line (ids as printed, hex). */
export interface P2pDevice {
  index: number
  name: string
  pciBusId: string
  pciDeviceId: string
  pciDomainId: string
  /** The same ids as `dddd:bb:dd.0`, lowercase, the form nvidia-smi and lspci use. */
  busId: string
}

const DEVICE =
  /^Device:\s*(\d+),\s*(.*?),\s*pciBusID:\s*([0-9a-fA-F]+),\s*pciDeviceID:\s*([0-9a-fA-F]+),\s*pciDomainID:\s*([0-9a-fA-F]+)\s*$/

/** Parses a device line, or undefined. */
export function deviceOf(t: string): P2pDevice | undefined {
  const m = DEVICE.exec(t)
  if (!m) return undefined
  const [bus, dev, dom] = [m[3] as string, m[4] as string, m[5] as string].map((x) => x.toLowerCase()) as [
    string,
    string,
    string,
  ]
  return {
    index: Number(m[1]),
    name: (m[2] as string).trim(),
    pciBusId: bus,
    pciDeviceId: dev,
    pciDomainId: dom,
    busId: `${dom.padStart(4, '0')}:${bus.padStart(2, '0')}:${dev.padStart(2, '0')}.0`,
  }
}

const ACCESS = /^Device=(\d+)\s+(CAN|CANNOT)\s+Access\s+Peer\s+Device=(\d+)$/

/** Parses `Device=i CAN|CANNOT Access Peer Device=j`, or undefined. */
export function accessOf(t: string): { from: number; to: number; can: boolean } | undefined {
  const m = ACCESS.exec(t)
  if (!m) return undefined
  return { from: Number(m[1]), to: Number(m[3]), can: m[2] === 'CAN' }
}

/** A matrix header: its corner (`D\D`, `GPU`, `CPU`) and column device indices. */
export interface P2pHeader {
  corner: 'D\\D' | 'GPU' | 'CPU'
  cols: number[]
}

/** Parses a matrix header line, or undefined. */
export function headerOf(t: string): P2pHeader | undefined {
  const c = t.charCodeAt(0)
  if (c !== 68 /* D */ && c !== 71 /* G */ && c !== 67 /* C */) return undefined
  const tk = tokens(t)
  const corner = tk[0]
  if (corner !== 'D\\D' && corner !== 'GPU' && corner !== 'CPU') return undefined
  if (tk.length < 2) return undefined
  const cols: number[] = []
  for (let i = 1; i < tk.length; i++) {
    const s = tk[i] as string
    if (!/^\d{1,6}$/.test(s)) return undefined
    cols.push(Number(s))
  }
  return { corner, cols }
}

/** Options a command line in the text asks for (`--p2p_read`, `--sm_copy`, `--numElems=N`). */
export interface P2pOptions {
  p2pRead: boolean
  smCopy: boolean
  /** Ints per copy from `--numElems=`, when the command line shows it. */
  numElems: number | null
  commandLine: string | null
}

/** Reads the options from a line that looks like the tool's command line, or undefined. */
export function optionsOf(t: string): P2pOptions | undefined {
  if (!/p2pBandwidthLatencyTest|--p2p_read|--sm_copy|--numElems/.test(t)) return undefined
  const tk = tokens(t)
  const ne = tk.find((x) => x.startsWith('--numElems=') || x.startsWith('-numElems='))
  const n = ne ? Number(ne.slice(ne.indexOf('=') + 1)) : NaN
  return {
    p2pRead: tk.some((x) => x === '--p2p_read' || x === '-p2p_read'),
    smCopy: tk.some((x) => x === '--sm_copy' || x === '-sm_copy'),
    numElems: Number.isSafeInteger(n) && n > 0 ? n : null,
    commandLine: t,
  }
}
