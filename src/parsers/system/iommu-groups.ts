/**
 * IOMMU group listings as `find /sys/kernel/iommu_groups -type l` prints them
 * (`/sys/kernel/iommu_groups/42/devices/0000:01:00.0`), also with a sorted or prefixed
 * path. A topology parser: no rows; `meta.topology` maps each group to its devices.
 */
import type { Diagnostic } from '../../model/index.ts'
import { splitLines } from '../_text.ts'
import type { LineParser, Origin, Parser } from '../types.ts'
import { normalizeBdf } from './_pci-chain.ts'
import { diag, stripAnsi } from './_topo-matrix.ts'

/** What an IOMMU group listing said, as put in `meta.topology`. */
export interface IommuGroups {
  format: 'iommu groups'
  /** Group number → PCI addresses in it, sorted. */
  groups: Record<string, string[]>
  /** PCI address → its group number. */
  byDevice: Record<string, number>
}

const LINE = /iommu_groups\/(\d+)\/devices\/([0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7])\s*$/

class IommuParser implements LineParser {
  private readonly t: IommuGroups = { format: 'iommu groups', groups: {}, byDevice: {} }
  private readonly diagnostics: Diagnostic[] = []
  private last = 0
  private seen = 0
  constructor(private readonly file: string) {}

  line(text: string, lineNo: number): void {
    this.last = lineNo
    const m = LINE.exec(stripAnsi(text).trim())
    if (!m) {
      if (/iommu_groups\//.test(text))
        this.diagnostics.push(
          diag(
            this.file,
            lineNo,
            'warn',
            'unparsed',
            'an iommu_groups path without …/<group>/devices/<pci address>; skipped',
          ),
        )
      return
    }
    const group = Number(m[1])
    const bdf = normalizeBdf(m[2] as string) as string
    const prev = this.t.byDevice[bdf]
    if (prev !== undefined && prev !== group) {
      this.diagnostics.push(
        diag(
          this.file,
          lineNo,
          'warn',
          'two-groups',
          `${bdf} listed in groups ${prev} and ${group}; the later is used`,
        ),
      )
      this.leave(bdf, prev)
    }
    this.t.byDevice[bdf] = group
    const list = (this.t.groups[String(group)] ??= [])
    if (!list.includes(bdf)) list.push(bdf)
    this.seen++
  }

  /** Takes `bdf` out of group `g`, and the group out when nothing is left in it. */
  private leave(bdf: string, g: number): void {
    const left = (this.t.groups[String(g)] ?? []).filter((d) => d !== bdf)
    if (left.length > 0) this.t.groups[String(g)] = left
    else delete this.t.groups[String(g)]
  }

  end(): { meta: Record<string, unknown>; diagnostics: Diagnostic[] } {
    if (this.seen === 0) {
      this.diagnostics.push(
        diag(
          this.file,
          Math.max(1, this.last),
          'error',
          'no-groups',
          'no IOMMU group path found (e.g. "/sys/kernel/iommu_groups/42/devices/0000:01:00.0")',
        ),
      )
      return { meta: {}, diagnostics: this.diagnostics }
    }
    for (const l of Object.values(this.t.groups)) l.sort()
    return { meta: { topology: this.t }, diagnostics: this.diagnostics }
  }
}

/** Confidence that a text head is an IOMMU group listing. */
function detect(head: string): number {
  const lines = splitLines(head.slice(0, 16384)).filter((l) => l.trim() !== '')
  const hits = lines.filter((l) => LINE.test(l.trim())).length
  return hits > 0 && hits >= lines.length / 2 ? 0.95 : 0
}

/** The IOMMU group listing parser (topology; emits no rows). */
export const iommuGroups: Parser = {
  id: 'iommu-groups',
  description: 'find /sys/kernel/iommu_groups -type l: the IOMMU group of every PCI device',
  kind: 'topology',
  detect,
  open: (origin: Origin) => new IommuParser(origin.file),
}
