/**
 * Generated (not measured) p2pBandwidthLatencyTest text for the parser tests: the line shapes
 * of the real output (FORMATS.md §2, the fixtures in test/fixtures/p2pBandwidthLatencyTest),
 * with made-up numbers: cell (i, j) of the k-th matrix prints `k.ij`, so every value says where
 * it came from.
 */

/** What to generate. */
export interface P2pGen {
  /** GPUs (default 2). */
  n?: number
  /** The command line printed before the banner. */
  cmd?: string
  /** Print the "(P2P Reads)" sections of --p2p_read too. */
  reads?: boolean
  /** Print the final NOTE line (default true). */
  footer?: boolean
  /** Sections to leave out, by their index in the order printed (0–5, 6–7 with reads). */
  skip?: number[]
}

const BW = [
  'Unidirectional P2P=Disabled Bandwidth Matrix (GB/s)',
  'Unidirectional P2P=Enabled Bandwidth (P2P Writes) Matrix (GB/s)',
  'Bidirectional P2P=Disabled Bandwidth Matrix (GB/s)',
  'Bidirectional P2P=Enabled Bandwidth Matrix (GB/s)',
]
const LAT = ['P2P=Disabled Latency Matrix (us)', 'P2P=Enabled Latency (P2P Writes) Matrix (us)']
const READ_BW = 'Unidirectional P2P=Enabled Bandwidth (P2P Reads) Matrix (GB/s)'
const READ_LAT = 'P2P=Enabled Latency (P2P Reads) Matrix (us)'

/** The value text of cell (i, j) of the k-th matrix. */
export const cellText = (k: number, i: number, j: number): string => `${k}.${i}${j}`

function matrix(corner: string, k: number, n: number): string[] {
  const idx = Array.from({ length: n }, (_, i) => i)
  return [
    `   ${corner}  ${idx.map((i) => `    ${i}`).join(' ')}`,
    ...idx.map((i) => `     ${i} ${idx.map((j) => cellText(k, i, j).padStart(6)).join(' ')}`),
  ]
}

/** One run: command line, banner, devices, CAN/CANNOT lines, connectivity, the matrices, the NOTE. */
export function p2pRun(g: P2pGen = {}): string[] {
  const n = g.n ?? 2
  const idx = Array.from({ length: n }, (_, i) => i)
  const out: string[] = g.cmd ? [g.cmd] : []
  out.push('[P2P (Peer-to-Peer) GPU Bandwidth Latency Test]')
  for (const i of idx)
    out.push(`Device: ${i}, Generated GPU, pciBusID: ${(i + 16).toString(16)}, pciDeviceID: 0, pciDomainID:0`)
  for (const i of idx) for (const j of idx) if (i !== j) out.push(`Device=${i} CAN Access Peer Device=${j}`)
  out.push('', 'P2P Connectivity Matrix', `     D\\D  ${idx.map((i) => `  ${i}`).join(' ')}`)
  for (const i of idx) out.push(`     ${i}   ${idx.map(() => '  1').join(' ')}`)
  const sections: [string, 'bw' | 'lat'][] = [
    ...BW.map((t) => [t, 'bw'] as [string, 'bw']),
    ...(g.reads ? [[READ_BW, 'bw'] as [string, 'bw']] : []),
    ...LAT.map((t) => [t, 'lat'] as [string, 'lat']),
    ...(g.reads ? [[READ_LAT, 'lat'] as [string, 'lat']] : []),
  ]
  let k = 0
  sections.forEach(([title, kind], s) => {
    if (g.skip?.includes(s)) return
    out.push(title)
    if (kind === 'bw') out.push(...matrix('D\\D', k++, n))
    else out.push(...matrix('GPU', k++, n), '', ...matrix('CPU', k++, n))
  })
  if (g.footer ?? true) out.push('NOTE: The CUDA Samples are not meant for performance measurements. Results may vary.')
  return out
}
