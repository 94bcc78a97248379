/**
 * `lspci -nn` (also `-Dnn`, `-nnk`): every PCI function with its class code and
 * vendor:device ids; NVIDIA display devices (vendor 10de, class 03xx) are the GPUs. With
 * `-k`, the kernel driver in use (e.g. vfio-pci on a hypervisor host) is kept.
 * A topology parser: no rows; `meta.topology` holds what it read.
 */
import type { Diagnostic } from '../../model/index.ts'
import { splitLines } from '../_text.ts'
import type { LineParser, Origin, Parser } from '../types.ts'
import { normalizeBdf } from './_pci-chain.ts'
import { diag, stripAnsi } from './_topo-matrix.ts'

/** One PCI function as `lspci -nn` lists it. */
export interface LspciNnDevice {
  bdf: string
  /** Four hex digits, e.g. 0302. */
  classCode: string
  className: string
  /** `vvvv:dddd`, e.g. 10de:2bb5. */
  pciId: string
  name: string
  driver?: string
  line: number
}

/** What `lspci -nn` said, as put in `meta.topology`. */
export interface LspciList {
  format: 'lspci -nn'
  rootBuses: string[]
  deviceCount: number
  /** NVIDIA display controllers (vendor 10de, class 03xx), in bus order. */
  gpus: LspciNnDevice[]
}

/** One `lspci -nn` line: address, class name, [class], device name, [vendor:device], (rev), (prog-if). */
const LINE = new RegExp(
  String.raw`^((?:[0-9a-fA-F]{4,8}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7])\s+(.+?)\s+\[([0-9a-fA-F]{4})\]:` +
    String.raw`\s+(.*?)\s*\[([0-9a-fA-F]{4}:[0-9a-fA-F]{4})\](?:\s+\(rev [0-9a-fA-F]+\))?(?:\s+\(prog-if.*)?\s*$`,
)

class LspciNnParser implements LineParser {
  private readonly devices: LspciNnDevice[] = []
  private readonly diagnostics: Diagnostic[] = []
  private last = 0
  constructor(private readonly file: string) {}

  line(text: string, lineNo: number): void {
    this.last = lineNo
    const s = stripAnsi(text)
    const k = /^\s+Kernel driver in use:\s*(\S+)/.exec(s)
    const prev = this.devices[this.devices.length - 1]
    if (k && prev) {
      prev.driver = k[1] as string
      return
    }
    const m = LINE.exec(s)
    if (!m) {
      if (/^[0-9a-fA-F:]{5,}\.[0-7]\s/.test(s))
        this.diagnostics.push(
          diag(
            this.file,
            lineNo,
            'warn',
            'unparsed',
            'a device line without [class] and [vendor:device] ids (was -nn given?); skipped',
          ),
        )
      return
    }
    const bdf = normalizeBdf(m[1] as string) as string
    this.devices.push({
      bdf,
      classCode: (m[3] as string).toLowerCase(),
      className: m[2] as string,
      pciId: (m[5] as string).toLowerCase(),
      name: m[4] as string,
      line: lineNo,
    })
  }

  end(): { meta: Record<string, unknown>; diagnostics: Diagnostic[] } {
    if (this.devices.length === 0) {
      this.diagnostics.push(
        diag(
          this.file,
          Math.max(1, this.last),
          'error',
          'no-devices',
          'no lspci -nn device line found (e.g. "01:00.0 VGA compatible controller [0300]: … [10de:2bb5]")',
        ),
      )
      return { meta: {}, diagnostics: this.diagnostics }
    }
    const gpus = this.devices
      .filter((d) => d.pciId.startsWith('10de:') && d.classCode.startsWith('03'))
      .sort((a, b) => a.bdf.localeCompare(b.bdf))
    const rootBuses = [
      ...new Set(this.devices.filter((d) => d.classCode === '0600').map((d) => d.bdf.slice(0, 7))),
    ].sort()
    const list: LspciList = { format: 'lspci -nn', rootBuses, deviceCount: this.devices.length, gpus }
    return { meta: { topology: list }, diagnostics: this.diagnostics }
  }
}

/** Confidence that a text head is `lspci -nn` output. */
function detect(head: string): number {
  const lines = splitLines(head.slice(0, 16384)).map(stripAnsi)
  const hits = lines.filter((l) => LINE.test(l)).length
  return hits >= 2 || (hits === 1 && lines.filter((l) => l.trim() !== '').length <= 3) ? 0.9 : 0
}

/** The `lspci -nn` parser (topology; emits no rows). */
export const lspciNn: Parser = {
  id: 'lspci-nn',
  description: 'lspci -nn: PCI functions with class and vendor:device ids (NVIDIA GPUs, drivers with -k)',
  kind: 'topology',
  detect,
  open: (origin: Origin) => new LspciNnParser(origin.file),
}
