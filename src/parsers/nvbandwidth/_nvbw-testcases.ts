/**
 * What an nvbandwidth testcase's matrix means (read against nvbandwidth's testcase
 * sources): the unit, and which end of a copy the row and the column are.
 *
 * nvbandwidth's description arrows do not follow the data for device-to-device tests: a
 * `*_read_*` test has "GPU(row) -> GPU(column)" but the row device *pulls* from the column
 * device (cuMemcpy from the peer into the row's buffer, in the row's context). Rows here
 * always follow the data: src = where the bytes come from, dst = where they land; the host
 * end is null.
 */
import type { Row } from '../../model/index.ts'

/** How the cells of one testcase's matrix become rows. */
export interface NvbwTestcase {
  metric: 'bandwidth' | 'latency'
  unit: 'B/s' | 's'
  /** GB/s → 9, ns → -9. */
  exp: number
  copy?: 'ce' | 'sm'
  direction?: 'read' | 'write'
  p2p: Row['p2p']
  /** src/dst of the cell at (row, column) given the devices' indices. */
  place(row: number, col: number): { src: number | null; dst: number | null }
}

/** The column device receives; the other end is the host (or every other GPU). */
const intoCol = (_r: number, c: number) => ({ src: null, dst: c })
/** The column device sends; the other end is the host (or every other GPU). */
const outOfCol = (_r: number, c: number) => ({ src: c, dst: null })
const colToRow = (r: number, c: number) => ({ src: c, dst: r })
const rowToCol = (r: number, c: number) => ({ src: r, dst: c })
const local = (_r: number, c: number) => ({ src: c, dst: c })

/** The row/column mapping of a testcase, from its name (and description as a fallback). */
function placer(base: string, description: string): NvbwTestcase['place'] {
  // Bidirectional device-to-device parts: copy 1 moves column → row, copy 2 row → column
  // (for the read and the write variants alike); the total counts both.
  if (/_(?:read|write)1$/.test(base)) return colToRow
  if (/_(?:read|write)2$|_total$/.test(base)) return rowToCol
  if (base === 'host_device_latency_sm') return intoCol
  if (base === 'device_to_device_latency_sm') return colToRow // the row device chases pointers in the column's memory
  if (/^(host_to_device|host_to_all)/.test(base)) return intoCol
  if (/^(device_to_host|all_to_host)/.test(base)) return outOfCol
  if (base.startsWith('all_to_one')) return intoCol // column = the device every other one copies to
  if (base.startsWith('one_to_all')) return outOfCol // column = the device that feeds every other one
  if (base === 'device_local_copy') return local
  if (/^device_to_device.*_read/.test(base)) return colToRow
  if (/^device_to_device.*_write/.test(base)) return rowToCol
  if (/CPU\(row\)\s*->/.test(description)) return intoCol
  if (/CPU\(row\)\s*<-/.test(description)) return outOfCol
  return rowToCol
}

/**
 * Describes a testcase by its key: the testcase name, or for the parts of a bidirectional
 * device-to-device test the SUM key (`…_read1`, `…_read2`, `…_total`). `multinode_` tests
 * read like their single-node twins.
 */
export function nvbwTestcase(name: string, description = ''): NvbwTestcase {
  const base = name.replace(/^multinode_/, '')
  const latency = /latency/.test(base) || /\(ns\)\s*$/.test(description)
  const copy = latency ? undefined : /_ce(?:_|$)/.test(base) ? 'ce' : /_sm(?:_|$)/.test(base) ? 'sm' : undefined
  const direction = /_read(?:_|\d|$)/.test(base) ? 'read' : /_write(?:_|\d|$)/.test(base) ? 'write' : undefined
  const peer = /^(device_to_device|all_to_one|one_to_all)/.test(base) || name.startsWith('multinode_')
  return {
    metric: latency ? 'latency' : 'bandwidth',
    unit: latency ? 's' : 'B/s',
    exp: latency ? -9 : 9,
    ...(copy ? { copy } : {}),
    ...(direction ? { direction } : {}),
    p2p: peer ? 'enabled' : null,
    place: placer(base, description),
  }
}

const MiB = 2 ** 20

/** Where a row's sizeBytes came from. */
export type BufferSource = 'command-line' | 'version-default' | 'fixed-latency-buffer' | 'unknown'

/**
 * The copy size of a testcase: `-b`/`--bufferSize` MiB when the command line shows it,
 * else the version's default (64 MiB up to v0.6, 512 MiB since v0.7); latency tests chase
 * pointers over a fixed 2 MiB buffer. nvbandwidth prints none of this itself.
 */
export function bufferSize(
  version: string | null,
  commandMiB: number | null,
  latency: boolean,
  smallWarning: boolean,
): { bytes: number | null; source: BufferSource } {
  if (latency) return { bytes: 2 * MiB, source: 'fixed-latency-buffer' }
  if (commandMiB !== null) return { bytes: commandMiB * MiB, source: 'command-line' }
  const m = version ? /^v?(\d+)\.(\d+)/.exec(version) : null
  if (!m || smallWarning) return { bytes: null, source: 'unknown' }
  const [major, minor] = [Number(m[1]), Number(m[2])]
  if (major === 0 && minor < 4) return { bytes: null, source: 'unknown' }
  return { bytes: (major > 0 || minor >= 7 ? 512 : 64) * MiB, source: 'version-default' }
}

/** A device as nvbandwidth lists it. */
export interface NvbwDevice {
  /** Matrix index: the device ordinal, or the MPI process for multinode runs. */
  index: number
  name: string
  /** `dddddddd:bb:dd` as printed (v0.6+), or null. */
  pci: string | null
  host?: string
  /** Device ordinal on its host (multinode). */
  localDevice?: number
}

const PCI = /^\(([0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2})\)$/

/** `NAME (dddddddd:bb:dd)` → name and PCI id; found from the last `(`, so linear on any input. */
function namePci(rest: string): { name: string; pci: string | null } {
  const t = rest.trim()
  const at = t.lastIndexOf('(')
  const m = at >= 0 ? PCI.exec(t.slice(at)) : null
  return m ? { name: t.slice(0, at).trimEnd(), pci: (m[1] as string).toLowerCase() } : { name: t, pci: null }
}

/** `Device 0: NAME (dddddddd:bb:dd)` or `Process 3 (host): device 1: NAME (...)`, or undefined. */
export function deviceLine(t: string): NvbwDevice | undefined {
  let m = /^Device (\d+): (.+)$/.exec(t)
  if (m) return { index: Number(m[1]), ...namePci(m[2] as string) }
  m = /^Process\s+(\d+)\s+\((.*)\): device (\d+): (.+)$/.exec(t)
  if (m) return { index: Number(m[1]), ...namePci(m[4] as string), host: m[2] as string, localDevice: Number(m[3]) }
  return undefined
}

/** A `GPU Device list` entry of the JSON output: `0: NAME (dddddddd:bb:dd): (hostname)`. */
export function jsonDevice(s: string): NvbwDevice | undefined {
  const m = /^(\d+): /.exec(s.trim())
  if (!m) return undefined
  // `NAME (pci): (host)`: the host part starts at the first `: (` of a text ending in `)`.
  const rest = s.trim().slice(m[0].length)
  const at = rest.endsWith(')') ? rest.indexOf(': (') : -1
  const name = at >= 0 ? rest.slice(0, at) : rest
  return { index: Number(m[1]), ...namePci(name), ...(at >= 0 ? { host: rest.slice(at + 3, -1) } : {}) }
}

/** `13.2 (13020)` or `12080` → 12080-style integer (1000·major + 10·minor), or null. */
export function cudaVersionNumber(s: string): number | null {
  const m = /\((\d+)\)\s*$/.exec(s) ?? /^(\d+)$/.exec(s.trim())
  return m ? Number(m[1]) : null
}
