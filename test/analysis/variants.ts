/**
 * Generated variants of the project's real p2pBandwidthLatencyTest fixtures (named generated-…
 * when imported): the published text with latency cells rewritten by a function, device names
 * replaced, or CAN/CANNOT lines flipped, then imported and analyzed as a user would.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Analysis, TopologyView } from '../../src/analysis/index.ts'
import { analyze } from '../../src/analysis/index.ts'
import { importFiles } from '../../src/importer/index.ts'
import { readManifest, writeManifest } from '../../src/resultset/index.ts'
import { captureTopology } from '../../src/topology/index.ts'
import { FIXTURES, tmp } from '../helpers.ts'

/** A real p2pBandwidthLatencyTest fixture's text. */
export const p2pFixture = (name: string): string =>
  readFileSync(join(FIXTURES, 'p2pBandwidthLatencyTest', `${name}.txt`), 'utf8')

/**
 * Rewrites the GPU rows of every latency matrix whose title starts with `title` ("P2P=Disabled
 * Latency", "P2P=Enabled Latency"): each cell v at row i, column j becomes f(v, i, j), printed
 * with two decimals as the tool prints it. The CPU rows below are left alone.
 */
export function rewriteLatency(text: string, title: string, f: (v: number, i: number, j: number) => number): string {
  const lines = text.split('\n')
  let inGpu = false
  for (let k = 0; k < lines.length; k++) {
    const l = lines[k] as string
    if (l.startsWith(title)) inGpu = false
    if (/^\s+GPU(\s+\d+)+\s*$/.test(l) && lines.slice(Math.max(0, k - 1), k).some((p) => p.startsWith(title))) {
      inGpu = true
      continue
    }
    if (!inGpu) continue
    const m = /^(\s+)(\d+)((?:\s+[\d.]+)+)\s*$/.exec(l)
    if (!m) {
      inGpu = false
      continue
    }
    const i = Number(m[2])
    const cells = (m[3] as string).trim().split(/\s+/).map(Number)
    lines[k] = `${m[1]}${m[2]}${cells.map((v, j) => f(v, i, j).toFixed(2).padStart(7)).join('')}`
  }
  return lines.join('\n')
}

/** Replaces the GPU name on every `Device: i, NAME, pciBusID` line. */
export const renameGpus = (text: string, name: string): string =>
  text.replace(/^(Device: \d+, )[^,]+(, pciBusID)/gm, `$1${name}$2`)

/** Imports a generated variant (and any real fixture paths) into a fresh set, optionally declaring a VM. */
export async function importVariant(
  name: string,
  text: string,
  opts: { vm?: boolean; topology?: TopologyView; capture?: string[] } = {},
): Promise<Analysis> {
  const out = join(tmp('gpucomm-variant-'), 'set')
  await importFiles([{ path: `generated-${name}.txt`, data: Buffer.from(text) }], {
    out,
    command: ['generated-by-test'],
  })
  if (opts.vm !== undefined) {
    const m = readManifest(out)
    m.host = { ...m.host, vm: opts.vm }
    writeManifest(out, m)
  }
  if (opts.capture) await captureTopology(join(out, 'topology'), { inputs: opts.capture.map((p) => join(FIXTURES, p)) })
  return analyze(out, { cells: false, ...(opts.topology ? { topology: opts.topology } : {}) })
}

/** A topology view from a link-class function (the shape a capture gives). */
export const linkView = (link: (a: number, b: number) => string, extra: Partial<TopologyView> = {}): TopologyView => ({
  source: 'generated topology',
  linkClass: link,
  ...extra,
})
