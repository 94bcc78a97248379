/**
 * `lspci -tv` (the PCI tree): root buses, bridges with their secondary bus, and each
 * NVIDIA GPU's chain of bridges to its root bus, with PCIe switches detected.
 * A topology parser: no rows; `meta.topology` holds what it read.
 */
import type { Diagnostic } from '../../model/index.ts'
import { splitLines } from '../_text.ts'
import type { LineParser, Origin, Parser } from '../types.ts'
import { chainSwitches, looksLikeNvidiaGpu } from './_pci-chain.ts'
import { diag, stripAnsi } from './_topo-matrix.ts'

/** A PCI function in the tree. */
export interface LspciDevice {
  bdf: string
  name?: string
  /** BDF of the bridge above it; undefined on a root bus. */
  parent?: string
  /** For bridges: the secondary bus (`dddd:bb`). */
  secondaryBus?: string
  line: number
}

/** An NVIDIA GPU (by name) with its path to the root bus. */
export interface LspciGpu {
  bdf: string
  name: string
  rootBus: string
  /** Bridges from the root port down to the GPU. */
  chain: string[]
  /** Upstream ports of the PCIe switches on the chain. */
  switches: string[]
  line: number
}

/** What `lspci -tv` said, as put in `meta.topology`. */
export interface LspciTree {
  format: 'lspci -tv'
  rootBuses: string[]
  deviceCount: number
  bridges: LspciDevice[]
  gpus: LspciGpu[]
}

const ROOT = /^\[(?:([0-9a-f]{4}):)?([0-9a-f]{2})\]/
const DEV = /^([0-9a-f]{2}\.[0-7])(?:-\[([0-9a-f]{2})(?:-[0-9a-f]{2})?\])?/
const DRAWING = /[ |+\\-]/

class LspciTvParser implements LineParser {
  /** Column where a child's `dd.f` starts → the bus it is on and the bridge above it. */
  private readonly busAt = new Map<number, { bus: string; parent?: string }>()
  private readonly devices: LspciDevice[] = []
  private readonly roots: string[] = []
  private readonly diagnostics: Diagnostic[] = []
  private last = 0
  constructor(private readonly file: string) {}

  line(text: string, lineNo: number): void {
    this.last = lineNo
    const s = stripAnsi(text)
    if (!/^[ |+\\-]*(\[[0-9a-f:]+\]|[0-9a-f]{2}\.[0-7])/.test(s) || !/^[ |+\\-]/.test(s)) return
    let p = 0
    let pending: { bus: string; parent?: string } | undefined
    while (p < s.length) {
      while (p < s.length && DRAWING.test(s[p] as string)) p++
      const rest = s.slice(p)
      const r = ROOT.exec(rest)
      if (r && !pending) {
        const bus = `${r[1] ?? '0000'}:${r[2] as string}`
        if (!this.roots.includes(bus)) this.roots.push(bus)
        pending = { bus }
        p += r[0].length
        continue
      }
      const d = DEV.exec(rest)
      if (!d) return
      let at = pending ?? this.busAt.get(p)
      if (!at && this.roots.length === 0 && this.devices.length === 0) {
        // A single-bus machine: lspci prints no [dddd:bb] root label.
        at = { bus: '0000:00' }
        this.roots.push(at.bus)
      }
      if (!at) {
        this.diagnostics.push(
          diag(
            this.file,
            lineNo,
            'warn',
            'orphan',
            `device ${d[1] as string} at column ${p + 1} has no parent in the tree; line skipped`,
          ),
        )
        return
      }
      this.busAt.set(p, at)
      const bdf = `${at.bus}:${d[1] as string}`
      const dev: LspciDevice = { bdf, line: lineNo, ...(at.parent ? { parent: at.parent } : {}) }
      this.devices.push(dev)
      p += d[0].length
      if (d[2]) {
        dev.secondaryBus = `${at.bus.slice(0, 4)}:${d[2]}`
        pending = { bus: dev.secondaryBus, parent: bdf }
        continue
      }
      const name = s.slice(p).trim()
      if (name) dev.name = name
      return
    }
  }

  private chain(dev: LspciDevice, byBdf: Map<string, LspciDevice>): string[] {
    const chain: string[] = []
    for (let up = dev.parent; up !== undefined; up = byBdf.get(up)?.parent) chain.unshift(up)
    return chain
  }

  end(): { meta: Record<string, unknown>; diagnostics: Diagnostic[] } {
    if (this.devices.length === 0) {
      this.diagnostics.push(
        diag(
          this.file,
          Math.max(1, this.last),
          'error',
          'no-tree',
          'no lspci -tv tree found (a line such as "-+-[0000:00]-+-00.0 …" was expected)',
        ),
      )
      return { meta: {}, diagnostics: this.diagnostics }
    }
    const byBdf = new Map(this.devices.map((d) => [d.bdf, d]))
    const gpus: LspciGpu[] = this.devices
      .filter((d) => d.name !== undefined && d.bdf.endsWith('.0') && looksLikeNvidiaGpu(d.name))
      .map((d) => {
        const chain = this.chain(d, byBdf)
        const rootBus = (chain[0] ?? d.bdf).slice(0, 7)
        return { bdf: d.bdf, name: d.name as string, rootBus, chain, switches: chainSwitches(chain), line: d.line }
      })
      .sort((a, b) => a.bdf.localeCompare(b.bdf))
    const bridges = this.devices.filter((d) => d.secondaryBus !== undefined)
    const tree: LspciTree = {
      format: 'lspci -tv',
      rootBuses: [...this.roots].sort(),
      deviceCount: this.devices.length,
      bridges,
      gpus,
    }
    return { meta: { topology: tree }, diagnostics: this.diagnostics }
  }
}

/** Confidence that a text head is `lspci -tv` output. */
function detect(head: string): number {
  const lines = splitLines(head.slice(0, 16384)).map(stripAnsi)
  // `-+-[0000:00]-+-…` / ` \-[0000:e0]-…` with several root buses; `-[0000:00]-+-…` with one.
  const roots = lines.filter((l) =>
    /^(?:-|[ +\\-]*[+\\-]-)\[(?:[0-9a-f]{4}:)?[0-9a-f]{2}\]-[+-]-?[0-9a-f-]/.test(l),
  ).length
  const kids = lines.filter((l) => /^[ |]+[+\\]-[0-9a-f]{2}\.[0-7]/.test(l)).length
  if (roots > 0 && kids > 0) return 0.95
  return roots > 0 ? 0.7 : 0
}

/** The `lspci -tv` parser (topology; emits no rows). */
export const lspciTv: Parser = {
  id: 'lspci-tv',
  description: "lspci -tv: PCI tree, root buses, each GPU's bridges and PCIe switches",
  kind: 'topology',
  detect,
  open: (origin: Origin) => new LspciTvParser(origin.file),
}
