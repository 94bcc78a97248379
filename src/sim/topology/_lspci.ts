/**
 * `lspci -tv` text of a simulated PCI tree, drawn the way pciutils' ls-tree.c draws it: one
 * line buffer, written left to right; after each printed line every `+` and `|` in it
 * becomes `|` and everything else a space, so later lines inherit the vertical rules.
 */
import type { PciNode, PciRoot } from '../_types.ts'

const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0')

/** The highest bus number below a bridge (its subordinate bus). */
function subordinate(n: PciNode): number {
  return n.subordinate ?? Math.max(n.bus ?? 0, ...(n.children ?? []).map(subordinate))
}

class TreePrinter {
  readonly out: string[] = []
  private readonly line: string[] = []

  write(p: number, s: string): number {
    for (let i = 0; i < s.length; i++) this.line[p + i] = s[i] as string
    return p + s.length
  }

  /** Prints the line up to `p`, then turns it into the indentation of the lines below. */
  print(p: number): void {
    this.out.push(this.line.slice(0, p).join(''))
    for (let i = 0; i < p; i++) this.line[i] = this.line[i] === '+' || this.line[i] === '|' ? '|' : ' '
  }

  bus(devices: readonly PciNode[], p: number): void {
    if (devices.length === 0) return this.print(p)
    if (devices.length === 1) return this.dev(devices[0] as PciNode, this.write(p, '--'))
    devices.forEach((d, i) => this.dev(d, this.write(p, i < devices.length - 1 ? '+-' : '\\-')))
  }

  dev(d: PciNode, p0: number): void {
    let p = this.write(p0, d.dev)
    if (d.bus !== undefined) {
      const sub = subordinate(d)
      p = this.write(p, sub === d.bus ? `-[${hex(d.bus, 2)}]-` : `-[${hex(d.bus, 2)}-${hex(sub, 2)}]-`)
      return this.bus(d.children ?? [], this.write(p, '-'))
    }
    if (d.name !== undefined) p = this.write(p, `  ${d.name}`)
    this.print(p)
  }

  roots(roots: readonly PciRoot[]): void {
    const label = (r: PciRoot): string => `[${hex(r.domain, 4)}:${hex(r.bus, 2)}]-`
    const p = this.write(0, '-')
    if (roots.length === 1) return this.bus((roots[0] as PciRoot).devices, this.write(p, label(roots[0] as PciRoot)))
    roots.forEach((r, i) => this.bus(r.devices, this.write(p, `${i < roots.length - 1 ? '+-' : '\\-'}${label(r)}`)))
  }
}

/** Drops the functions of GPUs not in `keep`, and bridges left with nothing below them that held a GPU. */
function keepGpus(nodes: readonly PciNode[], keep: ReadonlySet<number>): PciNode[] {
  const hadGpu = (n: PciNode): boolean => n.gpu !== undefined || (n.children ?? []).some(hadGpu)
  const out: PciNode[] = []
  for (const n of nodes) {
    if (n.gpu !== undefined && !keep.has(n.gpu)) continue
    if (n.children === undefined) {
      out.push(n)
      continue
    }
    const children = keepGpus(n.children, keep)
    if (children.length > 0 || !hadGpu(n)) out.push({ ...n, children })
  }
  return out
}

/**
 * The `lspci -tv` lines of `roots`, showing only the GPUs in `keep` (a machine or VM where
 * only those are installed or passed through); root buses left without a device are omitted.
 */
export function renderLspciTree(roots: readonly PciRoot[], keep: ReadonlySet<number>): string[] {
  const shown = roots.map((r) => ({ ...r, devices: keepGpus(r.devices, keep) })).filter((r) => r.devices.length > 0)
  const t = new TreePrinter()
  t.roots(shown)
  return t.out
}
